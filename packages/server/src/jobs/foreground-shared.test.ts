import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { typescriptBootstrap } from '../workers/spawn.js';
import {
  foregroundGate,
  newForegroundBuffer,
  remoteForegroundGate,
  type YieldOutcome,
} from './foreground.js';

/** Whether `promise` has settled, and with what, once the microtasks queued now have run. */
async function state<T>(promise: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([promise, Promise.resolve().then(() => 'pending' as const)]);
}

/** One turn of the event loop (a gate wakes one waiting unit per turn). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The count of requests in flight that a foreground buffer holds. */
const sharedCount = (shared: SharedArrayBuffer) => Atomics.load(new Int32Array(shared), 0);

/**
 * The background thread of these tests: a remote gate on the buffer it is given, driven by messages. `yield`
 * answers `yielding` at once (with the gate's counts) and `outcome` when the yield ends; `abort` aborts that yield's
 * signal; `enter` and `end` mark a request of the worker's own; `state` answers the gate's counts.
 */
const WORKER_SCRIPT = (gateModule: string) => `
import { parentPort, workerData } from 'node:worker_threads';
import { remoteForegroundGate } from ${JSON.stringify(gateModule)};
const gate = remoteForegroundGate({ maxWaitMs: workerData.maxWaitMs, shared: workerData.shared });
const counts = () => ({ waiting: gate.waiting, inFlight: gate.inFlight, outcomes: { ...gate.outcomes } });
const stops = new Map();
const ends = new Map();
parentPort.on('message', (message) => {
  const { kind, id } = message;
  if (kind === 'yield') {
    const stop = new AbortController();
    stops.set(id, stop);
    const started = performance.now();
    void gate.yield(stop.signal).then((outcome) => {
      parentPort.postMessage({ kind: 'outcome', id, outcome, waitedMs: performance.now() - started });
    });
    parentPort.postMessage({ kind: 'yielding', id, ...counts() });
  } else if (kind === 'abort') stops.get(id).abort();
  else if (kind === 'enter') {
    ends.set(id, gate.enter());
    parentPort.postMessage({ kind: 'entered', id, ...counts() });
  } else if (kind === 'end') {
    ends.get(id)();
    parentPort.postMessage({ kind: 'ended', id, ...counts() });
  } else parentPort.postMessage({ kind: 'state', id, ...counts() });
});
`;

interface Reply {
  kind: string;
  id: number;
  waiting?: number;
  inFlight?: number;
  outcomes?: Record<YieldOutcome, number>;
  outcome?: YieldOutcome;
  waitedMs?: number;
}

const workers: Worker[] = [];

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.terminate()));
});

/**
 * A real worker thread running {@link WORKER_SCRIPT} on `shared` (this module's gate, from its sources through the
 * TypeScript hooks or from the build), and how to talk to it: `reply(kind, id)` is the worker's first message of
 * that kind and id not taken yet (asked for before it comes or after), `send` posts a message.
 */
async function gateWorker(shared: SharedArrayBuffer, maxWaitMs: number) {
  const fromSources = import.meta.url.endsWith('.ts');
  const gateModule = new URL(`./foreground${fromSources ? '.ts' : '.js'}`, import.meta.url).href;
  const entry = new URL(
    `data:text/javascript;base64,${Buffer.from(WORKER_SCRIPT(gateModule)).toString('base64')}`,
  );
  const workerData = { shared, maxWaitMs };
  const worker = fromSources
    ? new Worker(typescriptBootstrap(entry), { eval: true, workerData })
    : new Worker(entry, { workerData });
  workers.push(worker);
  const replies: Reply[] = [];
  const listeners = new Set<() => void>();
  let failed: Error | undefined;
  worker.on('message', (reply: Reply) => {
    replies.push(reply);
    for (const listener of listeners) listener();
  });
  worker.on('error', (error) => {
    failed = error;
    for (const listener of listeners) listener();
  });
  const reply = (kind: string, id: number) =>
    new Promise<Reply>((resolve, reject) => {
      const check = () => {
        const at = replies.findIndex((r) => r.kind === kind && r.id === id);
        if (at >= 0) resolve(replies.splice(at, 1)[0] as Reply);
        else if (failed) reject(failed);
        else return;
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });
  const send = (kind: string, id = 0) => worker.postMessage({ kind, id });
  const ask = (kind: string, answer: string, id = 0) => {
    const answered = reply(answer, id);
    send(kind, id);
    return answered;
  };
  await ask('state', 'state'); // the worker runs and listens
  return { reply, send, ask };
}

describe('foregroundGate with a shared buffer', () => {
  it('keeps its count of requests in flight in the buffer as well', () => {
    const shared = newForegroundBuffer();
    expect(shared.byteLength).toBe(4);
    const gate = foregroundGate({ maxWaitMs: 200, shared });
    const first = gate.enter();
    const second = gate.enter();
    expect(sharedCount(shared)).toBe(2);
    first();
    first(); // a second end of the same request changes nothing
    expect(sharedCount(shared)).toBe(1);
    second();
    expect(sharedCount(shared)).toBe(0);
    expect(gate.inFlight).toBe(0);
    // Off (a bound of 0), it still counts: the other thread's gate has a bound of its own.
    const off = foregroundGate({ maxWaitMs: 0, shared });
    const end = off.enter();
    expect(sharedCount(shared)).toBe(1);
    end();
    expect(sharedCount(shared)).toBe(0);
  });

  it('refuses a buffer too small for the count', () => {
    expect(() => foregroundGate({ maxWaitMs: 200, shared: new SharedArrayBuffer(2) })).toThrow(RangeError);
    expect(() => remoteForegroundGate({ maxWaitMs: 200, shared: new SharedArrayBuffer(0) })).toThrow(
      RangeError,
    );
  });
});

describe('remoteForegroundGate in a worker thread, the requests on this one', () => {
  it('lets background work through at once when no request is in flight', async () => {
    const shared = newForegroundBuffer();
    const gate = foregroundGate({ maxWaitMs: 10_000, shared });
    const worker = await gateWorker(shared, 10_000);
    worker.send('yield', 1);
    expect((await worker.reply('outcome', 1)).outcome).toBe('free');
    gate.enter()();
    worker.send('yield', 2);
    expect((await worker.reply('outcome', 2)).outcome).toBe('free');
    expect((await worker.ask('state', 'state')).outcomes).toEqual({
      free: 2,
      foreground_ended: 0,
      bound_reached: 0,
      aborted: 0,
    });
  });

  it('holds a unit while a request is in flight here, and lets it go when the request ends', async () => {
    const shared = newForegroundBuffer();
    const gate = foregroundGate({ maxWaitMs: 10_000, shared });
    const worker = await gateWorker(shared, 10_000);
    const end = gate.enter();
    expect(await worker.ask('yield', 'yielding', 1)).toMatchObject({ waiting: 1, inFlight: 1 });
    // Still waiting a round trip later (an outcome would have come before the answer: messages keep their order).
    expect(await worker.ask('state', 'state')).toMatchObject({ waiting: 1, inFlight: 1 });
    const second = gate.enter();
    end();
    expect(await worker.ask('state', 'state', 2)).toMatchObject({ waiting: 1, inFlight: 1 });
    second();
    const outcome = await worker.reply('outcome', 1);
    expect(outcome.outcome).toBe('foreground_ended');
    expect(outcome.waitedMs).toBeLessThan(10_000);
    expect(await worker.ask('state', 'state', 3)).toMatchObject({ waiting: 0, inFlight: 0 });
  });

  it('lets the waiting units go oldest first', async () => {
    const shared = newForegroundBuffer();
    const gate = foregroundGate({ maxWaitMs: 10_000, shared });
    const worker = await gateWorker(shared, 10_000);
    const end = gate.enter();
    for (const id of [1, 2, 3]) await worker.ask('yield', 'yielding', id);
    const order: number[] = [];
    const outcomes = [1, 2, 3].map((id) =>
      worker.reply('outcome', id).then((reply) => {
        order.push(id);
        return reply.outcome;
      }),
    );
    end();
    expect(await Promise.all(outcomes)).toEqual(['foreground_ended', 'foreground_ended', 'foreground_ended']);
    expect(order).toEqual([1, 2, 3]);
  });

  it('never holds a unit longer than the bound, however long the request lasts', async () => {
    const shared = newForegroundBuffer();
    const gate = foregroundGate({ maxWaitMs: 10_000, shared });
    const worker = await gateWorker(shared, 100);
    const end = gate.enter();
    worker.send('yield', 1);
    const outcome = await worker.reply('outcome', 1);
    expect(outcome.outcome).toBe('bound_reached');
    expect(outcome.waitedMs).toBeGreaterThanOrEqual(95); // timers may fire a rounding early
    expect(await worker.ask('state', 'state')).toMatchObject({ waiting: 0, inFlight: 1 });
    end();
  });

  it('ends a wait when its signal aborts', async () => {
    const shared = newForegroundBuffer();
    const gate = foregroundGate({ maxWaitMs: 10_000, shared });
    const worker = await gateWorker(shared, 10_000);
    const end = gate.enter();
    await worker.ask('yield', 'yielding', 1);
    worker.send('abort', 1);
    expect((await worker.reply('outcome', 1)).outcome).toBe('aborted');
    expect(await worker.ask('state', 'state')).toMatchObject({ waiting: 0, inFlight: 1 });
    end();
  });

  it("counts the worker's own requests in the buffer too", async () => {
    const shared = newForegroundBuffer();
    const worker = await gateWorker(shared, 10_000);
    expect(await worker.ask('enter', 'entered', 1)).toMatchObject({ inFlight: 1 });
    expect(sharedCount(shared)).toBe(1);
    await worker.ask('yield', 'yielding', 2);
    expect(await worker.ask('end', 'ended', 1)).toMatchObject({ inFlight: 0 });
    expect(sharedCount(shared)).toBe(0);
    expect((await worker.reply('outcome', 2)).outcome).toBe('foreground_ended');
  });
});

describe('remoteForegroundGate, the order of the units (both gates on this thread)', () => {
  it('lets the units go one a turn, and a request read in between holds the rest again', async () => {
    const shared = newForegroundBuffer();
    const local = foregroundGate({ maxWaitMs: 60_000, shared });
    const remote = remoteForegroundGate({ maxWaitMs: 60_000, shared });
    const first = local.enter();
    const waits = [remote.yield(), remote.yield(), remote.yield()];
    expect(remote.waiting).toBe(3);
    expect(remote.inFlight).toBe(1);
    first();
    expect(await waits[0]).toBe('foreground_ended');
    const second = local.enter(); // before the next turn
    await nextTurn();
    await nextTurn();
    expect(remote.waiting).toBe(2);
    expect(await state(waits[1] as Promise<YieldOutcome>)).toBe('pending');
    second();
    expect(await Promise.all(waits)).toEqual(['foreground_ended', 'foreground_ended', 'foreground_ended']);
    expect(remote.waiting).toBe(0);
    expect(remote.outcomes).toEqual({ free: 0, foreground_ended: 3, bound_reached: 0, aborted: 0 });
  });

  it('lets the oldest unit go in a gap between two requests, however short', async () => {
    // Searches back to back: the next one is counted before this thread looks at the count again. The local
    // gate lets a unit go when a request ends, before the next is read; the remote one must too, or every unit
    // would wait its whole bound while searches keep coming.
    const shared = newForegroundBuffer();
    const local = foregroundGate({ maxWaitMs: 60_000, shared });
    const remote = remoteForegroundGate({ maxWaitMs: 60_000, shared });
    const first = local.enter();
    const waits = [remote.yield(), remote.yield()];
    first();
    const second = local.enter(); // at once: the count is 1 again when the remote gate wakes
    expect(await waits[0]).toBe('foreground_ended');
    await nextTurn();
    await nextTurn();
    expect(await state(waits[1] as Promise<YieldOutcome>)).toBe('pending');
    second();
    expect(await waits[1]).toBe('foreground_ended');
  });

  it.each([
    {
      gates: 'one local gate',
      make: () => {
        const gate = foregroundGate({ maxWaitMs: 60_000 });
        return { request: gate, background: gate };
      },
    },
    {
      gates: 'a remote gate on a local gate’s buffer',
      make: () => {
        const shared = newForegroundBuffer();
        return {
          request: foregroundGate({ maxWaitMs: 60_000, shared }),
          background: remoteForegroundGate({ maxWaitMs: 60_000, shared }),
        };
      },
    },
  ])(
    'queues a unit that comes while others are still being let go behind them ($gates)',
    async ({ make }) => {
      const { request, background } = make();
      const end = request.enter();
      const order: string[] = [];
      const early = [background.yield(), background.yield()].map((wait, i) =>
        wait.then(() => order.push(`early ${i}`)),
      );
      end();
      const late = background.yield().then((outcome) => {
        order.push('late');
        return outcome;
      });
      expect(await late).toBe('foreground_ended');
      await Promise.all(early);
      expect(order).toEqual(['early 0', 'early 1', 'late']);
    },
  );

  it('never waits with a bound of 0 or a signal already aborted', async () => {
    const shared = newForegroundBuffer();
    const end = foregroundGate({ maxWaitMs: 60_000, shared }).enter();
    expect(await remoteForegroundGate({ maxWaitMs: 0, shared }).yield()).toBe('free');
    const remote = remoteForegroundGate({ maxWaitMs: 60_000, shared });
    expect(await remote.yield(AbortSignal.abort())).toBe('free');
    expect(remote.waiting).toBe(0);
    end();
  });
});
