import type { UpdateFileBody } from '@parley/protocol';
import { recordMemberChange } from '../audit/service.js';
import { loadFile } from './access.js';
import type { FilesService } from './contract.js';
import type { FilesEnv } from './deps.js';
import { checkExpiry } from './expiry.js';
import { collectAfter, removeFile } from './garbage.js';
import { checkJsonField, storedObject } from './json-field.js';
import { storedFile } from './records.js';
import { type FileRow, filesRepo } from './repo.js';

/** The stored metadata with an update's keys merged in (null removes a key), checked as a new value. */
function mergedMetadata(stored: string, changes: Record<string, unknown>): string {
  // Unreadable stored metadata: the update starts from an empty object.
  const merged = { ...storedObject(stored), ...changes };
  for (const [k, v] of Object.entries(changes)) if (v === null) delete merged[k];
  return checkJsonField('metadata', merged, changes);
}

/** The columns an updateFileMetadata body changes. */
export function updateValues(row: FileRow, body: UpdateFileBody, now: Date): Partial<FileRow> {
  const values: Partial<FileRow> = { updated_at: now.toISOString() };
  if (body.metadata !== undefined) values.metadata = mergedMetadata(row.metadata, body.metadata);
  if (body.accessPolicies !== undefined) {
    // An explicit change of access applies to the bytes served now too (unlike a re-upsert's policies,
    // which wait for the new bytes).
    values.access_policies = JSON.stringify(body.accessPolicies);
    values.blob_access_policies = values.access_policies;
  }
  if (body.expiresAt !== undefined) values.expires_at = checkExpiry(body.expiresAt, now);
  return values;
}

/** What an update changed, for its audit record: the tags as sent (null removes one), the other fields' names. */
function changedFields(body: UpdateFileBody): Record<string, unknown> {
  const fields = (['metadata', 'accessPolicies', 'expiresAt'] as const).filter((f) => body[f] !== undefined);
  return { ...(body.tags ? { tags: body.tags } : {}), ...(fields.length ? { fields } : {}) };
}

/** Changes to a file record: its fields, tags and expiry (update), or its removal with its blob (delete). */
export function filesEdit(env: FilesEnv): Pick<FilesService, 'update' | 'delete'> {
  const { db } = env;
  return {
    async update(ctx, idOrKey, body) {
      const row = await loadFile(db, ctx, idOrKey, 'update');
      const values = updateValues(row, body, env.clock());
      await db.transaction().execute(async (tx) => {
        await filesRepo(tx).update(row.id, values);
        if (body.tags) await filesRepo(tx).setTags(row.id, body.tags);
        await recordMemberChange(env.audit, tx, ctx, {
          action: 'UPDATE_FILE',
          resourceId: row.id,
          resourceName: row.key,
          value: changedFields(body),
        });
      });
      return storedFile(env, row.id, ctx.actor);
    },
    async delete(ctx, idOrKey) {
      const row = await loadFile(db, ctx, idOrKey, 'delete');
      await removeFile(db, row.id, env.now());
      await recordMemberChange(env.audit, db, ctx, {
        action: 'DELETE_FILE',
        resourceId: row.id,
        resourceName: row.key,
      });
      await collectAfter(env, ctx.log ?? env.logger, { fileId: row.id });
    },
  };
}
