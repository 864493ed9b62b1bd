/** A worker pool's settings (worker-pool.ts): what an operator or a caller may set, checked once, with defaults. */
import { EmbedderError } from './errors.js';

/** Most worker threads one embedder runs (each holds its own copy of the model). */
export const MAX_EMBED_WORKERS = 32;

/** Settings of a worker pool; every one has a default. */
export interface WorkerPoolOptions {
  /** Worker threads, each with its own copy of the model and one core's worth of work. Default 1. */
  workers?: number;
  /** Texts per model call. */
  batchSize?: number;
  /** Time bound of one model load. Default 60 s. */
  startTimeoutMs?: number;
  /** Time bound of one batch; past it the worker is ended and the call fails (retryable). Default 120 s. */
  batchTimeoutMs?: number;
  /**
   * One more worker for interactive calls only (search queries, chat questions, Q&A lookups), at normal CPU
   * priority, started at the first such call; the `workers` then take bulk batches first (and interactive
   * ones only while no bulk batch waits). Another copy of the model in memory. Default false.
   */
  queryWorker?: boolean;
  /**
   * With `queryWorker`: the nice value (0–19) of the other workers' threads, so that on Linux the kernel
   * runs the query worker (and the thread serving requests) first when the cores are busy. Default 0.
   */
  bulkNice?: number;
}

/** The pool's settings with their defaults, each checked (`invalid_configuration` when out of range). */
export function poolSettings(
  options: WorkerPoolOptions,
  identity: { maxBatch: number; defaultBatch: number },
): {
  size: number;
  batchSize: number;
  startTimeoutMs: number;
  batchTimeoutMs: number;
  queryWorker: boolean;
  bulkNice: number;
} {
  return {
    size: clampInteger(options.workers ?? 1, 1, MAX_EMBED_WORKERS, 'workers'),
    batchSize: clampInteger(options.batchSize ?? identity.defaultBatch, 1, identity.maxBatch, 'batchSize'),
    startTimeoutMs: options.startTimeoutMs ?? 60_000,
    batchTimeoutMs: options.batchTimeoutMs ?? 120_000,
    queryWorker: options.queryWorker ?? false,
    bulkNice: clampInteger(options.bulkNice ?? 0, 0, 19, 'bulkNice'),
  };
}

function clampInteger(value: number, min: number, max: number, name: string): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new EmbedderError(
      'invalid_configuration',
      `${name} must be an integer from ${min} to ${max}, got ${value}`,
    );
  }
  return value;
}
