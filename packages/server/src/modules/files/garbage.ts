import type { Kysely } from 'kysely';
import type { BlobStore } from '../../blob/blob-store.js';
import { queueGarbage } from '../../db/blob-garbage.js';
import type { Database } from '../../db/schema.js';
import type { Logger } from '../../logger.js';
import type { FilesService } from './contract.js';
import type { FilesEnv } from './deps.js';
import { filesRepo } from './repo.js';

/** What blob garbage is collected with. */
export interface GarbageDeps {
  db: Kysely<Database>;
  blobs: BlobStore;
}

/** Deletes queued blobs; answers how many went. Safe to run from several processes. */
export async function collectGarbage(deps: GarbageDeps, limit = 100): Promise<number> {
  const { db, blobs } = deps;
  const rows = await db.selectFrom('blob_garbage').selectAll().orderBy('queued_at').limit(limit).execute();
  let n = 0;
  for (const row of rows) {
    await blobs.delete(row.blob_key);
    await db.deleteFrom('blob_garbage').where('blob_key', '=', row.blob_key).execute();
    n += 1;
  }
  return n;
}

/**
 * Collects the garbage a change just queued, without failing the change: the change is committed, and a blob
 * left queued is deleted by the periodic sweep. A failure is logged on `log` (the request's logger).
 */
export async function collectAfter(
  deps: GarbageDeps,
  log: Logger,
  fields: Record<string, unknown>,
): Promise<void> {
  try {
    await collectGarbage(deps);
  } catch (error) {
    log.warn(
      { ...fields, err: error },
      'Deleting replaced blobs failed; they stay queued for the periodic sweep',
    );
  }
}

/** Deletes a file record and queues the blob it holds at that moment (read under the row lock). */
export async function removeFile(db: Kysely<Database>, id: string, at: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const current = await filesRepo(tx).byIdLocked(id);
    if (!current) return;
    await queueGarbage(tx, current.blob_key, at);
    await filesRepo(tx).delete(id);
  });
}

/** Of these blob keys, those no file record holds. */
async function unheld(db: Kysely<Database>, keys: string[]): Promise<string[]> {
  const rows = await db.selectFrom('files').select('blob_key').where('blob_key', 'in', keys).execute();
  const held = new Set(rows.map((r) => r.blob_key));
  return keys.filter((key) => !held.has(key));
}

/**
 * Deletes blobs that no file record holds (left by a crash or a lost race between a blob write and its
 * record), once older than `olderThanMs`; answers how many went. A blob is written just before the
 * transaction that records it, so `olderThanMs` must exceed the longest upload: with S3, a multipart object
 * is dated from when its upload began. Safe on several processes.
 */
export async function sweepOrphans(
  deps: GarbageDeps & { clock: () => Date },
  olderThanMs: number,
): Promise<number> {
  const cutoff = deps.clock().getTime() - olderThanMs;
  let removed = 0;
  let batch: string[] = [];
  const flush = async () => {
    for (const key of await unheld(deps.db, batch)) {
      await deps.blobs.delete(key);
      removed += 1;
    }
    batch = [];
  };
  for await (const entry of deps.blobs.list('bots/')) {
    if (entry.lastModified.getTime() > cutoff) continue;
    batch.push(entry.key);
    if (batch.length >= 500) await flush();
  }
  if (batch.length > 0) await flush();
  return removed;
}

/** The clean-up of blobs: queued garbage, temporary leftovers, orphans (resumable.ts adds expired uploads to sweepTemporary). */
export function filesGarbage(
  env: FilesEnv,
): Pick<FilesService, 'collectGarbage' | 'sweepTemporary' | 'sweepOrphans'> {
  return {
    collectGarbage: (limit) => collectGarbage(env, limit),
    sweepTemporary: async () => (await env.blobs.sweepTemporary?.(3600_000)) ?? 0,
    sweepOrphans: (olderThanMs = env.settings.uploadUrlTtlMs) => sweepOrphans(env, olderThanMs),
  };
}
