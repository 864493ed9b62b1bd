import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { dropSchema, postgresTestUrl, testServerUrl } from '../../../testkit/src/server/postgres.js';
import { expectError } from '../../../testkit/src/server/wire.js';
import { eventually } from '../../../testkit/src/shared/eventually.js';
import { buildApp, type ParleyApp } from '../app.js';
import { loadConfig } from '../config/config.js';
import { type Db, openDatabase } from '../db/database.js';
import { postgresRateLimitStore, rateLimitRedis } from './rate-limit-store.js';

const MAX = 5;
/**
 * The window: the case that waits for one to end waits this long on each store; still hundreds of times what the
 * MAX + 1 requests of a case take, which must fall in one window.
 */
const WINDOW_MS = 1500;

/** One Parley process as a test sees it: the app and its database. */
interface Process {
  app: ParleyApp;
  db: Db;
  close(): Promise<void>;
}

/** A Parley app limited to MAX requests per WINDOW_MS, behind a trusted proxy (so a test picks its caller's address). */
async function openProcess(env: Record<string, string>, url?: string, pgSchema?: string): Promise<Process> {
  const dataDir = await mkdtemp(join(tmpdir(), 'parley-rate-'));
  const config = loadConfig({
    PARLEY_DATA_DIR: dataDir,
    PARLEY_LOG_LEVEL: 'silent',
    PARLEY_EMBEDDER: 'none',
    PARLEY_TRUST_PROXY: 'true',
    PARLEY_RATE_LIMIT_MAX: String(MAX),
    PARLEY_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
    ...env,
  });
  const db = await openDatabase({ url, dataDir, ...(pgSchema ? { pgSchema } : {}) });
  const app = await buildApp({ config, db, logger: false });
  await app.ready();
  return {
    app,
    db,
    async close() {
      await app.close();
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh caller address, so each case counts on a key of its own (and reruns on a shared Redis do not meet). */
const newAddress = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

/** An anonymous Admin API request from `address` (401 until the limit, then 429). */
const ask = (p: Process, address: string): Promise<LightMyRequestResponse> =>
  p.app.inject({ method: 'GET', url: '/v1/admin/bots', headers: { 'x-forwarded-for': address } });

/** Three processes of one deployment; `shared` when they count in one store. */
interface Deployment {
  processes: Process[];
  shared: boolean;
  /** Makes the store fail for the rest of the suite (the last case). */
  breakStore(): Promise<Process>;
  close(): Promise<void>;
}

/** The same cases on every store: the headers and 429 of one process, and what three processes count together. */
function storeContract(name: string, shared: boolean, open: (() => Promise<Deployment>) | undefined) {
  describe.skipIf(!open)(`the rate limits counted in ${name}`, () => {
    let d: Deployment;
    let p: Process;
    beforeAll(async () => {
      d = await (open as () => Promise<Deployment>)();
      p = d.processes[0] as Process;
    }, 60_000);
    afterAll(() => d?.close());

    it('counts down the RateLimit-* headers, then answers 429 RateLimited with Retry-After', async () => {
      const address = newAddress();
      for (let i = 0; i < MAX; i++) {
        const res = await ask(p, address);
        expectError(res, 401, 'Unauthorized');
        expect(res.headers['ratelimit-limit']).toBe(String(MAX));
        expect(res.headers['ratelimit-remaining']).toBe(String(MAX - 1 - i));
        const reset = Number(res.headers['ratelimit-reset']);
        expect(Number.isInteger(reset)).toBe(true);
        expect(reset).toBeGreaterThanOrEqual(0);
        expect(reset).toBeLessThanOrEqual(WINDOW_MS / 1000 + 1);
      }
      const limited = await ask(p, address);
      const body = expectError(limited, 429, 'RateLimited');
      expect(body.message).toMatch(/rate limit of 5 requests/i);
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(Math.ceil(WINDOW_MS / 1000));
      expect(limited.headers['ratelimit-remaining']).toBe('0');
    });

    it('counts each caller on its own', async () => {
      const spent = newAddress();
      for (let i = 0; i <= MAX; i++) await ask(p, spent);
      expectError(await ask(p, spent), 429, 'RateLimited');
      const other = await ask(p, newAddress());
      expectError(other, 401, 'Unauthorized');
      expect(other.headers['ratelimit-remaining']).toBe(String(MAX - 1));
    });

    it('starts counting again when the window ends', async () => {
      const address = newAddress();
      for (let i = 0; i < MAX; i++) await ask(p, address);
      const limited = await ask(p, address);
      expectError(limited, 429, 'RateLimited');
      // Asked until the window ends: the first answer that is not 429 is the new window's first request.
      let again = limited;
      await eventually(
        async () => {
          again = await ask(p, address);
          return again.statusCode !== 429;
        },
        WINDOW_MS * 4,
        50,
        'the window to end',
      );
      expectError(again, 401, 'Unauthorized');
      expect(again.headers['ratelimit-remaining']).toBe(String(MAX - 1));
    });

    it(
      !shared
        ? 'counts per process: limit + 1 requests spread over three processes all go through'
        : 'counts once for all processes: limit + 1 requests spread over three processes get exactly one 429',
      async () => {
        const address = newAddress();
        const statuses: number[] = [];
        for (let i = 0; i <= MAX; i++) {
          const res = await ask(d.processes[i % 3] as Process, address);
          statuses.push(res.statusCode);
        }
        if (shared) {
          expect(statuses.filter((s) => s === 429)).toHaveLength(1);
          expect(statuses.at(-1)).toBe(429);
        } else {
          expect(statuses.filter((s) => s === 429)).toHaveLength(0);
        }
      },
    );

    it.skipIf(!shared)(
      'lets exactly the limit through when twice the limit arrive at once on three processes',
      async () => {
        const address = newAddress();
        const all = await Promise.all(
          Array.from({ length: 2 * MAX }, (_, i) => ask(d.processes[i % 3] as Process, address)),
        );
        expect(all.filter((res) => res.statusCode === 429)).toHaveLength(MAX);
        const through = all.filter((res) => res.statusCode === 401);
        expect(through.map((res) => res.headers['ratelimit-remaining']).sort()).toEqual([
          '0',
          '1',
          '2',
          '3',
          '4',
        ]);
      },
    );

    it.skipIf(!shared)(
      'lets requests through uncounted, at once, when the store does not answer',
      async () => {
        const broken = await d.breakStore();
        const address = newAddress();
        // From here no timer fires: a request that waited for one (a reconnection, the store's 2 s command
        // or 5 s connect timeout, a retry's delay) would never be answered, and the test's own time ends it.
        vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
        onTestFinished(() => void vi.useRealTimers());
        for (let i = 0; i < MAX + 3; i++) expectError(await ask(broken, address), 401, 'Unauthorized');
      },
    );
  });
}

/** Three SQLite processes, each with its own memory (the single-process deployment, as before). */
storeContract('memory (SQLite)', false, async () => {
  const processes = await Promise.all([openProcess({}), openProcess({}), openProcess({})]);
  return {
    processes,
    shared: false,
    breakStore: () => Promise.reject(new Error('the memory store cannot fail')),
    async close() {
      await Promise.all(processes.map((p) => p.close()));
    },
  };
});

const pgUrl = postgresTestUrl();

/** A fresh schema of the test database, dropped by the answered function. */
function schemaName(): string {
  return `t_rate_${Math.random().toString(36).slice(2, 10)}`;
}

storeContract(
  'PostgreSQL (three processes on one database)',
  true,
  pgUrl
    ? async () => {
        const schema = schemaName();
        const first = await openProcess({}, pgUrl, schema);
        const processes = [first, await openProcess({}, pgUrl, schema), await openProcess({}, pgUrl, schema)];
        return {
          processes,
          shared: true,
          async breakStore() {
            await sql`drop table rate_limits`.execute(first.db.kysely);
            return first;
          },
          async close() {
            await Promise.all(processes.map((p) => p.close()));
            await dropSchema(pgUrl, schema);
          },
        };
      }
    : undefined,
);

const redisUrl = testServerUrl('PARLEY_TEST_REDIS_URL', 'the Redis rate-limit tests');

storeContract(
  'Redis (three SQLite processes, one Redis)',
  true,
  redisUrl
    ? async () => {
        const env = { PARLEY_REDIS_URL: redisUrl };
        const processes = [await openProcess(env), await openProcess(env), await openProcess(env)];
        let broken: Process | undefined;
        return {
          processes,
          shared: true,
          async breakStore() {
            // Nothing listens on port 1: the Redis of this process is down from the start.
            broken = await openProcess({ PARLEY_REDIS_URL: 'redis://127.0.0.1:1' });
            return broken;
          },
          async close() {
            await Promise.all([...processes, ...(broken ? [broken] : [])].map((p) => p.close()));
          },
        };
      }
    : undefined,
);

/** A logger that keeps its warnings. */
function capturingLog(): { log: FastifyBaseLogger; warnings: string[] } {
  const warnings: string[] = [];
  const log = {
    warn: (_obj: unknown, message: string) => void warnings.push(message),
  } as unknown as FastifyBaseLogger;
  return { log, warnings };
}

describe('a rate-limit store that does not answer', () => {
  it('Redis: logs one warning that requests go through uncounted, and fails the count at once', async () => {
    const { log, warnings } = capturingLog();
    const redis = await rateLimitRedis('redis://127.0.0.1:1', log);
    try {
      // Refused at once, not queued until a connection (or the 2 s command timeout) that never comes.
      await expect(redis.incr('parley-rate-limit:probe')).rejects.toThrow(
        "Stream isn't writeable and enableOfflineQueue options is false",
      );
      // Two more failed connection attempts (the client's error events), each a warning if they were not throttled.
      await new Promise<void>((resolve) => {
        let errors = 0;
        redis.on('error', () => {
          errors += 1;
          if (errors === 2) resolve();
        });
      });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/Redis does not answer; requests are let through uncounted/);
    } finally {
      redis.disconnect();
    }
  });

  describe.skipIf(!pgUrl)('PostgreSQL', () => {
    const schema = schemaName();
    let db: Db;
    beforeAll(async () => {
      db = await openDatabase({ url: pgUrl, dataDir: tmpdir(), pgSchema: schema });
    });
    afterAll(async () => {
      await db?.close();
      if (pgUrl) await dropSchema(pgUrl, schema);
    });

    const incr = (store: ReturnType<typeof postgresRateLimitStore>, key: string, windowMs = 1000) =>
      new Promise<{ error: Error | null; result?: { current: number; ttl: number } | undefined }>((resolve) =>
        // biome-ignore lint/suspicious/noExplicitAny: the plugin's options are not needed by this store
        new store({} as any).incr(key, (error, result) => resolve({ error, result }), windowMs, MAX),
      );

    it('counts in the table, then answers an error and logs one warning once the table is gone', async () => {
      const { log, warnings } = capturingLog();
      const store = postgresRateLimitStore(db, log);
      const first = await incr(store, 'k');
      expect(first.error).toBeNull();
      expect(first.result?.current).toBe(1);
      expect(first.result?.ttl).toBeGreaterThan(0);
      expect(first.result?.ttl).toBeLessThanOrEqual(1000);
      expect((await incr(store, 'k')).result?.current).toBe(2);
      await sql`drop table rate_limits`.execute(db.kysely);
      expect((await incr(store, 'k')).error).toBeInstanceOf(Error);
      expect((await incr(store, 'k')).error).toBeInstanceOf(Error);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/PostgreSQL does not answer/);
    });

    it('deletes the windows that have ended, keeping the others', async () => {
      await sql`create table rate_limits (key text primary key, count integer not null, resets_at bigint not null)`.execute(
        db.kysely,
      );
      const { log, warnings } = capturingLog();
      const store = postgresRateLimitStore(db, log, { sweepEveryMs: 0 });
      await incr(store, 'ended', 100);
      // The window ends by the database's clock, the one the store counts and sweeps by.
      await eventually(
        async () => {
          const { rows } = await sql<{ ended: boolean }>`
            select resets_at <= floor(extract(epoch from now()) * 1000)::bigint as ended
            from rate_limits where key = 'ended'`.execute(db.kysely);
          return rows[0]?.ended === true;
        },
        5000,
        20,
        'the 100 ms window to end',
      );
      await incr(store, 'alive', 60_000); // sweeps, in the background, after counting
      const keys = async () =>
        (await sql<{ key: string }>`select key from rate_limits order by key`.execute(db.kysely)).rows.map(
          (r) => r.key,
        );
      await eventually(async () => (await keys()).length === 1, 5000, 20, 'the sweep');
      expect(await keys()).toEqual(['alive']);
      expect(warnings).toEqual([]);
    });
  });
});
