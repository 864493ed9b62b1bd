// PostgreSQL for tests and benchmarks: the server to use, and databases of their own on it.

import pg from 'pg';

/**
 * The URL of a server the tests use, from the environment `variable`, or undefined: then `tests` are skipped
 * with a notice, unless CI requires them (PARLEY_REQUIRE_POSTGRES_TESTS=1, which also requires Redis).
 */
export function testServerUrl(variable: string, tests: string): string | undefined {
  const url = process.env[variable];
  if (!url && process.env.PARLEY_REQUIRE_POSTGRES_TESTS === '1')
    throw new Error(`PARLEY_REQUIRE_POSTGRES_TESTS=1 but ${variable} is not set: ${tests} must run`);
  if (!url) console.warn(`${variable} is not set: skipping ${tests}`);
  return url;
}

/** The PostgreSQL URL for tests, or undefined (then PostgreSQL tests are skipped with a notice, unless CI requires them). */
export function postgresTestUrl(): string | undefined {
  return testServerUrl('PARLEY_TEST_DATABASE_URL', 'the PostgreSQL tests');
}

export { onMaintenanceDb, withDatabase } from '../../../server/src/db/postgres-maintenance.js';

/** Drops a test's own schema (and everything in it) from the PostgreSQL at `url`. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

/** A database the tests run on: its name for test titles and its URL (undefined: SQLite in a temporary folder). */
export interface TestDatabase {
  name: 'SQLite' | 'PostgreSQL';
  url: string | undefined;
}

/**
 * The databases a test runs on: SQLite, and PostgreSQL when PARLEY_TEST_DATABASE_URL is set (see postgresTestUrl).
 * @example describe.each(testDatabases())('bots ($name)', ({ url }) => { const t = useTestApp(url ? { databaseUrl: url } : {}); })
 */
export function testDatabases(): TestDatabase[] {
  const url = postgresTestUrl();
  return [{ name: 'SQLite', url: undefined }, ...(url ? [{ name: 'PostgreSQL' as const, url }] : [])];
}
