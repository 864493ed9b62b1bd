import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Type from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingLogger } from '../../../testkit/src/server/recording-logger.js';
import { type Db, openDatabase } from '../db/database.js';
import { jobQueue } from './queue.js';
import { decodePayload, type JobDefinition, jobSet } from './registry.js';

/** The kinds of these tests and their payloads (the app's come from the modules, by declaration merging). */
interface TestPayloads {
  greet: { name: string };
  slow: { ms: number };
  quick: { ms: number };
  soon: Record<string, never>;
  later: Record<string, never>;
}

const Greeting = Type.Object({ name: Type.String({ minLength: 1 }) });
const Wait = Type.Object({ ms: Type.Integer({ minimum: 0 }) });

function definition<P>(
  kind: keyof TestPayloads,
  payload: JobDefinition['payload'],
  run: JobDefinition<P>['run'],
  extra: Partial<JobDefinition<P>> = {},
): JobDefinition<P> {
  return {
    kind,
    payload,
    run,
    timeoutMs: 5_000,
    maxAttempts: 3,
    backoff: { baseMs: 1_000, maxMs: 60_000 },
    ...extra,
  };
}

describe('typed job registry', () => {
  let db: Db;
  let dir: string;
  let now = Date.parse('2026-03-01T00:00:00Z');
  const clock = () => new Date(now);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-registry-'));
    db = await openDatabase({ dataDir: dir });
  });
  afterAll(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('types enqueue by kind: an unknown kind or a payload of the wrong shape does not compile', async () => {
    const q = jobQueue<TestPayloads>(db.kysely, db.dialect, clock);
    const ids = [await q.enqueue('greet', { name: 'Ada' })];
    // @ts-expect-error no such kind
    ids.push(await q.enqueue('shout', { name: 'Ada' }));
    // @ts-expect-error the payload of `greet` has a string name
    ids.push(await q.enqueue('greet', { name: 42 }));
    expect(ids).toHaveLength(3);
    await db.kysely.deleteFrom('jobs').execute();
  });

  it('ends a job whose payload does not match its kind`s schema failed with the reason, unrun and untold', async () => {
    const logger = recordingLogger();
    const q = jobQueue<Record<string, unknown>>(db.kysely, db.dialect, clock, logger);
    let runs = 0;
    let told = 0;
    const greet = definition<{ name: string }>('greet', Greeting, async () => void runs++, {
      onFailed: async () => void told++,
    });
    const id = await q.enqueue('greet', { name: 42 });
    expect(await q.runOne(jobSet(greet))).toBe(true);
    expect(await q.get(id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: "invalid_payload: the payload does not match the job's schema at /name: must be string",
    });
    expect(runs).toBe(0);
    expect(told).toBe(0);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ level: 'error', jobId: id, kind: 'greet', reason: 'invalid_payload' }),
    );
    // A stored payload that is not JSON at all (written by hand) fails the same way.
    const broken = await q.enqueue('greet', { name: 'Ada' });
    await db.kysely.updateTable('jobs').set({ payload: '{oops' }).where('id', '=', broken).execute();
    expect(await q.runOne(jobSet(greet))).toBe(true);
    expect((await q.get(broken))?.last_error).toMatch(/^invalid_payload: the payload is not JSON/);
    expect(runs).toBe(0);
  });

  it('runs a matching payload with a logger carrying the job id and kind', async () => {
    const logger = recordingLogger();
    const q = jobQueue<TestPayloads>(db.kysely, db.dialect, clock, logger);
    const seen: string[] = [];
    const greet = definition<{ name: string }>('greet', Greeting, async (payload, { log }) => {
      seen.push(payload.name);
      log.info({}, 'greeted');
    });
    const id = await q.enqueue('greet', { name: 'Ada' });
    expect(await q.runOne(jobSet(greet))).toBe(true);
    expect(seen).toEqual(['Ada']);
    expect(await q.get(id)).toMatchObject({ status: 'done' });
    expect(logger.lines).toContainEqual({ level: 'info', msg: 'greeted', jobId: id, kind: 'greet' });
  });

  it("waits each kind's own backoff before its next attempt", async () => {
    const q = jobQueue<TestPayloads>(db.kysely, db.dialect, clock);
    const failing = async () => {
      throw new Error('not yet');
    };
    const soon = definition('soon', Type.Object({}), failing, { backoff: { baseMs: 1_000, maxMs: 60_000 } });
    const later = definition('later', Type.Object({}), failing, {
      backoff: { baseMs: 600_000, maxMs: 3_600_000 },
    });
    const soonId = await q.enqueue('soon', {});
    const laterId = await q.enqueue('later', {});
    const jobs = jobSet(soon, later);
    while (await q.runOne(jobs)) {}
    const delay = async (id: string) => Date.parse((await q.get(id))?.run_after ?? '') - now;
    // 50–100 % of the base after a first failure (jitter).
    expect(await delay(soonId)).toBeGreaterThanOrEqual(500);
    expect(await delay(soonId)).toBeLessThanOrEqual(1_000);
    expect(await delay(laterId)).toBeGreaterThanOrEqual(300_000);
    expect(await delay(laterId)).toBeLessThanOrEqual(600_000);
    now += 1_000;
    expect(await q.runOne(jobs)).toBe(true); // `soon` is due again
    expect(await q.runOne(jobs)).toBe(false); // `later` is not
    await db.kysely.deleteFrom('jobs').execute();
  });

  it("bounds each attempt by its kind's own time", async () => {
    const q = jobQueue<TestPayloads>(db.kysely, db.dialect, clock);
    const sleep = async ({ ms }: { ms: number }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
    };
    const slow = definition('slow', Wait, sleep, { timeoutMs: 30, maxAttempts: 1 });
    const quick = definition('quick', Wait, sleep, { timeoutMs: 5_000, maxAttempts: 1 });
    const slowId = await q.enqueue('slow', { ms: 200 });
    const quickId = await q.enqueue('quick', { ms: 200 });
    const jobs = jobSet(slow, quick);
    while (await q.runOne(jobs)) {}
    expect(await q.get(slowId)).toMatchObject({
      status: 'failed',
      last_error: 'timeout: the attempt ran longer than 30 ms',
    });
    expect(await q.get(quickId)).toMatchObject({ status: 'done' });
  });
});

describe('decodePayload', () => {
  it('answers the payload when it matches, or the first place it does not', () => {
    expect(decodePayload({ payload: Greeting }, '{"name":"Ada"}')).toEqual({
      ok: true,
      payload: { name: 'Ada' },
    });
    expect(decodePayload({ payload: Greeting }, 'null')).toEqual({
      ok: false,
      problem: "the payload does not match the job's schema: must be object",
    });
  });
});
