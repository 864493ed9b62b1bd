// PostgreSQL for tests and benchmarks: the server to use, and databases of their own on it.

import pg from 'pg';

/** The PostgreSQL URL for tests, or undefined (then PostgreSQL tests are skipped with a notice, unless CI requires them). */
export function postgresTestUrl(): string | undefined {
  const url = process.env.PARLEY_TEST_DATABASE_URL;
  if (!url && process.env.PARLEY_REQUIRE_POSTGRES_TESTS === '1') {
    throw new Error(
      'PARLEY_REQUIRE_POSTGRES_TESTS=1 but PARLEY_TEST_DATABASE_URL is not set: PostgreSQL tests must run',
    );
  }
  if (!url) console.warn('PARLEY_TEST_DATABASE_URL is not set: skipping the PostgreSQL tests');
  return url;
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
