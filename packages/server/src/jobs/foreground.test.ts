import { afterEach, describe, expect, it, vi } from 'vitest';
import { foregroundGate, type YieldOutcome } from './foreground.js';

/** Whether `promise` has settled, and with what, once the microtasks queued now have run. */
async function state<T>(promise: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([promise, Promise.resolve().then(() => 'pending' as const)]);
}

/** One turn of the event loop (the gate wakes one waiting unit per turn). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('foregroundGate', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets background work through at once when no foreground request is in flight', async () => {
    const gate = foregroundGate({ maxWaitMs: 200 });
    expect(await gate.yield()).toBe('free');
    const end = gate.enter();
    end();
    expect(await gate.yield()).toBe('free');
    expect(gate.outcomes.free).toBe(2);
  });

  it('holds background work while a request is in flight, and lets it go one unit a turn once none is', async () => {
    const gate = foregroundGate({ maxWaitMs: 60_000 });
    const first = gate.enter();
    const second = gate.enter();
    const waits = [gate.yield(), gate.yield(), gate.yield()];
    expect(gate.waiting).toBe(3);
    first();
    first(); // a second end of the same request changes nothing
    expect(gate.inFlight).toBe(1);
    expect(await state(waits[0] as Promise<YieldOutcome>)).toBe('pending');
    second();
    // The oldest goes on at once; a request arriving before the next turn holds the others again.
    expect(await state(waits[0] as Promise<YieldOutcome>)).toBe('foreground_ended');
    const third = gate.enter();
    await nextTurn();
    await nextTurn();
    expect(gate.waiting).toBe(2);
    third();
    expect(await Promise.all(waits)).toEqual(['foreground_ended', 'foreground_ended', 'foreground_ended']);
    expect(gate.waiting).toBe(0);
    expect(gate.inFlight).toBe(0);
  });

  it('never holds a unit longer than the bound, however long the foreground lasts', async () => {
    vi.useFakeTimers();
    const gate = foregroundGate({ maxWaitMs: 200 });
    gate.enter(); // never ends
    const waited = gate.yield();
    await vi.advanceTimersByTimeAsync(199);
    expect(await state(waited)).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(await waited).toBe('bound_reached');
    // The next unit waits its own bound again.
    const next = gate.yield();
    await vi.advanceTimersByTimeAsync(200);
    expect(await next).toBe('bound_reached');
    expect(gate.outcomes).toEqual({ free: 0, foreground_ended: 0, bound_reached: 2, aborted: 0 });
  });

  it('ends a wait when its signal aborts, and never waits with a bound of 0', async () => {
    const gate = foregroundGate({ maxWaitMs: 200 });
    gate.enter();
    const stop = new AbortController();
    const waited = gate.yield(stop.signal);
    stop.abort();
    expect(await waited).toBe('aborted');
    expect(gate.waiting).toBe(0);
    const off = foregroundGate({ maxWaitMs: 0 });
    off.enter();
    expect(await off.yield()).toBe('free');
  });
});
