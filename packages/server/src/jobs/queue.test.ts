import Type from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresTestUrl } from '../../../testkit/src/server/harness.js';
import { ownDatabase } from '../../../testkit/src/server/own-database.js';
import type { Db } from '../db/database.js';
import { jobQueue, PermanentJobError } from './queue.js';
import type { JobDefinition } from './registry.js';

/** A job of any test kind (the key it is given under in `runOne` is the kind claimed), any payload. */
function handler(run: JobDefinition['run'], extra: Partial<JobDefinition> = {}): JobDefinition {
  return {
    kind: 'test',
    payload: Type.Unknown(),
    backoff: { baseMs: 1000, maxMs: 10_000 },
    run,
    timeoutMs: 5_000,
    maxAttempts: 3,
    ...extra,
  };
}

function runQueueSuite(name: string, open: () => Promise<{ db: Db; close: () => Promise<void> }>) {
  describe(`job queue on ${name}`, () => {
    let db: Db;
    let close: () => Promise<void>;
    let now = Date.parse('2026-01-01T00:00:00Z');
    const clock = () => new Date(now);
    beforeAll(async () => {
      ({ db, close } = await open());
    });
    afterAll(() => close());
    // The queue's own kinds (t1, t2…): any name, any payload.
    const queue = () => jobQueue<Record<string, unknown>>(db.kysely, db.dialect, clock);
    const options = { backoffBaseMs: 1000, backoffMaxMs: 10_000, leaseMs: 30_000 };
    /** Leaves job `id` as a worker that died in its attempt `attempts` would: running, locked by 'dead' until `lockedUntil` (ms). */
    const leftByDeadWorker = (id: string, attempts: number, lockedUntil: number) =>
      db.kysely
        .updateTable('jobs')
        .set({
          status: 'running',
          attempts,
          locked_by: 'dead',
          locked_until: new Date(lockedUntil).toISOString(),
        })
        .where('id', '=', id)
        .execute();

    it('runs a queued job once and marks it done', async () => {
      const seen: unknown[] = [];
      const q = queue();
      const id = await q.enqueue('t1', { n: 1 });
      expect(await q.runOne({ t1: handler(async (p) => void seen.push(p)) }, options)).toBe(true);
      expect(seen).toEqual([{ n: 1 }]);
      expect(await q.get(id)).toMatchObject({ status: 'done', attempts: 1, last_error: null });
      expect(await q.runOne({ t1: handler(async () => undefined) }, options)).toBe(false);
    });

    it('retries a transient failure after a backoff, then succeeds', async () => {
      const q = queue();
      let calls = 0;
      const h = handler(async () => {
        calls += 1;
        if (calls === 1) throw new Error('database busy');
      });
      const id = await q.enqueue('t2', {});
      await q.runOne({ t2: h }, options);
      const after = await q.get(id);
      expect(after).toMatchObject({ status: 'queued', attempts: 1, last_error: 'error: database busy' });
      expect(Date.parse(after?.run_after ?? '')).toBeGreaterThan(now);
      expect(await q.runOne({ t2: h }, options)).toBe(false); // not due yet
      now += 2_000;
      expect(await q.runOne({ t2: h }, options)).toBe(true);
      expect(await q.get(id)).toMatchObject({ status: 'done', attempts: 2 });
    });

    it('ends failed with its reason after the last attempt, and tells the handler once', async () => {
      const q = queue();
      const failures: Array<{ message: string; reason: string }> = [];
      const h = handler(
        async () => {
          throw new Error('still broken');
        },
        { maxAttempts: 2, onFailed: async (_p, e) => void failures.push(e) },
      );
      const id = await q.enqueue('t3', {});
      await q.runOne({ t3: h }, options);
      now += 10_000;
      await q.runOne({ t3: h }, options);
      expect(await q.get(id)).toMatchObject({
        status: 'failed',
        attempts: 2,
        last_error: 'error: still broken',
      });
      expect(failures).toEqual([{ message: 'still broken', reason: 'error' }]);
    });

    it('does not retry a permanent failure', async () => {
      const q = queue();
      const id = await q.enqueue('t4', {});
      await q.runOne(
        {
          t4: handler(async () =>
            Promise.reject(new PermanentJobError('corrupt PDF', 'unreadable_document')),
          ),
        },
        options,
      );
      expect(await q.get(id)).toMatchObject({
        status: 'failed',
        attempts: 1,
        last_error: 'unreadable_document: corrupt PDF',
      });
    });

    it('bounds an attempt in time and counts the overrun as a failure', async () => {
      const q = queue();
      const id = await q.enqueue('t5', {});
      const slow = handler(
        (_p, { signal }) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener('abort', () => reject(signal.reason));
          }),
        { timeoutMs: 50, maxAttempts: 1 },
      );
      await q.runOne({ t5: slow }, options);
      expect(await q.get(id)).toMatchObject({
        status: 'failed',
        last_error: 'timeout: the attempt ran longer than 50 ms',
      });
    });

    it('reclaims a job whose worker died once its lease has run out', async () => {
      const q = queue();
      const id = await q.enqueue('t6', {});
      // A worker claims it and "dies": mark it running with a lease, as a crashed process would leave it.
      await leftByDeadWorker(id, 1, now + 30_000);
      const h = handler(async () => undefined);
      expect(await q.runOne({ t6: h }, options)).toBe(false);
      now += 31_000;
      expect(await q.runOne({ t6: h }, options)).toBe(true);
      expect(await q.get(id)).toMatchObject({ status: 'done', attempts: 2 });
    });

    it('counts an attempt that died with its process: past the last one the job ends failed, unrun', async () => {
      const q = queue();
      const id = await q.enqueue('t6b', { file: 'bomb.xlsx' });
      const failures: Array<{ payload: unknown; error: { message: string; reason: string } }> = [];
      let runs = 0;
      const h = handler(
        async () => {
          runs += 1;
        },
        {
          maxAttempts: 3,
          onFailed: async (payload, error) => void failures.push({ payload, error }),
        },
      );
      // Each attempt kills its process (a document that exhausts memory): the lease runs out, another
      // process reclaims the job, and the same happens again.
      for (let attempt = 1; attempt <= 3; attempt++) {
        await leftByDeadWorker(id, attempt, now - 1);
      }
      // The third attempt died too: the job is not run a fourth time.
      expect(await q.runOne({ t6b: h }, options)).toBe(true);
      expect(runs).toBe(0);
      const job = await q.get(id);
      expect(job).toMatchObject({ status: 'failed', attempts: 3, locked_by: null });
      expect(job?.last_error).toBe(
        'crashed: its last attempt ended with the process that ran it (killed or out of memory), 3 attempts in all',
      );
      expect(failures).toEqual([
        {
          payload: { file: 'bomb.xlsx' },
          error: {
            reason: 'crashed',
            message:
              'its last attempt ended with the process that ran it (killed or out of memory), 3 attempts in all',
          },
        },
      ]);
      expect(await q.runOne({ t6b: h }, options)).toBe(false);
    });

    it('retries an attempt that died with its process while attempts remain', async () => {
      const q = queue();
      const id = await q.enqueue('t6c', {});
      await leftByDeadWorker(id, 2, now - 1);
      let runs = 0;
      expect(
        await q.runOne(
          {
            t6c: handler(
              async () => {
                runs += 1;
              },
              { maxAttempts: 3 },
            ),
          },
          options,
        ),
      ).toBe(true);
      expect(runs).toBe(1);
      expect(await q.get(id)).toMatchObject({ status: 'done', attempts: 3 });
    });

    it('gives a job back untouched when the worker stops during it', async () => {
      const q = queue();
      const id = await q.enqueue('t7', {});
      const stop = new AbortController();
      const h = handler(
        (_p, { signal }) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener('abort', () => reject(new Error('stopped')));
            setTimeout(() => stop.abort(), 10);
          }),
      );
      await q.runOne({ t7: h }, options, stop.signal);
      expect(await q.get(id)).toMatchObject({ status: 'queued', attempts: 0 });
    });

    it('hands each job to exactly one of several concurrent workers', async () => {
      const q = queue();
      const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => q.enqueue('t8', { i })));
      const runs = new Map<number, number>();
      const h = handler(async (p) => {
        const i = (p as { i: number }).i;
        runs.set(i, (runs.get(i) ?? 0) + 1);
      });
      const workers = [queue(), queue(), queue()];
      let progress = true;
      while (progress) {
        const found = await Promise.all(workers.map((w) => w.runOne({ t8: h }, options)));
        progress = found.some(Boolean);
      }
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
      expect(runs.size).toBe(12);
      for (const id of ids) expect((await q.get(id))?.status).toBe('done');
    });
  });
}

runQueueSuite('SQLite', () => ownDatabase('jobs'));

const pgUrl = postgresTestUrl();
if (pgUrl) {
  runQueueSuite('PostgreSQL', () => ownDatabase('jobs', pgUrl));
} else {
  describe.skip('job queue on PostgreSQL (PARLEY_TEST_DATABASE_URL not set)', () => {
    it('runs only with PostgreSQL', () => undefined);
  });
}
