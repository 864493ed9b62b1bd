/**
 * The calls waiting on the USE-lite workers: each call cut into batches of texts of like length; a
 * worker's batch filled from the call served least so far, then from the next ones (many small calls, as
 * when several short files are indexed at once, share one model run instead of one run each); vectors
 * put back in input order, and each call settled once (resolved when its last texts come back, or
 * rejected at its first failure or abort). Two lanes: a batch is taken from the interactive calls (search
 * queries, chat questions) while any waits, and from the bulk calls (indexing) only when none does; a batch
 * never mixes the two, so a query's run is not lengthened by indexing texts.
 */
import type { EmbedPriority } from '../types.js';
import { abortReason, EmbedderError } from './errors.js';

/** The lanes in the order a worker serving both takes its batches from, queries first. */
export const INTERACTIVE_FIRST: readonly EmbedPriority[] = ['interactive', 'bulk'];

export interface Call {
  texts: readonly string[];
  priority: EmbedPriority;
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

/** One call's share of a batch. */
export interface BatchPart {
  call: Call;
  /** Positions in `call.texts`, one per text of this part. */
  positions: number[];
}

export interface Batch {
  id: number;
  /** The calls whose texts the batch holds, in the order of `texts`. */
  parts: BatchPart[];
  texts: string[];
}

/** Calls with batches still to hand out, in arrival order, in their lane. */
export class CallQueue {
  private readonly lanes: Record<EmbedPriority, Call[]> = { interactive: [], bulk: [] };
  private nextBatchId = 1;

  /**
   * A new call for `texts` in batches of `batchSize`, failed when `signal` aborts; `queued` runs once the
   * call waits in the queue (inside the promise's executor).
   */
  enqueue(
    texts: readonly string[],
    batchSize: number,
    options: { signal: AbortSignal | undefined; priority: EmbedPriority },
    queued: () => void,
  ): Promise<Float32Array[]> {
    const { signal, priority } = options;
    return new Promise<Float32Array[]>((resolve, reject) => {
      const call: Call = {
        texts: [...texts],
        priority,
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
      this.lanes[priority].push(call);
      queued();
    });
  }

  /** Calls with batches still waiting, the interactive ones first. */
  get waiting(): readonly Call[] {
    return [...this.lanes.interactive, ...this.lanes.bulk];
  }

  /** Batches waiting for a worker, over all calls. */
  get waitingBatches(): number {
    return this.waiting.reduce((sum, call) => sum + call.pending.length, 0);
  }

  /** Batches waiting in one lane. */
  waitingIn(priority: EmbedPriority): number {
    return this.lanes[priority].reduce((sum, call) => sum + call.pending.length, 0);
  }

  /** Texts waiting in the lane the next batch is taken from (the first of `order` with a call waiting). */
  nextLaneTexts(order: readonly EmbedPriority[] = INTERACTIVE_FIRST): number {
    let sum = 0;
    for (const call of this.nextLane(order)) for (const batch of call.pending) sum += batch.length;
    return sum;
  }

  /**
   * The next batch to run, of at most `room` texts, from the first lane of `order` (by default the
   * interactive lane, then the bulk lane) with a call waiting: from the lane's call served least so far (a
   * new call goes before the next batch of a long one), then the next least served while room is left; its
   * calls counted as running. A bulk batch also stops at {@link BULK_BATCH_CHARS} (its rows times its
   * longest text), so that the run a query may find going is short. Undefined when none waits.
   */
  next(room: number, order: readonly EmbedPriority[] = INTERACTIVE_FIRST): Batch | undefined {
    const lane = this.nextLane(order);
    const budget = lane === this.lanes.bulk ? BULK_BATCH_CHARS : Number.POSITIVE_INFINITY;
    const parts: BatchPart[] = [];
    const texts: string[] = [];
    let widest = 0;
    let left = Math.max(1, room);
    while (left > 0) {
      let call = lane[0];
      if (call === undefined) break;
      for (const queued of lane) if (queued.dispatched < call.dispatched) call = queued;
      const waiting = call.pending[0] as number[];
      let taken = 0;
      while (taken < Math.min(left, waiting.length)) {
        const wider = Math.max(widest, lengthKey(call.texts[waiting[taken] as number]));
        if (texts.length + taken > 0 && (texts.length + taken + 1) * wider > budget) break;
        widest = wider;
        taken++;
      }
      if (taken === 0) break; // the batch is full
      const positions = taken === waiting.length ? waiting : waiting.slice(0, taken);
      if (positions === waiting) call.pending.shift();
      else call.pending[0] = waiting.slice(taken);
      call.dispatched++;
      call.running++;
      if (call.pending.length === 0) lane.splice(lane.indexOf(call), 1);
      parts.push({ call, positions });
      for (const position of positions) texts.push(call.texts[position] as string);
      left -= positions.length;
      if (taken < waiting.length) break; // cut by room or budget
    }
    if (parts.length === 0) return undefined;
    return { id: this.nextBatchId++, parts, texts };
  }

  /**
   * Puts the vectors of `batch` (`flat`, `width` numbers each, one after the other) in place; resolves
   * each call that is done.
   */
  complete(batch: Batch, flat: Float32Array, width: number): void {
    if (flat.length !== batch.texts.length * width) {
      this.abandon(batch, new EmbedderError('worker_failed', `the worker returned ${flat.length} numbers`));
      return;
    }
    let offset = 0;
    for (const { call, positions } of batch.parts) {
      call.running--;
      const start = offset;
      offset += positions.length;
      if (call.settled) continue; // the call already failed or was aborted
      for (let i = 0; i < positions.length; i++) {
        call.vectors[positions[i] as number] = flat.slice((start + i) * width, (start + i + 1) * width);
      }
      if (call.pending.length === 0 && call.running === 0) {
        call.settled = true;
        call.cleanup();
        call.resolve(call.vectors as Float32Array[]);
      }
    }
  }

  /** `batch` will not come back: it no longer runs, and its calls fail with `error`. */
  abandon(batch: Batch, error: unknown): void {
    for (const { call } of batch.parts) {
      call.running--;
      this.fail(call, error);
    }
  }

  /** Rejects `call` once, and forgets its batches still waiting. */
  fail(call: Call, error: unknown): void {
    if (call.settled) return;
    call.settled = true;
    call.vectors = [];
    call.pending = [];
    const lane = this.lanes[call.priority];
    if (lane.includes(call)) lane.splice(lane.indexOf(call), 1);
    call.cleanup();
    call.reject(error);
  }

  /** Fails every waiting call with `error`. */
  failWaiting(error: unknown): void {
    for (const call of this.waiting) this.fail(call, error);
  }

  /** The first lane of `order` with a call waiting (an empty one when none has). */
  private nextLane(order: readonly EmbedPriority[]): Call[] {
    for (const priority of order) if (this.lanes[priority].length > 0) return this.lanes[priority];
    return [];
  }
}

/**
 * Most rows × longest text (in characters) of a bulk batch: about four passages of a full chunk (~120 tokens,
 * ~600 characters), or a full batch of short ones. A run costs about its rows times its padded length (16 full
 * passages take ~4× as long as 4 on onnxruntime), and a query that comes while it runs waits for its end.
 */
export const BULK_BATCH_CHARS = 2_400;

/** Sort key for batching: length in characters, all texts past the model's window alike. */
function lengthKey(text: string | undefined): number {
  return Math.min(text?.length ?? 0, 1_000);
}
