/**
 * The foreground first: a process's searches and chat requests (the foreground) and its crawls and indexing
 * (the background) share the machine's cores, and no thread priority separates them. The HTTP layer marks each
 * foreground request while it is in flight ({@link ForegroundGate.enter}); background work calls
 * {@link ForegroundGate.yield} between its units of work (a job claimed, a page visited, a passage batch
 * written), which waits while any foreground request is in flight — until the last one ends, or for at most
 * `maxWaitMs`, so background work never starves under a steady stream of requests: each unit starts at most
 * `maxWaitMs` late. When the foreground ends, the units waiting go on one per turn of the event loop, oldest
 * first, each only if no request arrived meanwhile (a request read in that turn holds the rest again), so a
 * search arriving right after another does not land on every waiting unit at once.
 *
 * Across threads: the requests are served on one thread and the background may run on another. The request
 * thread's gate ({@link foregroundGate} with `shared`) then also keeps its count of requests in flight in a
 * `SharedArrayBuffer` ({@link newForegroundBuffer}), and the background thread waits on that count through
 * {@link remoteForegroundGate}, by the same rules, without blocking its own event loop (`Atomics.waitAsync`,
 * woken by `Atomics.notify` when the count drops to 0).
 *
 * The gate is per process: on PostgreSQL with several processes, each process's background yields to its own
 * requests only (another process's searches run on their own event loop and cores).
 */

/** How a {@link ForegroundGate.yield} ended. */
export type YieldOutcome =
  /** No foreground request was in flight. */
  | 'free'
  /** It waited, and the foreground ended. */
  | 'foreground_ended'
  /** It waited the whole bound, the foreground still in flight. */
  | 'bound_reached'
  /** Its signal aborted while it waited. */
  | 'aborted';

/** What the background waits on (see the file comment). */
export interface ForegroundGate {
  /** Marks one foreground request in flight; the answer marks it ended (a second call does nothing). */
  enter(): () => void;
  /**
   * Resolves at once when no foreground request is in flight and no unit waits; else when its turn comes after
   * the last request ended, when `maxWaitMs` has passed, or when `signal` aborts (it never rejects: the caller
   * checks its signal).
   */
  yield(signal?: AbortSignal): Promise<YieldOutcome>;
  /** Foreground requests in flight now. */
  readonly inFlight: number;
  /** Background units waiting now. */
  readonly waiting: number;
  /** How the yields ended so far (a process's counters, for tests and logs). */
  readonly outcomes: Readonly<Record<YieldOutcome, number>>;
}

/**
 * A {@link ForegroundGate}; `maxWaitMs` 0 turns it off (yields never wait). With `shared` (from
 * {@link newForegroundBuffer}), each request in flight is also counted there, for a {@link remoteForegroundGate} in
 * another thread; this gate's own yields still go by its own requests only.
 * @example
 * const gate = foregroundGate({ maxWaitMs: 200 });
 * const done = gate.enter(); // a search starts
 * const waited = gate.yield(); // a crawl's next page waits…
 * done(); // …until the search ends: 'foreground_ended'
 */
export function foregroundGate(options: { maxWaitMs: number; shared?: SharedArrayBuffer }): ForegroundGate {
  const counts = options.shared === undefined ? undefined : sharedCount(options.shared);
  let inFlight = 0;
  const line = waitingLine(options.maxWaitMs, () => inFlight > 0);
  return {
    enter() {
      inFlight++;
      const endShared = counts === undefined ? undefined : countRequest(counts);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        inFlight--;
        endShared?.();
        if (inFlight === 0) line.release();
      };
    },
    yield: line.yield,
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return line.waiting;
    },
    outcomes: line.outcomes,
  };
}

/** A buffer to share between a {@link foregroundGate} and the {@link remoteForegroundGate}s of other threads. */
export function newForegroundBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * COUNT_SLOTS);
}

/**
 * A {@link ForegroundGate} for a thread other than the one serving the requests: its yields wait on the requests
 * counted in `shared` (by the request thread's {@link foregroundGate}, and by this gate's own
 * {@link ForegroundGate.enter}), with the same outcomes and order as the local gate; `inFlight` is the shared
 * count, `waiting` and `outcomes` this thread's own. Waiting never blocks this thread's event loop.
 * @example
 * // the request thread: const gate = foregroundGate({ maxWaitMs, shared: buffer }), the buffer sent to the worker
 * const gate = remoteForegroundGate({ maxWaitMs: 200, shared: workerData.foreground });
 * await gate.yield(signal); // between two pages of a crawl
 */
export function remoteForegroundGate(options: {
  maxWaitMs: number;
  shared: SharedArrayBuffer;
}): ForegroundGate {
  const counts = sharedCount(options.shared);
  const held = () => Atomics.load(counts, 0) > 0;
  /** Whether a wait on the shared count is pending (one at a time, however many units wait). */
  let watching = false;
  /** Waits (off this thread's event loop) until the shared count drops to 0, then lets the units go. */
  const watch = () => {
    if (watching) return;
    for (;;) {
      const seen = Atomics.load(counts, 0);
      if (seen <= 0) {
        line.release();
        return;
      }
      // Notified when the count drops to 0; bounded, so a wait left behind by units gone ends by itself.
      const wait = waitAsync(counts, 0, seen, Math.max(options.maxWaitMs, 1));
      if (!wait.async) continue; // the count changed since it was read: read it again
      watching = true;
      void wait.value.then((woken) => {
        watching = false;
        // Notified: the count reached 0, however short the gap before the next request (a search right after
        // another one is already counted when this thread looks). The oldest unit goes in that gap, as it would
        // at the local gate, whose units go when a request ends, before the next one is read.
        if (woken !== 'ok') {
          if (line.waiting > 0) watch();
          return;
        }
        line.releaseOldest();
        // The next unit a turn later, and only while no request is in flight (as the local gate lets them go).
        if (line.waiting > 0) setImmediate(watch);
      });
      return;
    }
  };
  const line = waitingLine(options.maxWaitMs, held, watch);
  return {
    enter() {
      const end = countRequest(counts);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        end();
        if (!held()) line.release();
      };
    },
    yield: line.yield,
    get inFlight() {
      return Atomics.load(counts, 0);
    },
    get waiting() {
      return line.waiting;
    },
    outcomes: line.outcomes,
  };
}

/** The slots of a foreground buffer: 0 holds the count of requests in flight. */
const COUNT_SLOTS = 1;

/** The count of a foreground buffer, refusing a buffer too small to hold it. */
function sharedCount(shared: SharedArrayBuffer): Int32Array {
  if (shared.byteLength < Int32Array.BYTES_PER_ELEMENT * COUNT_SLOTS) {
    throw new RangeError(`a foreground buffer holds at least ${COUNT_SLOTS} Int32 (see newForegroundBuffer)`);
  }
  return new Int32Array(shared, 0, COUNT_SLOTS);
}

/** Counts one request in `counts`; the answer uncounts it, and wakes the threads waiting when none is left. */
function countRequest(counts: Int32Array): () => void {
  Atomics.add(counts, 0, 1);
  return () => {
    if (Atomics.sub(counts, 0, 1) === 1) Atomics.notify(counts, 0);
  };
}

/** `Atomics.waitAsync` (Node 20; ES2024, past the ES2023 library these sources are checked against). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      typedArray: Int32Array,
      index: number,
      value: number,
      timeoutMs: number,
    ):
      | { async: false; value: 'not-equal' | 'timed-out' }
      | { async: true; value: Promise<'ok' | 'timed-out'> };
  }
).waitAsync;

/**
 * The units waiting at a gate, oldest first, and how their yields ended: what the local and the remote gate
 * share. `held` says whether the foreground is in flight; `stillHeld` runs when a unit starts waiting and when
 * letting the units go stops because the foreground came back (the remote gate then watches the shared count; the
 * local gate needs nothing: its requests' ends call {@link release}).
 */
function waitingLine(maxWaitMs: number, held: () => boolean, stillHeld: () => void = () => {}) {
  /** The waiting units' wake-ups, oldest first (a Set keeps insertion order). */
  const waiters = new Set<(outcome: YieldOutcome) => void>();
  let draining = false;
  /** Wakes the oldest waiting unit, then the next one a turn later, while the foreground stays idle. */
  const drain = () => {
    draining = false;
    if (held()) {
      if (waiters.size > 0) stillHeld();
      return;
    }
    const [oldest] = waiters;
    if (!oldest) return;
    oldest('foreground_ended');
    if (waiters.size > 0) {
      draining = true;
      setImmediate(drain);
    }
  };
  const outcomes: Record<YieldOutcome, number> = {
    free: 0,
    foreground_ended: 0,
    bound_reached: 0,
    aborted: 0,
  };
  const count = (outcome: YieldOutcome) => {
    outcomes[outcome]++;
    return outcome;
  };
  return {
    outcomes,
    get waiting() {
      return waiters.size;
    },
    /** The foreground ended: lets the waiting units go (unless they already are being let go). */
    release() {
      if (!draining) drain();
    },
    /** The foreground had a gap: the oldest waiting unit goes, whether or not a request came since. */
    releaseOldest() {
      const [oldest] = waiters;
      oldest?.('foreground_ended');
    },
    yield(signal?: AbortSignal): Promise<YieldOutcome> {
      // Units still being let go one a turn go first: a new one queues behind them.
      const isHeld = held() || waiters.size > 0;
      if (!isHeld || maxWaitMs <= 0 || signal?.aborted) return Promise.resolve(count('free'));
      return new Promise<YieldOutcome>((resolve) => {
        const wake = (outcome: YieldOutcome) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          waiters.delete(wake);
          resolve(count(outcome));
        };
        const onAbort = () => wake('aborted');
        const timer = setTimeout(() => wake('bound_reached'), maxWaitMs);
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.add(wake);
        stillHeld();
      });
    },
  };
}
