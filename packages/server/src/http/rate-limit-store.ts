import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { type Kysely, sql } from 'kysely';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';

/** How often (at most) a process deletes the rate-limit windows that have ended, in ms. */
export const SWEEP_EVERY_MS = 60_000;
/** At most one "store unreachable" warning per this many ms and process, so an outage does not flood the log. */
const WARN_EVERY_MS = 10_000;

type Incr = Parameters<FastifyRateLimitStore['incr']>;
type ChildOptions = Parameters<FastifyRateLimitStore['child']>[0];

/** One counter of the store: requests in the current window, and the ms until the window ends. */
interface Counted {
  current: number;
  ttl: number;
}

/** Logs "the rate-limit store failed" at most once per WARN_EVERY_MS; requests go through meanwhile. */
function throttledWarning(log: FastifyBaseLogger, what: string): (error: unknown) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (error) => {
    const now = Date.now();
    if (now - last < WARN_EVERY_MS) return;
    last = now;
    log.warn({ err: error }, `rate limit: ${what} does not answer; requests are let through uncounted`);
  };
}

/**
 * The `store` of @fastify/rate-limit on PostgreSQL: one row per key and window in `rate_limits`, counted by
 * one atomic `insert … on conflict … do update … returning` (a fixed window that starts at the key's first
 * request, as the in-memory store's), on the database's clock so that every process agrees. Windows that
 * have ended are deleted by an indexed `delete` at most once a minute per process.
 */
export function postgresRateLimitStore(
  db: Pick<Db, 'kysely'>,
  log: FastifyBaseLogger,
  { prefix = '', sweepEveryMs = SWEEP_EVERY_MS }: { prefix?: string; sweepEveryMs?: number } = {},
): FastifyRateLimitStoreCtor {
  const warn = throttledWarning(log, 'PostgreSQL');
  let lastSweep = sweepEveryMs > 0 ? Date.now() : Number.NEGATIVE_INFINITY;

  async function count(key: string, windowMs: number): Promise<Counted> {
    const { rows } = await sql<{ current: number; ttl: string }>`
      with clock as (select floor(extract(epoch from now()) * 1000)::bigint as now_ms)
      insert into rate_limits as r (key, count, resets_at)
      select ${key}, 1, clock.now_ms + ${windowMs} from clock
      on conflict (key) do update set
        count = case when r.resets_at <= excluded.resets_at - ${windowMs} then 1 else r.count + 1 end,
        resets_at = case when r.resets_at <= excluded.resets_at - ${windowMs} then excluded.resets_at else r.resets_at end
      returning r.count as current,
        r.resets_at - floor(extract(epoch from now()) * 1000)::bigint as ttl`.execute(
      db.kysely as Kysely<unknown>,
    );
    const row = rows[0];
    if (!row) throw new Error('rate limit: the counter upsert returned no row');
    return { current: Number(row.current), ttl: Math.max(0, Number(row.ttl)) };
  }

  function sweep(): void {
    const now = Date.now();
    if (now - lastSweep < sweepEveryMs) return;
    lastSweep = now;
    sql`delete from rate_limits where resets_at <= floor(extract(epoch from now()) * 1000)::bigint`
      .execute(db.kysely as Kysely<unknown>)
      .catch(warn);
  }

  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    incr(...[key, callback, timeWindow]: Incr): void {
      count(`${prefix}${key}`, timeWindow).then(
        (counted) => {
          sweep();
          callback(null, counted);
        },
        (error: unknown) => {
          warn(error);
          callback(error instanceof Error ? error : new Error(String(error)), { current: 0, ttl: 0 });
        },
      );
    }

    /** A route with a limit of its own counts under its method and URL (as the Redis store does). */
    child(routeOptions: ChildOptions): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo;
      const Child = postgresRateLimitStore(db, log, {
        prefix: `${prefix}${route?.method ?? ''}${route?.url ?? ''}-`,
        sweepEveryMs,
      });
      return new Child(routeOptions as FastifyRateLimitOptions);
    }
  };
}

/**
 * A Redis client for the rate limits: commands fail at once while the connection is down (no offline queue,
 * one try, a short connect timeout), so a Redis outage lets requests through rather than holding them.
 */
export async function rateLimitRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const warn = throttledWarning(log, 'Redis');
  // Imported here: a process without PARLEY_REDIS_URL never loads the Redis client.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000,
    commandTimeout: 2000,
    lazyConnect: false,
  });
  redis.on('error', warn);
  return redis;
}

/**
 * Waits until the Redis client is connected, at most `ms`: the first requests then count (commands do not
 * wait for a connection). A Redis that does not answer by then only delays the start; it is logged and retried.
 */
export async function redisReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  let timer: NodeJS.Timeout | undefined;
  let onReady: (() => void) | undefined;
  const ready = await Promise.race([
    new Promise<boolean>((resolve) => {
      onReady = () => resolve(true);
      redis.once('ready', onReady);
    }),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  if (onReady) redis.off('ready', onReady);
  return ready;
}

/** Where the rate limits are counted: Redis when configured, else PostgreSQL, else (SQLite) this process's memory. */
export type RateLimitStoreChoice =
  | { kind: 'redis'; redis: Redis }
  | { kind: 'postgres'; store: FastifyRateLimitStoreCtor }
  | { kind: 'memory' };

/** Picks the rate-limit store for a deployment (see {@link RateLimitStoreChoice}). */
export async function rateLimitStore(
  config: Pick<Config, 'redisUrl'>,
  db: Pick<Db, 'kysely' | 'dialect'>,
  log: FastifyBaseLogger,
): Promise<RateLimitStoreChoice> {
  if (config.redisUrl) return { kind: 'redis', redis: await rateLimitRedis(config.redisUrl, log) };
  if (db.dialect === 'postgres') return { kind: 'postgres', store: postgresRateLimitStore(db, log) };
  return { kind: 'memory' };
}
