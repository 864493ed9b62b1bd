import type { JobHandler } from '../jobs/queue.js';
import { type Embedder, embedderAround } from '../search/types.js';
import type { AppMetrics } from './metrics.js';

/** What the embedder and indexing are measured into: the app's metrics, or a background thread's relay of them. */
export type IndexingMetrics = Pick<
  AppMetrics,
  'embedding' | 'indexed' | 'indexingFailed' | 'indexingAttempt'
>;

/** The names of {@link IndexingMetrics}' calls, which a background thread relays to the app's metrics. */
export const INDEXING_METRIC_CALLS = ['embedding', 'indexed', 'indexingFailed', 'indexingAttempt'] as const;

/** Seconds since `start` (a `performance.now()` reading). */
const since = (start: number) => (performance.now() - start) / 1000;

/**
 * The embedder port, timed: every call's latency and size go to the metrics (none: the embedder as it is).
 * @example const embedder = meteredEmbedder(embedderFromConfig(options), metrics);
 */
export function meteredEmbedder(embedder: Embedder, metrics: IndexingMetrics | undefined): Embedder;
export function meteredEmbedder(
  embedder: Embedder | null,
  metrics: IndexingMetrics | undefined,
): Embedder | null;
export function meteredEmbedder(
  embedder: Embedder | null,
  metrics: IndexingMetrics | undefined,
): Embedder | null {
  if (!embedder || !metrics) return embedder;
  return embedderAround(embedder, async (texts, signal, priority) => {
    const start = performance.now();
    try {
      const vectors = await embedder.embed(texts, signal, priority);
      metrics.embedding(embedder.id, texts.length, since(start), true);
      return vectors;
    } catch (error) {
      metrics.embedding(embedder.id, texts.length, since(start), false);
      throw error;
    }
  });
}

/** The two calls that end a file's indexing (the files module's `FileIndexing` has them), by their shape. */
export interface IndexingOutcomes {
  indexingCompleted(job: unknown, passages: number): Promise<void>;
  indexingFailed(job: unknown, reason: string): Promise<void>;
}

/**
 * The files module's side of indexing, counted: passages of files that end indexing_completed, and files that
 * end indexing_failed by reason (none: the port as it is). `files` is a plain object of functions.
 */
export function meteredIndexingOutcomes<T extends IndexingOutcomes>(
  files: T,
  metrics: IndexingMetrics | undefined,
): T {
  if (!metrics) return files;
  return {
    ...files,
    async indexingCompleted(job: unknown, passages: number) {
      await files.indexingCompleted(job, passages);
      metrics.indexed(passages);
    },
    async indexingFailed(job: unknown, reason: string) {
      await files.indexingFailed(job, reason);
      metrics.indexingFailed(reason);
    },
  };
}

/** The `index_file` job with each attempt timed (none: the job as it is). */
export function meteredIndexingJob<P>(
  job: JobHandler<P>,
  metrics: IndexingMetrics | undefined,
): JobHandler<P> {
  if (!metrics) return job;
  return {
    ...job,
    async run(payload, context) {
      const start = performance.now();
      try {
        await job.run(payload, context);
        metrics.indexingAttempt(since(start), true);
      } catch (error) {
        metrics.indexingAttempt(since(start), false);
        throw error;
      }
    },
  };
}
