import Type from 'typebox';
import type { JobBackoff } from '../../jobs/registry.js';

/**
 * Payload of an `index_file` job (`INDEX_FILE_JOB`, queued by the files module in the transaction of an
 * upload or a re-index request, run by the knowledge module's indexer).
 */
export interface IndexFileJob {
  fileId: string;
  /** The upload it was queued for: a job for an older upload of the file does nothing. */
  uploadVersion: number;
  /** 'stored': embed the passages the file already has (setFilePassages) instead of extracting the blob. */
  source?: 'blob' | 'stored';
}

declare module '../../jobs/registry.js' {
  interface JobPayloads {
    index_file: IndexFileJob;
  }
}

/** Schema of an `index_file` payload ({@link IndexFileJob}). */
export const IndexFilePayload = Type.Object({
  fileId: Type.String({ minLength: 1 }),
  uploadVersion: Type.Integer(),
  source: Type.Optional(Type.Union([Type.Literal('blob'), Type.Literal('stored')])),
});

/** Attempts of an indexing job for transient failures (embedder unreachable, database busy). */
export const INDEX_FILE_MAX_ATTEMPTS = 5;

/** Backoff between indexing attempts. */
export const INDEX_FILE_BACKOFF: JobBackoff = { baseMs: 1_000, maxMs: 300_000 };

/** Passages sent to the embedder in one call. */
export const INDEX_EMBED_BATCH = 32;

/** How often an idle indexing worker looks for work. */
export const INDEXING_WORKERS_POLL_MS = 500;
