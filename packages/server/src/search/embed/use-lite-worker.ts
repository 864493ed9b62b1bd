/**
 * Entry point of a USE-lite embedding worker thread (started by use-lite.ts; like main.ts, this file acts
 * when loaded). It loads the model once on its runtime (onnxruntime-node, or TensorFlow.js on
 * WebAssembly, also the fallback when onnxruntime cannot load here), says `ready` (or `failed`), then
 * answers one `embed` message at a time with the unit vectors of its batch, transferring the buffer back.
 * Network access is cut off in this thread: the model and its binaries come from disk only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadUseLiteModel, type UseLiteFiles, type UseLiteModel } from './use-lite-model.js';
import { loadUseLiteOnnxModel } from './use-lite-onnx-model.js';

/** Which library runs the model: onnxruntime-node (default) or TensorFlow.js on WebAssembly. */
export type UseLiteRuntime = 'onnx' | 'tfjs';

/** What a worker is started with. */
export interface UseLiteWorkerData {
  files: UseLiteFiles;
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
  /** `fallback`: why onnxruntime could not load, when the worker runs TensorFlow.js instead. */
  | { type: 'ready'; runtime: UseLiteRuntime; fallback?: string }
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

/** TensorFlow.js rejects some failures with plain `{ message }` objects. */
const describe = (error: unknown): string => {
  if (error instanceof Error) return error.message;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
};

const { files, runtime } = workerData as UseLiteWorkerData;
let model: UseLiteModel | undefined;
try {
  if (runtime === 'tfjs') {
    model = await loadUseLiteModel(files);
    send({ type: 'ready', runtime });
  } else {
    try {
      model = await loadUseLiteOnnxModel(files);
      send({ type: 'ready', runtime });
    } catch (error) {
      // Same weights, same vectors (the test checks both runtimes agree), only slower.
      model = await loadUseLiteModel(files);
      send({ type: 'ready', runtime: 'tfjs', fallback: describe(error) });
    }
  }
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
