import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_TABLES, sortedNames } from '../test-support/db-tables.js';
import { postgresTestUrl } from '../test-support/harness.js';
import { runActivityContract } from './activity.contract.js';
import { openDatabase } from './database.js';
import { runRepositoryContract } from './repositories.contract.js';

const url = postgresTestUrl();
/** A fresh schema per run, so parallel runs and earlier failures never share tables. */
const schema = `contract_${process.pid}_${Date.now().toString(36)}`;

async function dropSchema(connectionString: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${name} cascade`);
  } finally {
    await client.end();
  }
}

(url ? describe : describe.skip)('PostgreSQL', () => {
  const databaseUrl = url ?? '';

  afterAll(async () => {
    if (url) await dropSchema(url, schema);
  });

  runRepositoryContract('PostgreSQL', () =>
    openDatabase({ url: databaseUrl, dataDir: tmpdir(), pgSchema: schema }),
  );
  runActivityContract('PostgreSQL', () =>
    openDatabase({ url: databaseUrl, dataDir: tmpdir(), pgSchema: schema }),
  );

  describe('PostgreSQL database', () => {
    it('keeps its tables inside the schema it was given', async () => {
      const db = await openDatabase({ url: databaseUrl, dataDir: tmpdir(), pgSchema: schema });
      try {
        expect(db.dialect).toBe('postgres');
        const current = await sql<{ s: string }>`select current_schema() as s`.execute(db.kysely);
        expect(current.rows).toEqual([{ s: schema }]);
        const tables = await sql<{ table_name: string }>`
          select table_name from information_schema.tables
          where table_schema = ${schema} and table_name not like 'kysely_%' order by table_name`.execute(
          db.kysely,
        );
        expect(tables.rows.map((t) => t.table_name)).toEqual(sortedNames(APP_TABLES));
      } finally {
        await db.close();
      }
    });

    it('refuses a schema name that is not a plain identifier', async () => {
      await expect(
        openDatabase({ url: databaseUrl, dataDir: tmpdir(), pgSchema: 'x; drop table accounts' }),
      ).rejects.toThrow('invalid schema name x; drop table accounts');
    });
  });
});
