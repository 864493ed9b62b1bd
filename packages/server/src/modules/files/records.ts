import type { FileAccessPolicy, FileObject } from '@parley/protocol';
import type { Kysely } from 'kysely';
import type { FileActor, FileFacts } from '../../access/file-policy.js';
import type { Database } from '../../db/schema.js';
import { readJsonObject } from './json-field.js';
import { type FileRow, filesRepo } from './repo.js';
import { downloadUrl, type UrlDeps } from './urls.js';

/** What a file object is made with: its tags are read, its URL signed. */
export interface RecordDeps extends UrlDeps {
  db: Kysely<Database>;
}

/** What the permission table decides on: the file's owner and current access policies. */
export function facts(row: FileRow): FileFacts {
  return {
    ownerType: row.owner_type as FileFacts['ownerType'],
    ownerId: row.owner_id,
    accessPolicies: JSON.parse(row.access_policies) as string[],
  };
}

/** The facts of the bytes a file serves: its owner, and the access policies they were committed under. */
export function contentFacts(row: FileRow): FileFacts {
  return {
    ...facts(row),
    accessPolicies: JSON.parse(row.blob_access_policies ?? row.access_policies) as string[],
  };
}

/** Statuses of a file whose latest upsert has no committed content (yet): it waits for, or failed, its upload. */
const AWAITING_UPLOAD: ReadonlySet<string> = new Set(['upload_pending', 'upload_failed']);

/** Whether the content of the file's latest upsert is committed. */
export function uploaded(row: FileRow): boolean {
  return row.blob_key !== null && row.size !== null && !AWAITING_UPLOAD.has(row.status);
}

/** Whether the file has committed bytes to serve: its latest upsert's, or older ones a re-upsert has yet to replace. */
export function servable(row: FileRow): row is FileRow & { blob_key: string; size: number } {
  return row.blob_key !== null && row.size !== null;
}

/**
 * The file object of a row. While a re-upsert waits for its upload, it answers like a fresh upsert would
 * (API-COMPAT: `size` null and no checksum until uploaded, status upload_pending) although `url` still
 * serves the previous bytes.
 */
export async function toFile(
  deps: RecordDeps,
  row: FileRow,
  tags?: Record<string, string>,
  viewer?: FileActor,
): Promise<FileObject> {
  const t = tags ?? (await filesRepo(deps.db).tagsOf([row.id])).get(row.id) ?? {};
  const current = uploaded(row);
  return {
    id: row.id,
    botId: row.bot_id,
    key: row.key,
    url: downloadUrl(deps, row, viewer),
    size: current ? row.size : null,
    contentType: row.content_type,
    tags: t,
    metadata: readJsonObject(row.metadata),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    accessPolicies: JSON.parse(row.access_policies) as FileAccessPolicy[],
    index: row.index === 1,
    status: row.status as FileObject['status'],
    ...(row.failed_status_reason ? { failedStatusReason: row.failed_status_reason } : {}),
    ...(row.language ? { language: row.language } : {}),
    ...(row.expires_at ? { expiresAt: row.expires_at } : {}),
    owner: {
      type: row.owner_type as FileObject['owner']['type'],
      ...(row.owner_id ? { id: row.owner_id } : {}),
    },
    ...(current && row.sha256 ? { checksum: row.sha256 } : {}),
    ...(row.status === 'indexing_pending' && row.indexing_total > 0
      ? { indexingProgress: { done: row.indexing_done, total: row.indexing_total } }
      : {}),
  };
}

/** The file object of a file as stored now (read again after a change), seen by `viewer`. */
export async function storedFile(deps: RecordDeps, id: string, viewer?: FileActor): Promise<FileObject> {
  return toFile(deps, (await filesRepo(deps.db).byIdAnyBot(id)) as FileRow, undefined, viewer);
}
