// Databases of their own on a PostgreSQL server, for the tests (packages/testkit/src/server/postgres.ts) and the benchmarks: a
// database URL with another name, and a statement on the server's maintenance database (create or drop one).
import pg from 'pg';

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
