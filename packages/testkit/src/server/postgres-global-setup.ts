// Vitest's global setup (vitest.config.ts): the tests' PostgreSQL database (PARLEY_TEST_DATABASE_URL) commits
// without waiting for its write-ahead log to reach the disk. A test database needs no durability across a crash of
// its server, and each commit's disk flush was most of what a test's writes waited for (creating a schema and
// migrating it, every row a test writes). Visibility, locking and isolation are unchanged: a commit is seen by every
// other session, process and test exactly as before. Set on the database (`alter database … set`), so it holds for
// every connection the tests and their `parley` processes open to it; new databases a test creates keep the default.
import pg from 'pg';

export default async function setup(): Promise<void> {
  const url = process.env.PARLEY_TEST_DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string }>('select current_database() as name');
    const name = rows[0]?.name;
    if (name)
      await client.query(`alter database ${client.escapeIdentifier(name)} set synchronous_commit = off`);
  } catch (error) {
    // Not the database's owner, or no server: the tests run as they would without this (slower, or skipped).
    console.warn(`the PostgreSQL tests' commits wait for the disk: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
