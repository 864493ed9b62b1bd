import type { Kysely } from 'kysely';
import { fixedQuery } from '../../db/fixed-query.js';
import type { Database } from '../../db/schema.js';
import { ApiError, errors } from '../../errors/errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import { loadFile } from './access.js';
import { type FileIndexing, type FilesService, INDEX_FILE_JOB, type IndexFileJob } from './contract.js';
import type { FilesEnv } from './deps.js';
import { storedFile, uploaded } from './records.js';
import { type FileRow, filesRepo } from './repo.js';

/** Longest failure reason stored on a file. */
const MAX_REASON_LENGTH = 2000;

/** A file set indexing_pending (every upload to index does: compiled once, see fixedQuery). */
const setIndexingPending = fixedQuery(3, (db, id: string, total: number, at: string) =>
  db
    .updateTable('files')
    .set({
      status: 'indexing_pending',
      failed_status_reason: null,
      indexing_done: 0,
      indexing_total: total,
      updated_at: at,
    })
    .where('id', '=', id),
);

/**
 * Starts indexing a file inside the caller's transaction: status indexing_pending (with `total` passages to
 * embed, when known), a durable `index_file` job queued for the file's current upload.
 */
export async function scheduleIndexing(
  tx: Kysely<Database>,
  deps: { jobs?: JobQueue | undefined; now: () => string },
  row: Pick<FileRow, 'id' | 'upload_version'>,
  options: { total?: number; source?: IndexFileJob['source'] } = {},
): Promise<void> {
  await setIndexingPending(tx, row.id, options.total ?? 0, deps.now());
  const job: IndexFileJob = {
    fileId: row.id,
    uploadVersion: row.upload_version,
    ...(options.source ? { source: options.source } : {}),
  };
  await deps.jobs?.enqueue(INDEX_FILE_JOB, job, { tx });
}

/** 500 in a process built without the job queue (tools): indexing cannot be queued there. */
function unavailableWithoutJobs(env: Pick<FilesEnv, 'jobs'>): void {
  if (!env.jobs) throw new ApiError('Internal', 'Indexing is not available in this process');
}

/** Whether a file needs indexing queued: never asked for, ready but not indexed, or failed (or `force`). */
function needsIndexing(row: FileRow, force: boolean): boolean {
  return force || row.index === 0 || row.status === 'upload_completed' || row.status === 'indexing_failed';
}

/** Updates a file for its `index_file` job, only while it still waits for that very job. */
function setForJob(db: Kysely<Database>, job: IndexFileJob, values: Partial<FileRow>) {
  return filesRepo(db).updateWhile(
    job.fileId,
    { version: job.uploadVersion, status: 'indexing_pending' },
    values,
  );
}

/** Files re-queued per transaction by `reembedIndexed`. */
const REEMBED_BATCH = 500;

/**
 * What the `index_file` job reads and writes of a file (see {@link FileIndexing}). The job's steps that start
 * database work (before it reads the file, before it writes the passages, between embedding batches) first
 * yield to the process's foreground requests (jobs/foreground.ts: at most the gate's bound).
 */
export function fileIndexing(env: FilesEnv): FileIndexing {
  const { db } = env;
  return {
    async indexingTarget(job) {
      await env.foreground?.yield();
      const row = await filesRepo(db).byIdAnyBot(job.fileId);
      return row && row.upload_version === job.uploadVersion && row.status === 'indexing_pending'
        ? row
        : undefined;
    },
    async indexingProgress(job, progress) {
      await env.foreground?.yield();
      await setForJob(db, job, {
        ...(progress.total !== undefined ? { indexing_total: progress.total } : {}),
        indexing_done: progress.done,
      });
    },
    async indexingCompleted(job, passages, language) {
      await setForJob(db, job, {
        status: 'indexing_completed',
        failed_status_reason: null,
        language: language ?? null,
        indexing_done: passages,
        updated_at: env.now(),
      });
    },
    async indexingFailed(job, reason) {
      await setForJob(db, job, {
        status: 'indexing_failed',
        failed_status_reason: reason.slice(0, MAX_REASON_LENGTH),
        updated_at: env.now(),
      });
    },
    async reembedIndexed(fileIds) {
      if (!env.jobs) return 0;
      const queue = async (rows: Array<Pick<FileRow, 'id' | 'upload_version'>>) => {
        await db.transaction().execute(async (tx) => {
          for (const row of rows) await scheduleIndexing(tx, env, row, { source: 'stored' });
        });
        return rows.length;
      };
      let queued = 0;
      if (fileIds) {
        for (let i = 0; i < fileIds.length; i += REEMBED_BATCH) {
          const rows = await filesRepo(db).byIds(fileIds.slice(i, i + REEMBED_BATCH));
          queued += await queue(rows.filter((r) => r.index === 1 && r.status === 'indexing_completed'));
        }
        return queued;
      }
      let after = '';
      for (;;) {
        const rows = await filesRepo(db).indexedAfter(after, REEMBED_BATCH);
        if (rows.length === 0) return queued;
        queued += await queue(rows);
        after = rows[rows.length - 1]?.id ?? after;
      }
    },
    async indexStoredPassages(file, passages) {
      unavailableWithoutJobs(env);
      await db.transaction().execute(async (tx) => {
        await filesRepo(tx).update(file.id, { index: 1 });
        await scheduleIndexing(tx, env, file, { total: passages, source: 'stored' });
      });
    },
  };
}

/** Indexing asked for by a caller: again without a new upload, or for a file linked to a knowledge base. */
export function filesIndexing(env: FilesEnv): Pick<FilesService, 'reindex' | 'ensureIndexed'> {
  const { db } = env;
  async function ensureIndexed(fileId: string, force = false) {
    unavailableWithoutJobs(env);
    const row = await filesRepo(db).byIdAnyBot(fileId);
    if (!row) throw errors.notFound('File', fileId);
    if (!uploaded(row)) {
      // Not uploaded yet (or a re-upsert waits for its bytes): it will be indexed when the upload completes.
      if (row.index === 0) await filesRepo(db).update(row.id, { index: 1, updated_at: env.now() });
    } else if (needsIndexing(row, force)) {
      await db.transaction().execute(async (tx) => {
        await filesRepo(tx).update(row.id, { index: 1 });
        await scheduleIndexing(tx, env, row);
      });
    }
    return storedFile(env, fileId);
  }
  return {
    ensureIndexed,
    async reindex(ctx, idOrKey) {
      const row = await loadFile(db, ctx, idOrKey, 'update');
      return ensureIndexed(row.id, true);
    },
  };
}
