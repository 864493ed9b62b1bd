import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type Driver,
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  type SqliteDatabase,
  SqliteDialect,
  sql,
} from 'kysely';
import type pg from 'pg';
import * as sqliteVec from 'sqlite-vec';
import { createPrivateFile, makePrivateDir } from '../data-dir.js';
import { watchSqliteChanges } from './change-watch.js';
import { runFixedQueriesDirectly } from './fixed-query.js';
import { migrationProvider } from './migrations/index.js';
import { ownSchemaDialect } from './pg-introspector.js';
import type { Database } from './schema.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';

/** Which engine a database runs on. */
export type DialectName = 'sqlite' | 'postgres';

/** An open database: the Kysely handle plus what callers need to know about it. */
export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** Checks that the database answers (readiness). */
  ping(): Promise<void>;
  /** Closes every connection. */
  close(): Promise<void>;
  /**
   * What it was opened with ({@link openDatabase}): another thread opens a connection of its own to the same
   * database with them. Undefined for a handle made otherwise.
   */
  opened?: OpenDatabaseOptions;
  /** Cross-process notifications (PostgreSQL LISTEN/NOTIFY); undefined on SQLite, where one process owns the file. */
  notifications?: Notifications;
  /**
   * Whether this handle's SQLite connection is inside a transaction now (a job it enqueued there cannot yet be
   * claimed through another connection); undefined on PostgreSQL.
   */
  inTransaction?: () => boolean;
  /** The connection pool's use now (PostgreSQL, for metrics); undefined on SQLite's one connection. */
  poolUse?: () => { total: number; idle: number; waiting: number };
  /**
   * Where a pooled connection's failure while idle goes (PostgreSQL: the server restarted, failed over or
   * ended the session); the pool drops that connection and opens a new one on next use. Until set, a
   * process warning.
   */
  onConnectionError?: (listener: (error: Error) => void) => void;
}

/**
 * Notifications between the processes sharing one PostgreSQL database. Channels are namespaced by the
 * schema, so deployments (or tests) sharing a database in different schemas never hear each other.
 */
export interface Notifications {
  /**
   * Sends `payload` (at most ~7 KB) to every listener of `channel`, in every process; with `within` (a
   * transaction), sent in it, so it is delivered only if and when that transaction commits.
   */
  notify(channel: string, payload: string, within?: Kysely<Database>): Promise<void>;
  /**
   * Calls `handler` with each payload sent on `channel`; with `null` after the listening connection was
   * lost and re-established (notifications may have been missed: catch up from the data). Answers the unlisten.
   */
  listen(channel: string, handler: (payload: string | null) => void): Promise<() => Promise<void>>;
}

/** Where to open the database. */
export interface OpenDatabaseOptions {
  /** `postgres://…` for PostgreSQL; undefined for the SQLite file `<dataDir>/parley.db`. */
  url?: string | undefined;
  dataDir: string;
  /** PostgreSQL schema to use (tests isolate themselves in one); created when missing. */
  pgSchema?: string;
  /** SQLite file name inside dataDir, or ':memory:'. */
  sqliteFile?: string;
}

/** Opens the database and brings its schema up to date. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Db> {
  const db = options.url ? await openPostgres(options.url, options.pgSchema) : openSqlite(options);
  try {
    await migrate(db.kysely);
  } catch (error) {
    await db.close();
    throw error;
  }
  return { ...db, opened: { ...options } };
}

/**
 * The `Db` of an open Kysely handle: `ping` asks for `select 1`; `close` first closes what else the handle came
 * with (`before`), then the handle's connections.
 */
export function dbOver(kysely: Kysely<Database>, dialect: DialectName, before?: () => Promise<void>): Db {
  return {
    kysely,
    dialect,
    async ping() {
      await sql`select 1`.execute(kysely);
    },
    async close() {
      await before?.();
      await kysely.destroy();
    },
  };
}

/** Prepared statements kept per SQL text, most recently used first. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The database as Kysely's SQLite dialect sees it, with its prepared statements cached by SQL text: Kysely
 * prepares every query anew, and preparing was ~5% of indexing's main thread. Safe because the dialect
 * runs one query at a time on its single connection; a statement still being iterated (a streamed query)
 * is not shared, and SQLite re-prepares a cached statement itself after a schema change.
 */
export function cachedStatements(db: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  // Each entry carries the tick of its last use: a hit only stamps it (moving it to the end of the map's
  // order, a delete and a set, cost a chat message's seven statements a visible share of its path), and the
  // least recently used entry is looked for only when a new text overflows the cache.
  const cache = new Map<string, { statement: SQLite.Statement; used: number }>();
  let tick = 0;
  const evictLeastRecentlyUsed = () => {
    let oldest: string | undefined;
    let oldestUse = Number.POSITIVE_INFINITY;
    for (const [text, entry] of cache) {
      if (entry.used < oldestUse) {
        oldest = text;
        oldestUse = entry.used;
      }
    }
    if (oldest !== undefined) cache.delete(oldest);
  };
  return {
    close: () => {
      cache.clear();
      db.close();
    },
    prepare(text: string) {
      const cached = cache.get(text);
      tick += 1;
      if (cached !== undefined && !cached.statement.busy) {
        cached.used = tick;
        return cached.statement;
      }
      const statement = db.prepare(text);
      if (cached === undefined) {
        cache.set(text, { statement, used: tick });
        if (cache.size > size) evictLeastRecentlyUsed();
      }
      return statement;
    },
  };
}

/**
 * SQLite's dialect with every transaction begun `immediate`: it takes the write lock when it begins, waiting
 * (`busy_timeout`) for another connection's write to end. A deferred `begin` (Kysely's) that reads and then
 * writes fails at once with SQLITE_BUSY when another connection (the background thread's, the CLI's) committed
 * after its first read; the busy timeout does not apply to that case.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

function openSqlite(options: OpenDatabaseOptions): Db {
  const file = options.sqliteFile ?? 'parley.db';
  let path = file;
  if (file !== ':memory:') {
    makePrivateDir(options.dataDir);
    path = join(options.dataDir, file);
    // Created 0600 before SQLite opens it: its -wal and -shm files get the same mode.
    createPrivateFile(path);
  }
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // sqlite-vec (vec0 vectors of the passage index): every connection needs it, since deleting a passage
  // (even by cascade from its file) also deletes its vector through a trigger on the vec0 table.
  sqliteVec.load(sqlite);
  // WAL checkpoints in a worker thread, not inside a commit (see SqliteCheckpointer).
  const checkpointer = file === ':memory:' ? undefined : new SqliteCheckpointer(sqlite, path);
  const statements = cachedStatements(sqlite);
  const kysely = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: statements }) });
  runFixedQueriesDirectly(kysely, {
    prepare: (text) => statements.prepare(text),
    get inTransaction() {
      return sqlite.inTransaction;
    },
  });
  // What tells the caches of rows read on every request (tokens, bots) that they changed: see WatchedCache.
  watchSqliteChanges(kysely, sqlite);
  return {
    ...dbOver(kysely, 'sqlite', async () => {
      await checkpointer?.close();
    }),
    inTransaction: () => sqlite.inTransaction,
  };
}

async function openPostgres(url: string, schema: string | undefined): Promise<Db> {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema))
    throw new Error(`invalid schema name ${schema}`);
  // Imported here: a process on SQLite never loads the PostgreSQL driver.
  const { default: pg } = await import('pg');
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // bigint (int8) columns and count(*) arrive as numbers: sizes stay far below 2^53.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle connection the server ends (a restart, a failover, pg_terminate_backend) makes the pool emit
  // `error`: unheard, that event would end the process.
  let connectionError = (error: Error) =>
    process.emitWarning(`a PostgreSQL connection failed while idle: ${error.message}`, 'ParleyDatabase');
  pool.on('error', (error) => connectionError(error));
  const kysely = new Kysely<Database>({ dialect: ownSchemaDialect(new PostgresDialect({ pool })) });
  const notifications = postgresNotifications(url, schema ?? 'public', pool, pg.Client);
  return {
    ...dbOver(kysely, 'postgres', () => notifications.close()),
    notifications,
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    onConnectionError(listener) {
      connectionError = listener;
    },
  };
}

/** LISTEN/NOTIFY over one dedicated connection per process, re-established (and re-LISTENed) when lost. */
function postgresNotifications(
  url: string,
  schema: string,
  pool: pg.Pool,
  Client: typeof pg.Client,
): Notifications & { close(): Promise<void> } {
  const handlers = new Map<string, Set<(payload: string | null) => void>>();
  const fullName = (channel: string) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
    return `${channel}__${schema}`.slice(0, 63);
  };
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;

  function connect(): Promise<pg.Client> {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const c = new Client({ connectionString: url });
      c.on('notification', (msg) => {
        for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
      });
      const lost = () => {
        if (client !== c) return;
        client = undefined;
        if (closed || handlers.size === 0) return;
        // Reconnect, re-LISTEN, then tell every handler it may have missed notifications.
        setTimeout(() => {
          void connect()
            .then(() => {
              for (const set of handlers.values()) for (const h of set) h(null);
            })
            .catch(() => lost());
        }, 500).unref();
      };
      c.on('error', lost);
      c.on('end', lost);
      await c.connect();
      for (const name of handlers.keys()) await c.query(`listen "${name}"`);
      client = c;
      return c;
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  return {
    async notify(channel, payload, within) {
      if (within) await sql`select pg_notify(${fullName(channel)}, ${payload})`.execute(within);
      else await pool.query('select pg_notify($1, $2)', [fullName(channel), payload]);
    },
    async listen(channel, handler) {
      const name = fullName(channel);
      let set = handlers.get(name);
      const fresh = !set;
      if (!set) {
        set = new Set();
        handlers.set(name, set);
      }
      set.add(handler);
      const c = await connect();
      if (fresh) await c.query(`listen "${name}"`);
      return async () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(name) === set) {
          handlers.delete(name);
          await client?.query(`unlisten "${name}"`).catch(() => undefined);
        }
      };
    },
    async close() {
      closed = true;
      handlers.clear();
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}

/** Applies every pending migration; throws with the failing migration's error. */
export async function migrate(kysely: Kysely<Database>): Promise<void> {
  // On PostgreSQL, Kysely looks for its migration tables in every schema unless told which one, so a
  // kysely_migration_lock in another schema (another app, another Parley, a test) was taken for ours.
  const schema =
    kysely.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(kysely)).rows[0]?.s
      : undefined;
  const migrator = new Migrator({
    db: kysely,
    provider: migrationProvider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, {
      cause: error,
    });
  }
}

/** True when `error` is a unique-constraint violation on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown };
  return (
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e.code === '23505'
  );
}
