/**
 * The foreground first: a process's searches and chat requests (the foreground) and its crawls and indexing
 * (the background) share one event loop, and no thread priority separates them. The HTTP layer marks each
 * foreground request while it is in flight ({@link ForegroundGate.enter}); background work calls
 * {@link ForegroundGate.yield} between its units of work (a job claimed, a page visited, a passage batch
 * written), which waits while any foreground request is in flight — until the last one ends, or for at most
 * `maxWaitMs`, so background work never starves under a steady stream of requests: each unit starts at most
 * `maxWaitMs` late. When the foreground ends, the units waiting go on one per turn of the event loop, oldest
 * first, each only if no request arrived meanwhile (a request read in that turn holds the rest again), so a
 * search arriving right after another does not land on every waiting unit at once.
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
 * A {@link ForegroundGate}; `maxWaitMs` 0 turns it off (yields never wait).
 * @example
 * const gate = foregroundGate({ maxWaitMs: 200 });
 * const done = gate.enter(); // a search starts
 * const waited = gate.yield(); // a crawl's next page waits…
 * done(); // …until the search ends: 'foreground_ended'
 */
export function foregroundGate(options: { maxWaitMs: number }): ForegroundGate {
  let inFlight = 0;
  /** The waiting units' wake-ups, oldest first (a Set keeps insertion order). */
  const waiters = new Set<(outcome: YieldOutcome) => void>();
  let draining = false;
  /** Wakes the oldest waiting unit, then the next one a turn later, while the foreground stays idle. */
  const drain = () => {
    draining = false;
    if (inFlight > 0) return;
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
    enter() {
      inFlight++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        inFlight--;
        if (inFlight > 0 || draining) return;
        drain();
      };
    },
    yield(signal) {
      // Units still being let go one a turn go first: a new one queues behind them.
      const held = inFlight > 0 || waiters.size > 0;
      if (!held || options.maxWaitMs <= 0 || signal?.aborted) return Promise.resolve(count('free'));
      return new Promise<YieldOutcome>((resolve) => {
        const wake = (outcome: YieldOutcome) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          waiters.delete(wake);
          resolve(count(outcome));
        };
        const onAbort = () => wake('aborted');
        const timer = setTimeout(() => wake('bound_reached'), options.maxWaitMs);
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.add(wake);
      });
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waiters.size;
    },
    outcomes,
  };
}
