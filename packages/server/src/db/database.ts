import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import * as sqliteVec from 'sqlite-vec';
import { migrationProvider } from './migrations.js';
import type { Database } from './schema.js';

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
  return db;
}

function openSqlite(options: OpenDatabaseOptions): Db {
  const file = options.sqliteFile ?? 'parley.db';
  let path = file;
  if (file !== ':memory:') {
    mkdirSync(options.dataDir, { recursive: true });
    path = join(options.dataDir, file);
  }
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // sqlite-vec (vec0 vectors of the passage index): every connection needs it, since deleting a passage
  // (even by cascade from its file) also deletes its vector through a trigger on the vec0 table.
  sqliteVec.load(sqlite);
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    kysely,
    dialect: 'sqlite',
    async ping() {
      await sql`select 1`.execute(kysely);
    },
    async close() {
      await kysely.destroy();
    },
  };
}

async function openPostgres(url: string, schema: string | undefined): Promise<Db> {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema))
    throw new Error(`invalid schema name ${schema}`);
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
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kysely,
    dialect: 'postgres',
    async ping() {
      await sql`select 1`.execute(kysely);
    },
    async close() {
      await kysely.destroy();
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
