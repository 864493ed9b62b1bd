/**
 * The calls waiting on the USE-lite workers: each call cut into batches of texts of like length, the next
 * batch taken from the call served least so far, vectors put back in input order, and each call settled
 * once (resolved when its last batch comes back, or rejected at its first failure or abort).
 */
import { abortReason, EmbedderError } from './errors.js';

export interface Call {
  texts: readonly string[];
  vectors: (Float32Array | undefined)[];
  /** Batches not yet given to a worker, each as the positions of its texts in `texts`. */
  pending: number[][];
  running: number;
  /** Batches handed out so far: the call with the fewest goes next. */
  dispatched: number;
  settled: boolean;
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: unknown) => void;
  cleanup: () => void;
}

export interface Batch {
  id: number;
  call: Call;
  /** Positions in `call.texts`, one per text of the batch. */
  positions: number[];
  texts: string[];
}

/** Calls with batches still to hand out, in arrival order. */
export class CallQueue {
  private queue: Call[] = [];
  private nextBatchId = 1;

  /**
   * A new call for `texts` in batches of `batchSize`, failed when `signal` aborts; `queued` runs once the
   * call waits in the queue (inside the promise's executor).
   */
  enqueue(
    texts: readonly string[],
    batchSize: number,
    signal: AbortSignal | undefined,
    queued: () => void,
  ): Promise<Float32Array[]> {
    return new Promise<Float32Array[]>((resolve, reject) => {
      const call: Call = {
        texts: [...texts],
        vectors: new Array<Float32Array | undefined>(texts.length),
        pending: [],
        running: 0,
        dispatched: 0,
        settled: false,
        resolve,
        reject,
        cleanup: () => {},
      };
      // Texts of like length go together: the model pads every row of a batch to the longest one.
      const order = texts.map((_, i) => i).sort((a, b) => lengthKey(texts[a]) - lengthKey(texts[b]));
      for (let start = 0; start < order.length; start += batchSize) {
        call.pending.push(order.slice(start, start + batchSize));
      }
      if (signal !== undefined) {
        const onAbort = (): void => this.fail(call, abortReason(signal));
        signal.addEventListener('abort', onAbort, { once: true });
        call.cleanup = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(call);
      queued();
    });
  }

  /** Calls with batches still waiting. */
  get waiting(): readonly Call[] {
    return this.queue;
  }

  /** Batches waiting for a worker, over all calls. */
  get waitingBatches(): number {
    return this.queue.reduce((sum, call) => sum + call.pending.length, 0);
  }

  /**
   * The next batch to run, from the call served least so far (a new query goes before the next batch of
   * a long indexing call), counted as running; undefined when none waits.
   */
  next(): Batch | undefined {
    let call = this.queue[0];
    if (call === undefined) return undefined;
    for (const queued of this.queue) if (queued.dispatched < call.dispatched) call = queued;
    const positions = call.pending.shift() as number[];
    call.dispatched++;
    if (call.pending.length === 0) this.queue = this.queue.filter((queued) => queued !== call);
    const texts = call.texts;
    const batch: Batch = {
      id: this.nextBatchId++,
      call,
      positions,
      texts: positions.map((position) => texts[position] as string),
    };
    call.running++;
    return batch;
  }

  /**
   * Puts the vectors of `batch` (`flat`, `width` numbers each, one after the other) in place; resolves the
   * call when it is done.
   */
  complete(batch: Batch, flat: Float32Array, width: number): void {
    const { call } = batch;
    call.running--;
    if (call.settled) return; // the call already failed or was aborted
    if (flat.length !== batch.texts.length * width) {
      this.fail(call, new EmbedderError('worker_failed', `the worker returned ${flat.length} numbers`));
      return;
    }
    for (let i = 0; i < batch.texts.length; i++) {
      const position = batch.positions[i] as number;
      call.vectors[position] = flat.slice(i * width, (i + 1) * width);
    }
    if (call.pending.length === 0 && call.running === 0) {
      call.settled = true;
      call.cleanup();
      call.resolve(call.vectors as Float32Array[]);
    }
  }

  /** `batch` will not come back: it no longer runs, and its call fails with `error`. */
  abandon(batch: Batch, error: unknown): void {
    batch.call.running--;
    this.fail(batch.call, error);
  }

  /** Rejects `call` once, and forgets its batches still waiting. */
  fail(call: Call, error: unknown): void {
    if (call.settled) return;
    call.settled = true;
    call.vectors = [];
    call.pending = [];
    this.queue = this.queue.filter((queued) => queued !== call);
    call.cleanup();
    call.reject(error);
  }

  /** Fails every waiting call with `error`. */
  failWaiting(error: unknown): void {
    for (const call of [...this.queue]) this.fail(call, error);
  }
}

/** Sort key for batching: length in characters, all texts past the model's window alike. */
function lengthKey(text: string | undefined): number {
  return Math.min(text?.length ?? 0, 1_000);
}
