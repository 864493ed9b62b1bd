import type { Logger } from '../../logger.js';

/** How a {@link WriteBehind} batches, bounds and retries. */
export interface WriteBehindLimits {
  /** Rows per statement; a full batch is written at once. */
  maxBatch: number;
  /** Longest wait of the first buffered row before its batch is written. */
  delayMs: number;
  /** Rows held at most (waiting, or put back after a failed write); past it the oldest are dropped. */
  maxBuffered: number;
  /** Wait before retrying after a failed write; doubled on every further failure, up to 30 s. */
  retryMs: number;
  /** Failed writes a row goes through before it is dropped. */
  maxAttempts: number;
}

/** The limits of the request log: 200 rows or 100 ms, 10,000 rows held, 6 attempts (~30 s of outage). */
export const REQUEST_LOG_LIMITS: WriteBehindLimits = {
  maxBatch: 200,
  delayMs: 100,
  maxBuffered: 10_000,
  retryMs: 1000,
  maxAttempts: 6,
};

const MAX_RETRY_MS = 30_000;

interface Pending<T> {
  row: T;
  /** Order of arrival: what a {@link WriteBehind.flush} waits for. */
  seq: number;
  attempts: number;
}

/** What a {@link WriteBehind} has done so far. */
export interface WriteBehindStats {
  /** Statements that wrote rows. */
  batches: number;
  /** Rows written. */
  written: number;
  /** Rows dropped (buffer full, attempts used up, or unwritable at close). */
  dropped: number;
}

/**
 * Rows written behind the requests that make them: {@link add} only buffers; the buffered rows go to the
 * database in one statement per batch, when `maxBatch` rows wait or `delayMs` after the first, with at most
 * one write in flight. Readers call {@link flush} first (every row added before it is then written, or its
 * write has failed). A failed write logs one warning per outage and never reaches the caller of `add`; its
 * rows are retried, with a growing delay, until `maxAttempts`. At most `maxBuffered` rows wait: past that
 * the oldest are dropped, with one warning. {@link close} writes what waits. What a crash loses: the rows
 * of the last `delayMs` (at most `maxBuffered`), more while the database fails.
 */
export class WriteBehind<T> {
  readonly stats: WriteBehindStats = { batches: 0, written: 0, dropped: 0 };
  private buffer: Array<Pending<T>> = [];
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private inflight: Promise<boolean> | undefined;
  /** Consecutive failed writes (0: the database takes rows). */
  private failures = 0;
  /** Rows dropped since the last warning about it. */
  private droppedUnreported = 0;
  private warnedFull = false;
  private closed = false;

  constructor(
    private readonly write: (rows: T[]) => Promise<unknown>,
    private readonly logger: Logger,
    private readonly what: string,
    private readonly limits: WriteBehindLimits = REQUEST_LOG_LIMITS,
  ) {}

  /** Rows buffered, not yet handed to a write. */
  get buffered(): number {
    return this.buffer.length;
  }

  /** Buffers one row; never throws, never waits. After {@link close}, the row is written at once. */
  add(row: T): void {
    this.seq += 1;
    this.buffer.push({ row, seq: this.seq, attempts: 0 });
    this.bound();
    if (this.inflight) return; // the write in flight schedules what follows it
    if (this.closed || (this.failures === 0 && this.buffer.length >= this.limits.maxBatch)) {
      void this.writeBatch();
    } else {
      this.schedule(this.limits.delayMs); // no-op while a timer (the delay, or a retry's) is set
    }
  }

  /**
   * Writes every row added before the call (several batches if need be); resolves when they are written or a
   * write has failed (then they stay buffered for the retry). Never rejects.
   */
  async flush(): Promise<void> {
    const target = this.seq;
    for (;;) {
      if (this.inflight) {
        if (!(await this.inflight)) return;
        continue;
      }
      const first = this.buffer[0];
      if (!first || first.seq > target) return;
      if (!(await this.writeBatch())) return;
    }
  }

  /** Writes what waits (one attempt); rows that cannot be written are dropped with a warning. */
  async close(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    await this.flush();
    this.clearTimer();
    if (this.buffer.length > 0) {
      this.drop(this.buffer.length);
      this.buffer = [];
    }
    this.reportDropped('could not be written before the app closed');
  }

  private writeBatch(): Promise<boolean> {
    if (this.inflight) return this.inflight;
    this.clearTimer();
    const batch = this.buffer.splice(0, this.limits.maxBatch);
    if (batch.length === 0) return Promise.resolve(true);
    const inflight = this.attempt(batch).then((ok) => {
      this.inflight = undefined;
      this.next(ok);
      return ok;
    });
    this.inflight = inflight;
    return inflight;
  }

  private async attempt(batch: Array<Pending<T>>): Promise<boolean> {
    try {
      await this.write(batch.map((p) => p.row));
    } catch (error) {
      if (this.failures === 0) {
        this.logger.warn(
          { err: error, rows: batch.length },
          `could not write the ${this.what}; its rows are kept and retried (warned once until a write succeeds)`,
        );
      }
      this.failures += 1;
      const keep = this.closed ? [] : batch.filter((p) => ++p.attempts < this.limits.maxAttempts);
      this.drop(batch.length - keep.length);
      this.buffer.unshift(...keep);
      this.bound();
      return false;
    }
    this.stats.batches += 1;
    this.stats.written += batch.length;
    if (this.failures > 0) {
      this.logger.info({ failedWrites: this.failures }, `the ${this.what} is written again`);
      this.failures = 0;
    }
    this.reportDropped('were dropped while the database did not take them');
    this.warnedFull = false;
    return true;
  }

  /** After a write: the next batch now if one is full, else after the delay (or the retry's backoff). */
  private next(ok: boolean): void {
    if (this.buffer.length === 0) return;
    if (!ok) {
      if (!this.closed) this.schedule(Math.min(this.limits.retryMs * 2 ** (this.failures - 1), MAX_RETRY_MS));
      return;
    }
    if (this.closed || this.buffer.length >= this.limits.maxBatch) void this.writeBatch();
    else this.schedule(this.limits.delayMs);
  }

  /** Drops the oldest rows past `maxBuffered`, warning once until a write succeeds. */
  private bound(): void {
    const over = this.buffer.length - this.limits.maxBuffered;
    if (over <= 0) return;
    this.buffer.splice(0, over);
    this.drop(over);
    if (!this.warnedFull) {
      this.warnedFull = true;
      this.logger.warn(
        { maxBuffered: this.limits.maxBuffered },
        `the ${this.what} buffer is full: its oldest rows are dropped until the database takes rows again`,
      );
    }
  }

  private drop(rows: number): void {
    this.stats.dropped += rows;
    this.droppedUnreported += rows;
  }

  private reportDropped(why: string): void {
    if (this.droppedUnreported === 0) return;
    this.logger.warn({ rows: this.droppedUnreported }, `rows of the ${this.what} ${why}`);
    this.droppedUnreported = 0;
  }

  private schedule(ms: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.writeBatch();
    }, ms);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
