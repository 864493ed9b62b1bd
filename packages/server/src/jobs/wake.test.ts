import Type from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownDatabase } from '../../../testkit/src/server/own-database.js';
import { postgresTestUrl } from '../../../testkit/src/server/postgres.js';
import { recordingLogger } from '../../../testkit/src/server/recording-logger.js';
import type { Db } from '../db/database.js';
import { type JobQueue, jobQueue } from './queue.js';
import type { JobDefinition } from './registry.js';
import { jobRunner } from './runner.js';

/** Longer than any test waits: a job seen only by polling would time the test out. */
const POLL_MS = 600_000;

/** A job of kind `kind` that tells `ran` with its payload. */
function job(kind: string, ran: (payload: unknown) => void): JobDefinition {
  return {
    kind,
    payload: Type.Unknown(),
    backoff: { baseMs: 1_000, maxMs: 1_000 },
    run: async (payload) => ran(payload),
    timeoutMs: 5_000,
    maxAttempts: 1,
  };
}

/** A promise and its resolve. */
function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * A started runner over `queue` with one pool of `kinds` (one worker, polling every {@link POLL_MS}); resolves
 * once its worker has looked for work, found none and gone to sleep. `ran` gets each job's payload.
 */
async function sleepingWorker(queue: JobQueue, kinds: string[], ran: (payload: unknown) => void) {
  const idle = signal();
  const watched: JobQueue = {
    ...queue,
    async runOne(jobs, options, stop) {
      const found = await queue.runOne(jobs, options, stop);
      if (!found) idle.resolve();
      return found;
    },
  };
  const runner = jobRunner({ queue: watched, clock: () => new Date(), logger: recordingLogger() });
  runner.workers({
    name: 'test',
    jobs: kinds.map((kind) => job(kind, ran)),
    concurrency: 1,
    pollMs: POLL_MS,
  });
  const stop = runner.start();
  await idle.promise;
  return stop;
}

function runWakeSuite(name: string, open: () => Promise<{ db: Db; second: Db; close: () => Promise<void> }>) {
  describe(`idle workers woken by an enqueued job on ${name}`, () => {
    let db: Db;
    let second: Db;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ db, second, close } = await open());
    });
    afterAll(() => close());
    // The test's own kinds (wake_a, wake_b…): any name, any payload.
    const queueOf = (d: Db) =>
      jobQueue<Record<string, unknown>>(d.kysely, d.dialect, undefined, undefined, d.notifications);

    it('runs a job enqueued while its worker sleeps at once, not at the next poll', async () => {
      const ran = signal<unknown>();
      const stop = await sleepingWorker(queueOf(db) as unknown as JobQueue, ['wake_a'], ran.resolve);
      try {
        await queueOf(db).enqueue('wake_a', { n: 1 });
        expect(await ran.promise).toEqual({ n: 1 });
      } finally {
        await stop();
      }
    });

    it('wakes the worker for a job enqueued in a transaction only once it committed, and it finds the job', async () => {
      const ran = signal<unknown>();
      let committed = false;
      const stop = await sleepingWorker(queueOf(db) as unknown as JobQueue, ['wake_b'], (payload) => {
        ran.resolve({ payload, committed });
      });
      try {
        const queue = queueOf(db);
        await db.kysely.transaction().execute(async (tx) => {
          await queue.enqueue('wake_b', { n: 2 }, { tx });
          // Still in the transaction: another write after the enqueue, and a turn of the event loop.
          await new Promise((resolve) => setImmediate(resolve));
          await tx.selectFrom('jobs').select('id').execute();
          // The callback's end: only the COMMIT follows. (Set after the commit resolves, it raced the woken worker,
          // which can run the committed job before this side hears the commit's reply.)
          committed = true;
        });
        expect(await ran.promise).toEqual({ payload: { n: 2 }, committed: true });
      } finally {
        await stop();
      }
    });

    it('announces a job due now by its kind, and not a job due later', async () => {
      const queue = queueOf(db);
      const heard: string[] = [];
      const now = signal();
      const unsubscribe = queue.onEnqueued?.((kind) => {
        if (kind !== null) heard.push(kind);
        if (kind === 'wake_now') now.resolve();
      });
      try {
        await queue.enqueue('wake_later', {}, { runAfter: new Date(Date.now() + 3_600_000) });
        await queue.enqueue('wake_now', {});
        await now.promise;
        expect(heard).toEqual(['wake_now']);
      } finally {
        unsubscribe?.();
      }
    });

    if (name === 'PostgreSQL') {
      it("wakes another process's sleeping worker (its own connection) once the enqueuing transaction commits", async () => {
        const ran = signal<unknown>();
        const stop = await sleepingWorker(queueOf(second) as unknown as JobQueue, ['wake_d'], ran.resolve);
        try {
          await db.kysely.transaction().execute(async (tx) => {
            await queueOf(db).enqueue('wake_d', { from: 'first' }, { tx });
          });
          expect(await ran.promise).toEqual({ from: 'first' });
        } finally {
          await stop();
        }
      });
    }
  });
}

describe('which pools an enqueued job wakes', () => {
  it('wakes the pool that runs its kind, every pool when some may have been missed, and no other', async () => {
    let tell: (kind: string | null) => void = () => undefined;
    const looked: string[] = [];
    const looking = new Set<() => void>();
    const queue = {
      workerId: 'w_test',
      enqueue: async () => 'job_x',
      get: async () => undefined,
      runOne: async (jobs: Record<string, unknown>) => {
        looked.push(Object.keys(jobs).join());
        for (const seen of looking) seen();
        return false;
      },
      onEnqueued(listener: (kind: string | null) => void) {
        tell = listener;
        return () => undefined;
      },
    } as unknown as JobQueue;
    /** Resolves once `n` more looks for work were made. */
    const looks = (n: number) => {
      const target = looked.length + n;
      const done = signal();
      const check = () => {
        if (looked.length >= target) {
          looking.delete(check);
          done.resolve();
        }
      };
      looking.add(check);
      return done.promise;
    };
    const runner = jobRunner({ queue, clock: () => new Date(), logger: recordingLogger() });
    for (const kind of ['a', 'b'])
      runner.workers({ name: kind, jobs: [job(kind, () => undefined)], concurrency: 1, pollMs: POLL_MS });
    const started = looks(2);
    const stop = runner.start();
    try {
      await started;
      const phase = () => looked.splice(0).sort();
      expect(phase()).toEqual(['a', 'b']);
      const first = looks(1);
      tell('b');
      await first;
      expect(phase()).toEqual(['b']);
      const second = looks(2);
      tell(null);
      await second;
      expect(phase()).toEqual(['a', 'b']);
      // 'c' is no pool's: only the 'a' told after it is looked for, by pool a alone.
      const third = looks(1);
      tell('c');
      tell('a');
      await third;
      expect(phase()).toEqual(['a']);
    } finally {
      await stop();
    }
  });
});

describe('how many idle workers of a pool an enqueued job wakes', () => {
  it('wakes one for a job of its kind (the others would claim in vain), every one when some may have been missed', async () => {
    let tell: (kind: string | null) => void = () => undefined;
    let looks = 0;
    let onLook: () => void = () => undefined;
    const queue = {
      workerId: 'w_test',
      enqueue: async () => 'job_x',
      get: async () => undefined,
      runOne: async () => {
        looks++;
        onLook();
        return false;
      },
      onEnqueued(listener: (kind: string | null) => void) {
        tell = listener;
        return () => undefined;
      },
    } as unknown as JobQueue;
    /** Resolves once the looks reach `n`. */
    const until = (n: number) =>
      new Promise<void>((resolve) => {
        onLook = () => {
          if (looks >= n) resolve();
        };
        onLook();
      });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
    const runner = jobRunner({ queue, clock: () => new Date(), logger: recordingLogger() });
    runner.workers({ name: 'a', jobs: [job('a', () => undefined)], concurrency: 3, pollMs: POLL_MS });
    const stop = runner.start();
    try {
      await until(3);
      await settle();
      tell('a');
      await until(4);
      await settle();
      expect(looks).toBe(4);
      tell('a');
      tell('a');
      await until(6);
      await settle();
      expect(looks).toBe(6);
      tell(null);
      await until(9);
      await settle();
      expect(looks).toBe(9);
    } finally {
      await stop();
    }
  });
});

runWakeSuite('SQLite', async () => {
  const own = await ownDatabase('wake');
  return { ...own, second: own.db };
});

const pgUrl = postgresTestUrl();
if (pgUrl) {
  runWakeSuite('PostgreSQL', async () => {
    const own = await ownDatabase('wake', pgUrl);
    const second = await own.another();
    return {
      db: own.db,
      second,
      close: async () => {
        await second.close();
        await own.close();
      },
    };
  });
} else {
  describe.skip('idle workers woken on PostgreSQL (PARLEY_TEST_DATABASE_URL not set)', () => {
    it('runs only with PostgreSQL', () => undefined);
  });
}
