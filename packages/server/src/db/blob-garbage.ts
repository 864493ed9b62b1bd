/**
 * The queue of blobs to delete (`blob_garbage`): a change that stops referencing a blob queues it in its own
 * transaction, and the files module's collector deletes it from the blob store afterwards. Below the modules, so
 * that deleting a bot (bots) or a workspace (identity) queues the blobs of the files that go with it by cascade
 * without reaching into the files module.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

/** Queues a blob for deletion inside the transaction that stops referencing it (nothing when null). */
export async function queueGarbage(tx: Kysely<Database>, blobKey: string | null, at: string): Promise<void> {
  if (!blobKey) return;
  await tx
    .insertInto('blob_garbage')
    .values({ blob_key: blobKey, queued_at: at })
    .onConflict((oc) => oc.column('blob_key').doNothing())
    .execute();
}

/** Whose files: one bot's, or a whole workspace's. */
export type FilesScope = { botId: string } | { workspaceId: string };

/**
 * Queues the blobs of every file of a bot or a workspace for deletion, inside the transaction that deletes
 * the bot or the workspace (its files go with it by cascade).
 */
export async function queueGarbageOf(tx: Kysely<Database>, scope: FilesScope, at: string): Promise<void> {
  const files = tx.selectFrom('files').select(['blob_key', sql.lit(at).as('queued_at')]);
  await tx
    .insertInto('blob_garbage')
    .columns(['blob_key', 'queued_at'])
    .expression(
      ('botId' in scope
        ? files.where('bot_id', '=', scope.botId)
        : files.where('workspace_id', '=', scope.workspaceId)
      ).where('blob_key', 'is not', null),
    )
    .onConflict((oc) => oc.column('blob_key').doNothing())
    .execute();
}
