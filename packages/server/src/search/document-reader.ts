/**
 * Reads documents into passages off the thread that serves requests: extraction and chunking run in a
 * small pool of worker threads, each under V8 heap limits (`resourceLimits`) and a wall-clock bound. A
 * hostile document (a decompression bomb, pathological nesting, a parser that spins) can exhaust only its
 * worker: a worker that runs out of memory or time is ended and replaced, and the read fails with
 * `too_large`. Workers start on demand, serve one document at a time, and end after a while idle.
 */
import type { Worker } from 'node:worker_threads';
import { siblingModule, spawnWorker } from './embed/spawn-worker.js';
import type { ReadReply, ReadRequest } from './read-document-worker.js';
import { type ChunkOptions, ExtractionError, type Passage } from './types.js';

/** Bounds of a DocumentReader. */
export interface DocumentReaderOptions {
  /** Documents read at once (worker threads). */
  workers: number;
  /** Most memory one worker's JavaScript heap may use, in MB; past it the read fails `too_large`. */
  memoryMb: number;
  /** Longest one read may take, in ms; past it the worker is ended and the read fails `too_large`. */
  timeoutMs: number;
  /** How long an idle worker is kept for the next document, in ms. */
  idleMs?: number;
}

/** What a read needs. */
export interface ReadDocument {
  bytes: Uint8Array;
  contentType: string;
  /** The file's key, named in error messages. */
  key: string;
  chunkOptions: ChunkOptions;
  /** Ends the read early (the job's time bound, shutdown); the rejection is the signal's reason. */
  signal?: AbortSignal;
}

/** Extraction and chunking in worker threads. */
export interface DocumentReader {
  /**
   * The document's passages. Rejects with ExtractionError (`unsupported_format`, `unreadable_document`,
   * `empty_document`, `too_large`, the last also for a document that needs more memory or time than
   * allowed), with the signal's reason when it aborts, or with an Error for a failure of the worker itself.
   */
  read(document: ReadDocument): Promise<Passage[]>;
  /** Starts a worker (if none runs) and resolves once it has loaded its readers. */
  ready(): Promise<void>;
  /** Ends the workers; reads in flight reject. */
  close(): Promise<void>;
}

interface Task {
  document: ReadDocument;
  resolve: (passages: Passage[]) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  /** Whether the worker has loaded its readers (a task given before then waits for it). */
  ready: boolean;
  task: Task | undefined;
  /** Sends the task once the worker is ready. */
  send: (() => void) | undefined;
  idle: NodeJS.Timeout | undefined;
  /** Why the pool ended this worker, if it did (time bound, abort, close). */
  ended: unknown;
}

/** Longest a new worker may take to load its readers. */
const START_TIMEOUT_MS = 60_000;

const seconds = (ms: number): string => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);

/**
 * A pool of document-reading worker threads.
 *
 * @example
 * const reader = documentReader({ workers: 1, memoryMb: 512, timeoutMs: 120_000 });
 * const passages = await reader.read({ bytes, contentType: 'application/pdf', key: 'a.pdf', chunkOptions });
 */
export function documentReader(options: DocumentReaderOptions): DocumentReader {
  const entry = siblingModule(import.meta.url, 'read-document-worker');
  const idleMs = options.idleMs ?? 30_000;
  const slots = new Set<Slot>();
  const queue: Task[] = [];
  let nextId = 1;
  let closed = false;

  function start(): Slot {
    const worker = spawnWorker(entry, {
      resourceLimits: {
        maxOldGenerationSizeMb: options.memoryMb,
        maxYoungGenerationSizeMb: Math.max(16, Math.min(64, Math.floor(options.memoryMb / 8))),
        stackSizeMb: 4,
      },
      stdout: false,
      stderr: false,
    });
    worker.unref();
    const slot: Slot = {
      worker,
      ready: false,
      task: undefined,
      send: undefined,
      idle: undefined,
      ended: undefined,
    };
    slots.add(slot);
    // A worker that cannot even load its readers in this time is broken (not a document's fault).
    const loading = setTimeout(() => {
      slot.ended ??= new Error(`the document reader did not start within ${seconds(START_TIMEOUT_MS)}`);
      void worker.terminate();
    }, START_TIMEOUT_MS);
    loading.unref();
    worker.on('message', (reply: ReadReply) => {
      if (reply.type === 'ready') {
        clearTimeout(loading);
        slot.ready = true;
        slot.send?.();
        return;
      }
      const task = slot.task;
      if (!task) return;
      settle(slot);
      if (reply.type === 'passages') task.resolve(reply.passages);
      else if (reply.code) task.reject(new ExtractionError(reply.code, reply.message));
      else task.reject(new Error(reply.message));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      slot.ended ??= error;
    });
    worker.on('exit', () => {
      clearTimeout(loading);
      slots.delete(slot);
      if (slot.idle) clearTimeout(slot.idle);
      const task = slot.task;
      slot.task = undefined;
      if (task) task.reject(deathReason(slot.ended, task.document));
      pump();
    });
    return slot;
  }

  /** Why a read failed when its worker ended before answering. */
  function deathReason(cause: unknown, document: ReadDocument): unknown {
    if (cause instanceof ExtractionError || document.signal?.aborted) return cause;
    const code = (cause as { code?: string } | undefined)?.code;
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new ExtractionError(
        'too_large',
        `"${document.key}" needs more memory to read than the ${options.memoryMb} MB allowed for one document.`,
      );
    }
    if (cause instanceof RangeError) {
      return new ExtractionError(
        'unreadable_document',
        `"${document.key}" could not be read: ${cause.message}.`,
      );
    }
    const message = cause instanceof Error ? cause.message : 'it ended unexpectedly';
    return new Error(`the document reader failed on "${document.key}": ${message}`);
  }

  /** Frees a slot after its task settled, and gives it the next task or an idle timer. */
  function settle(slot: Slot): void {
    slot.task = undefined;
    pump();
    if (!slot.task && !closed) {
      slot.idle = setTimeout(() => void slot.worker.terminate(), idleMs);
      slot.idle.unref();
    }
  }

  function run(slot: Slot, task: Task): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = undefined;
    slot.task = task;
    const { document } = task;
    const end = (reason: unknown) => {
      if (slot.task !== task) return;
      if (timer === undefined) {
        // Not sent yet (the worker is still loading): the worker stays, for the next document.
        task.reject(reason);
        settle(slot);
        return;
      }
      slot.ended = reason;
      void slot.worker.terminate();
    };
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => end(document.signal?.reason);
    document.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = () => {
      if (timer) clearTimeout(timer);
      slot.send = undefined;
      document.signal?.removeEventListener('abort', onAbort);
    };
    const { resolve, reject } = task;
    task.resolve = (passages) => {
      finish();
      resolve(passages);
    };
    task.reject = (error) => {
      finish();
      reject(error);
    };
    slot.send = () => {
      slot.send = undefined;
      timer = setTimeout(
        () =>
          end(
            new ExtractionError(
              'too_large',
              `"${document.key}" took longer than ${seconds(options.timeoutMs)} to read, the limit for one document.`,
            ),
          ),
        options.timeoutMs,
      );
      timer.unref();
      const request: ReadRequest = {
        type: 'read',
        id: nextId++,
        bytes: document.bytes,
        contentType: document.contentType,
        key: document.key,
        chunkOptions: document.chunkOptions,
        // The worker bounds its own awaits a little earlier; the pool's timer ends it if it cannot.
        timeoutMs: Math.max(1, options.timeoutMs - 50),
      };
      slot.worker.postMessage(request);
    };
    if (slot.ready) slot.send();
  }

  function pump(): void {
    while (queue.length > 0 && !closed) {
      let slot = [...slots].find((s) => !s.task && !s.ended);
      if (!slot) {
        if (slots.size >= options.workers) return;
        slot = start();
      }
      const task = queue.shift();
      if (task) run(slot, task);
    }
  }

  return {
    read(document) {
      if (closed) return Promise.reject(new Error('the document reader is closed'));
      if (document.signal?.aborted) return Promise.reject(document.signal.reason);
      return new Promise<Passage[]>((resolve, reject) => {
        const task: Task = { document, resolve, reject };
        queue.push(task);
        // A read still queued when its signal aborts leaves the queue.
        document.signal?.addEventListener(
          'abort',
          () => {
            const at = queue.indexOf(task);
            if (at >= 0) {
              queue.splice(at, 1);
              reject(document.signal?.reason);
            }
          },
          { once: true },
        );
        pump();
      });
    },
    async ready() {
      if (closed) throw new Error('the document reader is closed');
      const slot = [...slots].find((s) => !s.ended) ?? start();
      if (slot.ready) return;
      await new Promise<void>((resolve, reject) => {
        const onMessage = (reply: ReadReply) => {
          if (reply.type !== 'ready') return;
          slot.worker.off('exit', onExit);
          slot.worker.off('message', onMessage);
          resolve();
        };
        const onExit = () => {
          slot.worker.off('message', onMessage);
          reject(slot.ended ?? new Error('the document reader ended while starting'));
        };
        slot.worker.on('message', onMessage);
        slot.worker.once('exit', onExit);
      });
      if (!slot.task && !slot.idle && !closed) {
        slot.idle = setTimeout(() => void slot.worker.terminate(), idleMs);
        slot.idle.unref();
      }
    },
    async close() {
      closed = true;
      for (const task of queue.splice(0)) task.reject(new Error('the document reader is closed'));
      await Promise.all(
        [...slots].map((slot) => {
          slot.ended ??= new Error('the document reader is closed');
          return slot.worker.terminate();
        }),
      );
    },
  };
}
