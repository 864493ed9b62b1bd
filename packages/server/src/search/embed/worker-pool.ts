/**
 * A pool of embedding worker threads (use-lite-worker.ts) running one local model: calls cut into batches
 * served round-robin, interactive calls before bulk ones (use-lite-calls.ts), workers started on demand, replaced when they die or overrun,
 * and ended by `close()`. With `queryWorker`, one more worker serves interactive calls only, at normal CPU
 * priority, while the others take bulk batches first at a lower one (`bulkNice`): a query neither waits
 * for an indexing batch nor, on Linux, for a core. `UseLiteEmbedder` (the shipped model) and
 * `OnnxModelEmbedder` (an operator's ONNX folder) are this pool with their model.
 */
import type { Worker } from 'node:worker_threads';
import { siblingModule, spawnWorker } from '../../workers/spawn.js';
import type { EmbedPriority } from '../types.js';
import { abortReason, EmbedderError } from './errors.js';
import type { StartableEmbedder } from './port.js';
import { type Batch, CallQueue, INTERACTIVE_FIRST } from './use-lite-calls.js';
import type {
  EmbedRequest,
  LoadedModel,
  ModelSpec,
  UseLiteRuntime,
  WorkerMessage,
  WorkerSetup,
} from './use-lite-worker.js';
import { poolSettings, type WorkerPoolOptions } from './worker-pool-options.js';

/** Which calls a worker takes: interactive ones only (the query worker), or any. */
type SlotLane = 'query' | 'any';

/** The lanes a worker serving any call takes from when a query worker exists: indexing first. */
const BULK_FIRST: readonly EmbedPriority[] = ['bulk', 'interactive'];

interface Slot {
  worker: Worker;
  lane: SlotLane;
  state: 'starting' | 'idle' | 'busy';
  batch: Batch | undefined;
  timer: NodeJS.Timeout | undefined;
  /** A model load or run is under way in the worker: set when asked, cleared by its answer. */
  inFlight: boolean;
}

/** How long `close()` waits for workers still loading or running a batch before it returns. */
const CLOSE_DRAIN_MS = 30_000;

/** Embeds with a local model in worker threads; see the file comment. */
export class WorkerPoolEmbedder implements StartableEmbedder {
  protected modelId: string;
  protected width: number;

  private readonly size: number;
  private readonly batchSize: number;
  private readonly startTimeoutMs: number;
  private readonly batchTimeoutMs: number;
  private readonly queryWorker: boolean;
  private readonly bulkNice: number;
  private runtimeInUse: UseLiteRuntime | undefined;
  private spec: ModelSpec | undefined;
  private readonly slots = new Set<Slot>();
  private readonly calls = new CallQueue();
  private closed = false;
  private batchesRun = 0;
  /** Workers let go while a load or run was in flight, each ended once that finishes. */
  private readonly stopping = new Set<Promise<void>>();
  private readyWaiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];

  /**
   * `model` gives what the workers load (called at the first start; a throw fails the waiting calls with
   * `model_load_failed`); `id` and `dimensions` hold until a worker reports the loaded model's own.
   */
  constructor(
    private readonly model: () => ModelSpec,
    identity: { id: string; dimensions: number; maxBatch: number; defaultBatch: number },
    options: WorkerPoolOptions,
  ) {
    this.modelId = identity.id;
    this.width = identity.dimensions;
    ({
      size: this.size,
      batchSize: this.batchSize,
      startTimeoutMs: this.startTimeoutMs,
      batchTimeoutMs: this.batchTimeoutMs,
      queryWorker: this.queryWorker,
      bulkNice: this.bulkNice,
    } = poolSettings(options, identity));
  }

  /** The id stored with the vectors of this model. */
  get id(): string {
    return this.modelId;
  }

  /** Width of the vectors. */
  get dimensions(): number {
    return this.width;
  }

  /** The runtime the last loaded worker runs the model on (undefined until one has loaded). */
  get runtime(): UseLiteRuntime | undefined {
    return this.runtimeInUse;
  }

  /** Starts the workers and resolves once one has loaded the model. */
  ready(): Promise<void> {
    if (this.closed) return Promise.reject(closedError());
    if ([...this.slots].some((slot) => slot.state !== 'starting')) return Promise.resolve();
    const waiting = new Promise<void>((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
    if (this.queryWorker && !this.hasQueryWorker()) this.start('query');
    this.grow(this.size);
    return waiting;
  }

  /**
   * Unit vectors of `texts`, in order; `[]` for no texts. A `bulk` call's batches run only while no
   * `interactive` call waits: a query waits at most for the batches running when it comes.
   */
  embed(
    texts: string[],
    signal?: AbortSignal,
    priority: EmbedPriority = 'interactive',
  ): Promise<Float32Array[]> {
    if (this.closed) return Promise.reject(closedError());
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (texts.length === 0) return Promise.resolve([]);
    for (const text of texts) {
      if (typeof text !== 'string') return Promise.reject(new TypeError('embed() takes an array of strings'));
    }
    return this.calls.enqueue(texts, this.batchSize, { signal, priority }, () => this.pump());
  }

  /** Model runs handed to workers so far (a run embeds one batch, of one call's texts or several calls'). */
  get runs(): number {
    return this.batchesRun;
  }

  /** Worker threads alive (loading or loaded), those embedding now, and batches waiting for one. */
  stats(): { workers: number; busy: number; queuedBatches: number } {
    const slots = [...this.slots];
    return {
      workers: slots.length,
      busy: slots.filter((slot) => slot.state === 'busy').length,
      queuedBatches: this.calls.waitingBatches,
    };
  }

  /** Fails waiting and running calls, and ends every worker. Safe to call twice. */
  async close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      const running = [...this.slots].flatMap((slot) => slot.batch?.parts.map((part) => part.call) ?? []);
      const calls = new Set([...this.calls.waiting, ...running]);
      for (const call of calls) this.calls.fail(call, closedError());
      this.settleReady(closedError());
    }
    const slots = [...this.slots];
    this.slots.clear();
    for (const slot of slots) this.drop(slot);
    // A worker whose run does not end in time is left unreferenced, and ended when it does.
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_DRAIN_MS);
      timer.unref();
    });
    await Promise.race([Promise.all(this.stopping), bound]);
    clearTimeout(timer);
  }

  /**
   * Gives batches to idle workers: the query worker's from the interactive lane only, the others' from
   * both (the call served least goes first); starts workers when work waits.
   */
  private pump(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (slot.lane !== 'query' || slot.state !== 'idle') continue;
      const batch = this.calls.next(this.batchSize, ['interactive']);
      if (batch === undefined) break;
      this.send(slot, batch);
    }
    // Without a query worker, queries go first; with one, indexing does (queries have their own worker).
    const order = this.queryWorker ? BULK_FIRST : INTERACTIVE_FIRST;
    let idle = 0;
    for (const slot of this.slots) if (slot.lane === 'any' && slot.state === 'idle') idle++;
    for (const slot of this.slots) {
      if (slot.lane !== 'any' || slot.state !== 'idle') continue;
      // A fair share of what waits in the lane served next for each idle worker, up to a full batch: many
      // small calls fill one batch instead of a model run each, and a burst is spread over every idle worker.
      const room = Math.min(this.batchSize, Math.ceil(this.calls.nextLaneTexts(order) / idle));
      idle--;
      const batch = this.calls.next(room, order);
      if (batch === undefined) break;
      this.send(slot, batch);
    }
    if (this.calls.waiting.length === 0) return;
    let busy = 0;
    for (const slot of this.slots) if (slot.lane === 'any' && slot.state === 'busy') busy++;
    if (this.queryWorker) {
      if (this.calls.waitingIn('interactive') > 0 && !this.hasQueryWorker()) this.start('query');
      this.grow(Math.min(this.size, busy + this.calls.waitingIn('bulk')));
    } else {
      this.grow(Math.min(this.size, busy + this.calls.waitingBatches));
    }
  }

  /** Hands `batch` to the idle worker of `slot`. */
  private send(slot: Slot, batch: Batch): void {
    this.batchesRun++;
    slot.state = 'busy';
    slot.batch = batch;
    slot.worker.ref();
    slot.timer = setTimeout(() => this.overrun(slot), this.batchTimeoutMs);
    slot.inFlight = true;
    slot.worker.postMessage({ type: 'embed', id: batch.id, texts: batch.texts } satisfies EmbedRequest);
  }

  private hasQueryWorker(): boolean {
    for (const slot of this.slots) if (slot.lane === 'query') return true;
    return false;
  }

  /** Starts workers serving any call until there are `count`. */
  private grow(count: number): void {
    let any = 0;
    for (const slot of this.slots) if (slot.lane === 'any') any++;
    for (; !this.closed && any < count; any++) this.start('any');
  }

  private start(lane: SlotLane): void {
    if (this.closed) return;
    let spec: ModelSpec;
    try {
      this.spec ??= this.model();
      spec = this.spec;
    } catch (error) {
      this.startFailed(describe(error));
      return;
    }
    // Only workers that never run a query alone are slowed: without a query worker, every worker serves them.
    const nice = lane === 'any' && this.queryWorker ? this.bulkNice : 0;
    const worker = spawnWorker(siblingModule(import.meta.url, 'use-lite-worker'), {
      workerData: { model: spec, nice } satisfies WorkerSetup,
    });
    const slot: Slot = {
      worker,
      lane,
      state: 'starting',
      batch: undefined,
      timer: undefined,
      inFlight: true,
    };
    this.slots.add(slot);
    slot.timer = setTimeout(() => {
      this.drop(slot);
      this.startFailed(`the model did not load within ${this.startTimeoutMs} ms`);
    }, this.startTimeoutMs);
    worker.on('message', (message: WorkerMessage) => this.onMessage(slot, message));
    worker.on('error', (error) => this.onExit(slot, `the embedding worker failed: ${describe(error)}`));
    worker.on('exit', (code) => this.onExit(slot, `the embedding worker exited (code ${code})`));
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    slot.inFlight = false;
    if (!this.slots.has(slot)) return;
    switch (message.type) {
      case 'ready':
        clearTimeout(slot.timer);
        this.runtimeInUse = message.model.runtime;
        this.learn(message.model);
        slot.state = 'idle';
        slot.worker.unref();
        this.settleReady();
        this.pump();
        return;
      case 'failed':
        this.drop(slot);
        this.startFailed(`the embedding model could not be loaded: ${message.message}`);
        return;
      case 'vectors':
      case 'error': {
        const batch = slot.batch;
        if (batch === undefined || batch.id !== message.id) return;
        clearTimeout(slot.timer);
        if (message.type === 'vectors') {
          slot.state = 'idle';
          slot.batch = undefined;
          slot.worker.unref();
          this.calls.complete(batch, message.vectors, this.width);
        } else {
          // The model threw: its session may be unusable, so a fresh worker takes over.
          this.drop(slot);
          this.calls.abandon(
            batch,
            new EmbedderError('worker_failed', `embedding failed: ${message.message}`),
          );
        }
        this.pump();
        return;
      }
      default:
        message satisfies never;
    }
  }

  /** Takes the id and width a worker reports for the model it loaded. */
  private learn(model: LoadedModel): void {
    this.modelId = model.id;
    this.width = model.dimensions;
  }

  /** A worker that runs past its time bound is ended; its call fails and may be retried. */
  private overrun(slot: Slot): void {
    const batch = slot.batch;
    this.drop(slot);
    if (batch !== undefined) {
      const message = `an embedding batch ran longer than ${this.batchTimeoutMs} ms; its worker was ended`;
      this.calls.abandon(batch, new EmbedderError('worker_failed', message, { retryable: true }));
    }
    this.pump();
  }

  private onExit(slot: Slot, reason: string): void {
    if (!this.slots.has(slot)) return;
    const { state, batch } = slot;
    this.drop(slot);
    if (state === 'starting') {
      this.startFailed(reason);
    } else if (batch !== undefined) {
      this.calls.abandon(batch, new EmbedderError('worker_failed', reason, { retryable: true }));
      this.pump();
    }
  }

  /** No worker could load the model: everything waiting fails; a later call tries again. */
  private startFailed(reason: string): void {
    if ([...this.slots].some((slot) => slot.state !== 'starting')) return; // others still serve
    const error = new EmbedderError('model_load_failed', reason);
    this.calls.failWaiting(error);
    this.settleReady(error);
    for (const slot of [...this.slots]) this.drop(slot);
  }

  private settleReady(error?: unknown): void {
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const waiter of waiters) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
  }

  /** Forgets a worker and ends it in the background. */
  private drop(slot: Slot): void {
    this.slots.delete(slot);
    const stopping = this.stop(slot).finally(() => this.stopping.delete(stopping));
    this.stopping.add(stopping);
  }

  /**
   * Ends a worker, once any model load or run under way in it is over: onnxruntime-node aborts the whole
   * process ("terminate called after throwing an instance of 'Napi::Error'") when a worker is terminated
   * while its session runs, so a worker past its time bound is let go (unreferenced) rather than killed.
   */
  private async stop(slot: Slot): Promise<void> {
    clearTimeout(slot.timer);
    slot.worker.removeAllListeners('message');
    if (slot.inFlight) {
      slot.worker.unref();
      await new Promise<void>((resolve) => {
        slot.worker.once('message', () => resolve());
        slot.worker.once('exit', () => resolve());
      });
    }
    await slot.worker.terminate();
  }
}

function closedError(): EmbedderError {
  return new EmbedderError('closed', 'the embedder is closed');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
