/**
 * The main thread's side of the HNSW worker (hnsw-worker.ts): one worker per process, shared by every
 * HNSW vector index of it (each names its partitions under a prefix of its own). Requests and changes are
 * posted in order; a request's promise settles with the worker's answer. The worker keeps the process
 * alive only while an answer is awaited. When it dies (an error, an exit) every awaited answer fails, every
 * index is told (its searches fall back to the exact scan), and the next use starts a new one.
 */
import { WorkerChannel } from '../../workers/channel.js';
import { siblingModule } from '../../workers/spawn.js';
import type { HnswReply, HnswRequest, HnswStop } from './hnsw-graphs.js';

/** An index using the worker. */
export interface HnswWorkerUser {
  /** The worker lost a partition's graph (an insertion failed); `partition` without the user's prefix. */
  lost(partition: string, message: string): void;
  /** The worker ended: every graph is gone. */
  ended(message: string): void;
}

type WithoutId<T> = T extends { id: number } ? Omit<T, 'id'> : never;
/** A request answered by the worker. */
export type HnswQuestion = WithoutId<HnswRequest>;
/** A change, not answered. */
export type HnswChange = Exclude<HnswRequest, { id: number }>;

/** The running worker. */
export class HnswWorker {
  private readonly channel: WorkerChannel<HnswReply>;
  private readonly users = new Map<string, WeakRef<HnswWorkerUser>>();
  private readonly finalizer = new FinalizationRegistry<string>((prefix) => this.detach(prefix));
  private ended: string | undefined;
  private stopping = false;

  constructor() {
    this.channel = new WorkerChannel<HnswReply>(siblingModule(import.meta.url, 'hnsw-worker'), {
      label: 'HNSW worker',
      onUnanswered: (m) => this.received(m),
      onEnd: (message) => this.died(message),
    });
  }

  get alive(): boolean {
    return this.ended === undefined;
  }

  /** Adds an index whose partitions are named `prefix` + name; forgotten (and its graphs dropped) once collected. */
  attach(prefix: string, user: HnswWorkerUser): void {
    this.users.set(prefix, new WeakRef(user));
    this.finalizer.register(user, prefix, user);
  }

  /** Drops an index's graphs; the worker ends when no index uses it any more. */
  detach(prefix: string): void {
    const user = this.users.get(prefix)?.deref();
    if (user) this.finalizer.unregister(user);
    if (!this.users.delete(prefix) || !this.alive) return;
    this.send({ kind: 'drop', prefix });
    if (this.users.size === 0 && this.channel.pending === 0) {
      this.stopping = true;
      this.ended = 'HNSW worker stopped';
      if (current === this) current = undefined;
      this.stop(0);
    }
  }

  /** Posts a change; `transfer`: buffers moved to the worker (unusable here afterwards). */
  send(change: HnswChange, transfer: ArrayBuffer[] = []): void {
    if (this.alive) this.channel.post(change, transfer);
  }

  /** Posts a request and resolves with the worker's answer (rejects when it fails or the worker dies). */
  async request<T>(question: HnswQuestion, transfer: ArrayBuffer[] = []): Promise<T> {
    if (!this.alive) throw new Error(this.ended);
    const reply = await this.channel.request(question, transfer);
    if (reply.kind === 'failed') throw new Error(reply.message); // never: a failure report has no id
    if (!reply.ok) throw new Error(reply.message);
    return reply.value as T;
  }

  /** Ends the worker as a crash would, between two of its messages (tests); resolves once it has exited. */
  async crash(): Promise<void> {
    const exited = new Promise((resolve) => this.channel.worker.once('exit', resolve));
    this.stop(1);
    await exited;
  }

  /** Asks the worker to end (see {@link HnswStop}); `Worker.terminate()` is never used while it may run usearch. */
  private stop(code: number): void {
    const stop: HnswStop = { kind: 'stop', code };
    this.channel.worker.postMessage(stop);
  }

  /** A partition's failure report (a message with no request id). */
  private received(m: HnswReply): void {
    if (m.kind !== 'failed') return;
    for (const [prefix, ref] of this.users)
      if (m.partition.startsWith(prefix)) ref.deref()?.lost(m.partition.slice(prefix.length), m.message);
  }

  /** The worker ended (every awaited answer already failed). */
  private died(message: string): void {
    this.ended ??= message;
    if (current === this) current = undefined;
    if (this.stopping) return;
    this.stop(0); // after a message it could not read it still runs: let it end once idle
    for (const ref of this.users.values()) ref.deref()?.ended(message);
    this.users.clear();
  }
}

let current: HnswWorker | undefined;

/** The process's HNSW worker, started when there is none (or the last one died). */
export function hnswWorker(): HnswWorker {
  current ??= new HnswWorker();
  return current;
}
