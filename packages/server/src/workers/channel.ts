/**
 * A worker thread answering requests by id: the one place the main thread's side of such a worker is kept
 * (the HNSW worker, the SQLite readers, the in-memory lexical index). A request is posted with the next id and
 * settles with the reply of that id. The worker keeps the process alive only while a reply is awaited. When it
 * fails, exits or sends a message that cannot be read, every awaited reply fails with `<label> failed: …` or
 * `<label> exited with code N`, later requests fail the same way, and the owner is told once (`onEnd`).
 */
import type { TransferListItem, Worker } from 'node:worker_threads';
import { spawnWorker } from './spawn.js';

/** What a channel's owner says about its worker. */
export interface WorkerChannelOptions<Reply> {
  /** Names the worker in the errors its end gives. */
  label: string;
  /** The worker's `workerData`. */
  workerData?: unknown;
  /** A message that answers no awaited request (a report of the worker's own). */
  onUnanswered?: (message: Reply) => void;
  /** Once, when the worker ended (failed, exited, unreadable message), after every awaited request failed. */
  onEnd?: (message: string) => void;
}

interface Awaited<Reply> {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

/** The main thread's side of one worker thread started from `entry` (see the file comment). */
/** `Reply`: the worker's messages; those with an `id` answer the request of that id. */
export class WorkerChannel<Reply extends object> {
  readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, Awaited<Reply>>();
  private endedWith: string | undefined;

  constructor(
    entry: URL,
    private readonly options: WorkerChannelOptions<Reply>,
  ) {
    const { label, workerData } = options;
    this.worker = spawnWorker(entry, workerData === undefined ? {} : { workerData });
    this.worker.unref();
    this.worker.on('message', (message: Reply) => this.received(message));
    this.worker.on('error', (error) => this.end(`${label} failed: ${error.message}`));
    this.worker.on('messageerror', (error) => this.end(`${label} failed: ${error.message}`));
    this.worker.on('exit', (code) => this.end(`${label} exited with code ${code}`));
  }

  /** Requests awaiting their reply. */
  get pending(): number {
    return this.waiting.size;
  }

  /** Why the worker ended, or undefined while it runs. */
  get ended(): string | undefined {
    return this.endedWith;
  }

  /** Posts `message` with the next id; resolves with the worker's reply of that id. */
  request(message: object, transfer: readonly TransferListItem[] = []): Promise<Reply> {
    if (this.endedWith !== undefined) return Promise.reject(new Error(this.endedWith));
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      if (this.waiting.size === 1) this.worker.ref();
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }

  /** Posts a message no reply answers (a change, a stop); nothing once the worker ended. */
  post(message: object, transfer: readonly TransferListItem[] = []): void {
    if (this.endedWith === undefined) this.worker.postMessage(message, transfer);
  }

  /** Fails every awaited request with `message` (the owner closes); the worker still runs. */
  fail(message: string): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    this.worker.unref();
    for (const w of waiting) w.reject(new Error(message));
  }

  private received(message: Reply): void {
    const { id } = message as { id?: number };
    const w = id === undefined ? undefined : this.waiting.get(id);
    if (!w || id === undefined) {
      this.options.onUnanswered?.(message);
      return;
    }
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker.unref();
    w.resolve(message);
  }

  private end(message: string): void {
    if (this.endedWith !== undefined) return;
    this.endedWith = message;
    this.fail(message);
    this.options.onEnd?.(message);
  }
}
