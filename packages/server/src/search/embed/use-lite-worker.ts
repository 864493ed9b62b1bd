/**
 * Entry point of an embedding worker thread (started by worker-pool.ts; like main.ts, this file acts when
 * loaded). It loads its model once on onnxruntime-node: the shipped USE lite or an operator's ONNX model
 * folder; says `ready` with the model's id and width (or `failed`, with the reason), then answers one
 * `embed` message at a time with the unit vectors of its batch, transferring the buffer back. Network
 * access is cut off in this thread: models and binaries come from disk only. A worker of the bulk lane
 * (indexing) lowers its thread's CPU priority first (`nice`, workers/thread-priority.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../../workers/thread-priority.js';
import { loadOnnxFolderModel } from './onnx-folder-model.js';
import {
  USE_LITE_DIMENSIONS,
  USE_LITE_ID,
  USE_LITE_INT8_ID,
  type UseLiteFiles,
  type UseLiteModel,
} from './use-lite-model.js';
import type { UseLitePrecision } from './use-lite-onnx.js';
import { loadUseLiteOnnxModel } from './use-lite-onnx-model.js';

/** What runs the models: onnxruntime-node (TensorFlow.js, the shipped model's runtime before it, is gone). */
export type UseLiteRuntime = 'onnx';

/** The model a worker loads. */
export type ModelSpec =
  | { kind: 'use-lite'; files: UseLiteFiles; precision?: UseLitePrecision }
  | { kind: 'onnx-folder'; dir: string; onnxRuntime?: string };

/** What a worker is started with: the model to load, and the nice value its thread runs at (0: as it is). */
export interface WorkerSetup {
  model: ModelSpec;
  nice: number;
}

/** The model a worker loaded. */
export interface LoadedModel {
  id: string;
  dimensions: number;
  runtime: UseLiteRuntime;
}

/** What the pool sends a worker. */
export interface EmbedRequest {
  type: 'embed';
  id: number;
  texts: string[];
}

/** What a worker sends the pool. */
export type WorkerMessage =
  | { type: 'ready'; model: LoadedModel }
  | { type: 'failed'; message: string }
  | { type: 'vectors'; id: number; vectors: Float32Array }
  | { type: 'error'; id: number; message: string };

const port = parentPort;
if (port === null) throw new Error('use-lite-worker.ts runs only as a worker thread');
const send = (message: WorkerMessage, transfer: ArrayBuffer[] = []): void =>
  port.postMessage(message, transfer);

const offline = (): Promise<never> =>
  Promise.reject(
    new Error('network access is disabled in the embedding worker (the model is read from disk)'),
  );
globalThis.fetch = offline as typeof fetch;

/** The message of a failure, whatever was thrown. */
const describe = (error: unknown): string => {
  if (error instanceof Error) return error.message;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
};

/** Loads the model `spec` names. */
async function load(spec: ModelSpec): Promise<{ model: UseLiteModel; loaded: LoadedModel }> {
  if (spec.kind === 'onnx-folder') {
    const folder = await loadOnnxFolderModel(spec.dir, spec.onnxRuntime);
    return { model: folder, loaded: { id: folder.id, dimensions: folder.dimensions, runtime: 'onnx' } };
  }
  const precision = spec.precision ?? 'fp32';
  const model = await loadUseLiteOnnxModel(spec.files, precision);
  const id = precision === 'int8' ? USE_LITE_INT8_ID : USE_LITE_ID;
  return { model, loaded: { id, dimensions: USE_LITE_DIMENSIONS, runtime: 'onnx' } };
}

const setup = workerData as WorkerSetup;
// Before the session exists: threads onnxruntime starts inherit the nice value.
if (setup.nice > 0) lowerThreadPriority(setup.nice);

let model: UseLiteModel | undefined;
try {
  const result = await load(setup.model);
  model = result.model;
  send({ type: 'ready', model: result.loaded });
} catch (error) {
  send({ type: 'failed', message: describe(error) });
}

if (model !== undefined) {
  const loaded = model;
  // One batch at a time, in arrival order (the pool sends one at a time anyway).
  let queue = Promise.resolve();
  port.on('message', (request: EmbedRequest) => {
    queue = queue.then(async () => {
      try {
        const vectors = await loaded.embedBatch(request.texts);
        send({ type: 'vectors', id: request.id, vectors }, [vectors.buffer as ArrayBuffer]);
      } catch (error) {
        send({ type: 'error', id: request.id, message: describe(error) });
      }
    });
  });
}
