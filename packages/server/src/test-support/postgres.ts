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

/** The same server URL with another database name. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Runs one statement (create or drop a database) on the server's `postgres` maintenance database. */
export async function onMaintenanceDb(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
