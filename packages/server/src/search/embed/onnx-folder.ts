/**
 * An operator's own ONNX sentence-embedding model folder (onnx-folder-model.ts), in the same worker pool
 * as the shipped model: for an air-gapped deployment that copies a stronger encoder in, without any
 * service. Chosen by `PARLEY_EMBEDDER=onnx` with `PARLEY_EMBEDDING_MODEL_DIR`.
 */
import path from 'node:path';
import { WorkerPoolEmbedder } from './worker-pool.js';
import type { WorkerPoolOptions } from './worker-pool-options.js';

/** Largest number of texts given to a folder model at once. */
export const ONNX_FOLDER_MAX_BATCH = 64;

/** Default texts per call of a folder model. */
export const ONNX_FOLDER_DEFAULT_BATCH = 16;

/** Settings of the folder embedder; only the folder is required. */
export interface OnnxModelOptions extends WorkerPoolOptions {
  /** Folder with `model.onnx` (or `onnx/model.onnx`) and `tokenizer.json`. */
  dir: string;
  /** Texts per model call, 1–64. Default 16. */
  batchSize?: number;
  /** The module onnxruntime is imported from; default `onnxruntime-node`. */
  onnxRuntime?: string;
}

/**
 * Embeds with the model of a folder in worker threads. Its `id` (`onnx:<folder>@<hash>`) and `dimensions`
 * are known once a worker has loaded the model: after `ready()` or the first `embed()` (before, the id
 * lacks the hash and the width is 0).
 *
 * @example
 * const embedder = new OnnxModelEmbedder({ dir: '/models/bge-small-en-v1.5', workers: 2 });
 * await embedder.ready(); // embedder.id === 'onnx:bge-small-en-v1.5@…', embedder.dimensions === 384
 */
export class OnnxModelEmbedder extends WorkerPoolEmbedder {
  constructor(options: OnnxModelOptions) {
    const dir = path.resolve(options.dir);
    super(
      () => ({
        kind: 'onnx-folder',
        dir,
        ...(options.onnxRuntime ? { onnxRuntime: options.onnxRuntime } : {}),
      }),
      {
        id: `onnx:${path.basename(dir)}`,
        dimensions: 0,
        maxBatch: ONNX_FOLDER_MAX_BATCH,
        defaultBatch: ONNX_FOLDER_DEFAULT_BATCH,
      },
      options,
    );
  }
}
