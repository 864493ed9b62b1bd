/**
 * Entry point of a USE-lite embedding worker thread (started by use-lite.ts; like main.ts, this file acts
 * when loaded). It loads the model once, says `ready` (or `failed`), then answers one `embed` message at a
 * time with the unit vectors of its batch, transferring the buffer back. Network access is cut off in
 * this thread: the model and its WebAssembly come from disk only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadUseLiteModel, type UseLiteFiles, type UseLiteModel } from './use-lite-model.js';

/** What the pool sends a worker. */
export interface EmbedRequest {
  type: 'embed';
  id: number;
  texts: string[];
}

/** What a worker sends the pool. */
export type WorkerMessage =
  | { type: 'ready' }
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

let model: UseLiteModel | undefined;
try {
  model = await loadUseLiteModel(workerData as UseLiteFiles);
  send({ type: 'ready' });
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
