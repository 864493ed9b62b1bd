import Type from 'typebox';
import type { JobBackoff } from '../../jobs/registry.js';
import type { QaEmbedJob } from './contract.js';

/** Kind of the job that embeds the wordings of a saved Q&A entry. */
export const QA_EMBED_JOB = 'qa_embed';

declare module '../../jobs/registry.js' {
  interface JobPayloads {
    [QA_EMBED_JOB]: QaEmbedJob;
  }
}

/** Schema of a `qa_embed` payload ({@link QaEmbedJob}). */
export const QaEmbedPayload = Type.Object({
  botId: Type.String({ minLength: 1 }),
  entryId: Type.String({ minLength: 1 }),
});

/** Attempts of a `qa_embed` job (an embedder that fails now may answer later). */
export const QA_EMBED_MAX_ATTEMPTS = 5;
/** Backoff between them. */
export const QA_EMBED_BACKOFF: JobBackoff = { baseMs: 1000, maxMs: 300_000 };
/** Longest one attempt may run (the first may load the model). */
export const QA_EMBED_TIMEOUT_MS = 120_000;
