import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Logger, silentLogger } from '../../logger.js';
import { WriteBehind, type WriteBehindLimits } from './write-behind.js';

const LIMITS: WriteBehindLimits = {
  maxBatch: 4,
  delayMs: 100,
  maxBuffered: 10,
  retryMs: 1000,
  maxAttempts: 3,
};

/** A write the test settles by hand, with every call kept. */
function manualWrite() {
  const calls: Array<{ rows: number[]; resolve: () => void; reject: (e: Error) => void }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const write = (rows: number[]) =>
    new Promise<void>((resolve, reject) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const done = () => {
        inFlight -= 1;
      };
      calls.push({
        rows,
        resolve: () => {
          done();
          resolve();
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
    });
  return { write, calls, maxInFlight: () => maxInFlight };
}

/** A logger that keeps its warnings. */
function warnings(): { logger: Logger; warned: string[] } {
  const warned: string[] = [];
  return { logger: { ...silentLogger, warn: (_fields, message) => void warned.push(message) }, warned };
}

/** Lets the promise callbacks queued so far run (fake timers do not move). */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('WriteBehind (the request log written behind its requests)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the rows of the delay in one statement, none before it', async () => {
    const written: number[][] = [];
    const w = new WriteBehind<number>(async (rows) => void written.push(rows), silentLogger, 'log', {
      ...LIMITS,
      maxBatch: 200,
      maxBuffered: 1000,
    });
    for (let i = 0; i < 150; i += 1) w.add(i);
    await vi.advanceTimersByTimeAsync(99);
    expect(written).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(written).toHaveLength(1);
    expect(written[0]).toEqual(Array.from({ length: 150 }, (_, i) => i));
    expect(w.stats).toEqual({ batches: 1, written: 150, dropped: 0 });
  });

  it('writes a full batch at once, one write in flight at a time, the rest after it', async () => {
    const m = manualWrite();
    const w = new WriteBehind<number>(m.write, silentLogger, 'log', LIMITS);
    for (let i = 0; i < 10; i += 1) w.add(i); // 4 go at once; 6 wait for that write
    await settle();
    expect(m.calls.map((c) => c.rows)).toEqual([[0, 1, 2, 3]]);
    m.calls[0]?.resolve();
    await settle(); // the next full batch goes without waiting for the delay
    expect(m.calls.map((c) => c.rows)).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
    m.calls[1]?.resolve();
    await settle();
    expect(m.calls).toHaveLength(2); // 2 rows: a partial batch waits for the delay
    await vi.advanceTimersByTimeAsync(100);
    expect(m.calls[2]?.rows).toEqual([8, 9]);
    m.calls[2]?.resolve();
    await settle();
    expect(m.maxInFlight()).toBe(1);
  });

  it('flush writes everything added before it, waiting for the write in flight', async () => {
    const m = manualWrite();
    const w = new WriteBehind<number>(m.write, silentLogger, 'log', LIMITS);
    for (let i = 0; i < 6; i += 1) w.add(i);
    let flushed = false;
    const flush = w.flush().then(() => {
      flushed = true;
    });
    await settle();
    expect(flushed).toBe(false);
    m.calls[0]?.resolve();
    await settle();
    expect(m.calls[1]?.rows).toEqual([4, 5]); // no delay: the flush asked for them
    w.add(6); // added after the flush began: not waited for
    m.calls[1]?.resolve();
    await flush;
    expect(flushed).toBe(true);
    expect(w.buffered).toBe(1);
  });

  it('a failed write never reaches add, warns once, and its rows are written by the retry', async () => {
    const { logger, warned } = warnings();
    let fail = true;
    const written: number[][] = [];
    const w = new WriteBehind<number>(
      async (rows) => {
        if (fail) throw new Error('database is down');
        written.push(rows);
      },
      logger,
      'log',
      LIMITS,
    );
    w.add(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(() => w.add(2)).not.toThrow();
    await vi.advanceTimersByTimeAsync(1000); // the retry: fails again, no second warning
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/could not write the log/);
    fail = false;
    await vi.advanceTimersByTimeAsync(2000); // backoff doubled
    expect(written).toEqual([[1, 2]]);
    expect(w.stats).toEqual({ batches: 1, written: 2, dropped: 0 });
  });

  it('drops a row after maxAttempts failed writes, and says so when writes work again', async () => {
    const { logger, warned } = warnings();
    let fail = true;
    const w = new WriteBehind<number>(
      async () => {
        if (fail) throw new Error('down');
      },
      logger,
      'log',
      LIMITS,
    );
    w.add(1);
    await vi.advanceTimersByTimeAsync(100 + 1000 + 2000); // 3 attempts
    expect(w.buffered).toBe(0);
    expect(w.stats.dropped).toBe(1);
    fail = false;
    w.add(2);
    await w.flush();
    expect(w.stats).toEqual({ batches: 1, written: 1, dropped: 1 });
    expect(warned).toEqual([
      expect.stringMatching(/could not write/),
      expect.stringMatching(/dropped while the database/),
    ]);
  });

  it('holds at most maxBuffered rows while the database hangs, dropping the oldest with one warning', async () => {
    const { logger, warned } = warnings();
    const m = manualWrite(); // never settled: a database that does not answer
    const w = new WriteBehind<number>(m.write, logger, 'log', LIMITS);
    for (let i = 0; i < 100; i += 1) w.add(i);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(m.calls).toHaveLength(1); // the one write in flight
    expect(w.buffered).toBe(10);
    expect(w.stats.dropped).toBe(86); // 100 − 4 in flight − 10 kept
    expect(warned).toEqual([expect.stringMatching(/buffer is full/)]);
    m.calls[0]?.resolve();
    await settle();
    expect(m.calls[1]?.rows).toEqual([90, 91, 92, 93]); // the newest were kept
  });

  it('close writes what waits; a row added after close is written at once', async () => {
    const written: number[][] = [];
    const w = new WriteBehind<number>(async (rows) => void written.push(rows), silentLogger, 'log', LIMITS);
    w.add(1);
    w.add(2);
    await w.close();
    expect(written).toEqual([[1, 2]]);
    w.add(3);
    await settle();
    expect(written).toEqual([[1, 2], [3]]);
  });

  it('close drops with a warning what the database refuses, and schedules no retry', async () => {
    const { logger, warned } = warnings();
    let calls = 0;
    const w = new WriteBehind<number>(
      async () => {
        calls += 1;
        throw new Error('closed');
      },
      logger,
      'log',
      LIMITS,
    );
    w.add(1);
    await w.close();
    expect(w.stats.dropped).toBe(1);
    expect(warned.at(-1)).toMatch(/could not be written before the app closed/);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(1);
  });
});
