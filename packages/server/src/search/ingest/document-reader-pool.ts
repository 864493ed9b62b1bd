/**
 * The worker pool behind documentReader(): worker threads started on demand under heap limits, one read
 * at a time each with its wall-clock bound, reads queued while every worker is busy, idle workers ended.
 */
import type { Worker } from 'node:worker_threads';
import { siblingModule, spawnWorker } from '../../workers/spawn.js';
import { ExtractionError } from '../types.js';
import type { DocumentReaderOptions, ReadDocument, ReadPage, ReadPassages } from './document-reader-port.js';
import type { ExtractedPage } from './extract/web-page.js';
import type { PageRequest, ReaderSetup, ReadReply, ReadRequest } from './read-document-worker.js';

/** What a task asks a worker: a document's passages, or a web page's content. */
interface Job {
  /** The document's key or the page's URL, for error messages. */
  key: string;
  signal?: AbortSignal | undefined;
  /** The message that asks for it, given its id and the worker's time bound. */
  request(id: number, timeoutMs: number): ReadRequest | PageRequest;
  /** Goes before the reads waiting (a crawl's page: the crawl waits for it, one page at a time). */
  first?: boolean;
}

interface Task {
  job: Job;
  resolve: (answer: ReadPassages | ExtractedPage) => void;
  reject: (error: unknown) => void;
  /** Stops listening for the abort of the job while queued (called when it leaves the queue). */
  unqueued?: () => void;
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

/** Why a read failed when its worker ended before answering. */
function deathReason(cause: unknown, document: Job, memoryMb: number): unknown {
  if (cause instanceof ExtractionError || document.signal?.aborted) return cause;
  const code = (cause as { code?: string } | undefined)?.code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new ExtractionError(
      'too_large',
      `"${document.key}" needs more memory to read than the ${memoryMb} MB allowed for one document.`,
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

/** Resolves once the slot's worker has loaded its readers; rejects if it ends first. */
function whenLoaded(slot: Slot): Promise<void> {
  return new Promise<void>((resolve, reject) => {
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
}

/** The worker pool behind documentReader(): its slots, the queue of reads waiting for one, and the bounds. */
export class ReaderPool {
  private readonly entry = siblingModule(import.meta.url, 'read-document-worker');
  private readonly idleMs: number;
  private readonly slots = new Set<Slot>();
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: DocumentReaderOptions) {
    this.idleMs = options.idleMs ?? 30_000;
  }

  read(document: ReadDocument): Promise<ReadPassages> {
    return this.submit({
      key: document.key,
      signal: document.signal,
      request: (id, timeoutMs) => ({
        type: 'read',
        id,
        bytes: document.bytes,
        contentType: document.contentType,
        key: document.key,
        chunkOptions: document.chunkOptions,
        detectLanguage: document.detectLanguage ?? false,
        timeoutMs,
      }),
    }) as Promise<ReadPassages>;
  }

  readPage(page: ReadPage): Promise<ExtractedPage> {
    return this.submit({
      key: page.url,
      signal: page.signal,
      request: (id) => ({ type: 'page', id, html: page.html, url: page.url }),
      first: true,
    }) as Promise<ExtractedPage>;
  }

  private submit(document: Job): Promise<ReadPassages | ExtractedPage> {
    if (this.closed) return Promise.reject(new Error('the document reader is closed'));
    if (document.signal?.aborted) return Promise.reject(document.signal.reason);
    return new Promise<ReadPassages | ExtractedPage>((resolve, reject) => {
      const task: Task = { job: document, resolve, reject };
      // Pages go before the documents waiting, after the pages already waiting.
      if (document.first) this.queue.splice(this.queue.filter((t) => t.job.first).length, 0, task);
      else this.queue.push(task);
      // A read still queued when its signal aborts leaves the queue. The listener goes once the read leaves
      // the queue: a crawl's one signal would otherwise keep one per page (each add walks them all).
      const { signal } = document;
      if (signal) {
        const onAbort = () => {
          const at = this.queue.indexOf(task);
          if (at >= 0) {
            this.queue.splice(at, 1);
            reject(signal.reason);
          }
        };
        signal.addEventListener('abort', onAbort, { once: true });
        task.unqueued = () => signal.removeEventListener('abort', onAbort);
      }
      this.pump();
    });
  }

  async ready(): Promise<void> {
    if (this.closed) throw new Error('the document reader is closed');
    const slot = [...this.slots].find((s) => !s.ended) ?? this.start();
    if (slot.ready) return;
    await whenLoaded(slot);
    if (!slot.task && !slot.idle && !this.closed) this.idleTimer(slot);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) {
      task.unqueued?.();
      task.reject(new Error('the document reader is closed'));
    }
    await Promise.all(
      [...this.slots].map((slot) => {
        slot.ended ??= new Error('the document reader is closed');
        return slot.worker.terminate();
      }),
    );
  }

  private start(): Slot {
    const { memoryMb } = this.options;
    const worker = spawnWorker(this.entry, {
      workerData: { nice: this.options.nice ?? 0 } satisfies ReaderSetup,
      resourceLimits: {
        maxOldGenerationSizeMb: memoryMb,
        maxYoungGenerationSizeMb: Math.max(16, Math.min(64, Math.floor(memoryMb / 8))),
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
    this.slots.add(slot);
    this.watch(slot);
    return slot;
  }

  /** Listens to a new slot's worker: its load bound, replies, errors and exit. */
  private watch(slot: Slot): void {
    const { worker } = slot;
    // A worker that cannot even load its readers in this time is broken (not a document's fault).
    const loading = setTimeout(() => {
      slot.ended ??= new Error(`the document reader did not start within ${seconds(START_TIMEOUT_MS)}`);
      void worker.terminate();
    }, START_TIMEOUT_MS);
    loading.unref();
    worker.on('message', (reply: ReadReply) => {
      if (reply.type === 'ready') clearTimeout(loading);
      this.onReply(slot, reply);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      slot.ended ??= error;
    });
    worker.on('exit', () => {
      clearTimeout(loading);
      this.onExit(slot);
    });
  }

  private onReply(slot: Slot, reply: ReadReply): void {
    if (reply.type === 'ready') {
      slot.ready = true;
      slot.send?.();
      return;
    }
    const task = slot.task;
    if (!task) return;
    this.settle(slot);
    if (reply.type === 'passages') task.resolve({ passages: reply.passages, language: reply.language });
    else if (reply.type === 'page') task.resolve(reply.page);
    else if (reply.code) task.reject(new ExtractionError(reply.code, reply.message));
    else task.reject(new Error(reply.message));
  }

  private onExit(slot: Slot): void {
    this.slots.delete(slot);
    if (slot.idle) clearTimeout(slot.idle);
    const task = slot.task;
    slot.task = undefined;
    if (task) task.reject(deathReason(slot.ended, task.job, this.options.memoryMb));
    this.pump();
  }

  private idleTimer(slot: Slot): void {
    slot.idle = setTimeout(() => void slot.worker.terminate(), this.idleMs);
    slot.idle.unref();
  }

  /** Frees a slot after its task settled, and gives it the next task or an idle timer. */
  private settle(slot: Slot): void {
    slot.task = undefined;
    this.pump();
    if (!slot.task && !this.closed) this.idleTimer(slot);
  }

  private run(slot: Slot, task: Task): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = undefined;
    slot.task = task;
    const document = task.job;
    let timer: NodeJS.Timeout | undefined;
    const end = (reason: unknown) => {
      if (slot.task !== task) return;
      if (timer === undefined) {
        // Not sent yet (the worker is still loading): the worker stays, for the next document.
        task.reject(reason);
        this.settle(slot);
        return;
      }
      slot.ended = reason;
      void slot.worker.terminate();
    };
    const onAbort = () => end(document.signal?.reason);
    document.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = () => {
      if (timer) clearTimeout(timer);
      slot.send = undefined;
      document.signal?.removeEventListener('abort', onAbort);
    };
    const { resolve, reject } = task;
    task.resolve = (answer) => {
      finish();
      resolve(answer);
    };
    task.reject = (error) => {
      finish();
      reject(error);
    };
    slot.send = () => {
      slot.send = undefined;
      timer = this.timeLimit(document, end);
      this.post(slot, document);
    };
    if (slot.ready) slot.send();
  }

  /** The timer that ends a read past options.timeoutMs. */
  private timeLimit(document: Job, end: (reason: unknown) => void): NodeJS.Timeout {
    const { timeoutMs } = this.options;
    const timer = setTimeout(
      () =>
        end(
          new ExtractionError(
            'too_large',
            `"${document.key}" took longer than ${seconds(timeoutMs)} to read, the limit for one document.`,
          ),
        ),
      timeoutMs,
    );
    timer.unref();
    return timer;
  }

  private post(slot: Slot, document: Job): void {
    // The worker bounds its own awaits a little earlier; the pool's timer ends it if it cannot.
    slot.worker.postMessage(document.request(this.nextId++, Math.max(1, this.options.timeoutMs - 50)));
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      let slot = [...this.slots].find((s) => !s.task && !s.ended);
      if (!slot) {
        if (this.slots.size >= this.options.workers) return;
        slot = this.start();
      }
      const task = this.queue.shift();
      task?.unqueued?.();
      if (task) this.run(slot, task);
    }
  }
}
