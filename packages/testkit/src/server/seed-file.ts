import type { Kysely } from 'kysely';
import type { Database } from '../../../server/src/db/schema.js';
import { newId } from '../../../server/src/ids.js';
import { ROW_TIME } from './rows.js';

/** How a seeded file looks (every field has a default). */
export interface FileOptions {
  /** Its key (default: `<id>.txt`). */
  key?: string;
  contentType?: string;
  status?: string;
  ownerType?: 'bot' | 'integration' | 'user';
  ownerId?: string | null;
  accessPolicies?: string[];
  tags?: Record<string, string>;
}

/**
 * A file row of the bot without a blob, indexed by default (status indexing_completed): its passages are written
 * directly (the passage-index suites, the search benchmark). Answers its id.
 */
export async function seedFile(
  db: { kysely: Kysely<Database> },
  owner: { botId: string; workspaceId: string },
  o: FileOptions = {},
): Promise<string> {
  const id = newId('file');
  await db.kysely
    .insertInto('files')
    .values({
      id,
      bot_id: owner.botId,
      workspace_id: owner.workspaceId,
      key: o.key ?? `${id}.txt`,
      content_type: o.contentType ?? 'text/plain',
      size: 1,
      declared_size: 1,
      sha256: null,
      metadata: '{}',
      access_policies: JSON.stringify(o.accessPolicies ?? []),
      index: 1,
      indexing_configuration: null,
      status: o.status ?? 'indexing_completed',
      failed_status_reason: null,
      expires_at: null,
      owner_type: o.ownerType ?? 'bot',
      owner_id: o.ownerId ?? null,
      blob_key: null,
      upload_version: 1,
      indexing_done: 0,
      indexing_total: 0,
      created_at: ROW_TIME,
      updated_at: ROW_TIME,
    })
    .execute();
  const tags = Object.entries(o.tags ?? {});
  if (tags.length > 0)
    await db.kysely
      .insertInto('file_tags')
      .values(tags.map(([key, value]) => ({ file_id: id, key, value })))
      .execute();
  return id;
}
