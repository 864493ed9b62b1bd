import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_TABLES, sortedNames } from '../../../testkit/src/server/db-tables.js';
import { postgresTestUrl } from '../../../testkit/src/server/harness.js';
import { dropSchema } from '../../../testkit/src/server/postgres.js';
import { runActivitySuite } from './activity.suite.js';
import { openDatabase } from './database.js';
import { runRepositorySuite } from './repositories.suite.js';

const url = postgresTestUrl();
/** A fresh schema per run, so parallel runs and earlier failures never share tables. */
const schema = `contract_${process.pid}_${Date.now().toString(36)}`;

(url ? describe : describe.skip)('PostgreSQL', () => {
  const databaseUrl = url ?? '';

  afterAll(async () => {
    if (url) await dropSchema(url, schema);
  });

  runRepositorySuite('PostgreSQL', () =>
    openDatabase({ url: databaseUrl, dataDir: tmpdir(), pgSchema: schema }),
  );
  runActivitySuite('PostgreSQL', () =>
    openDatabase({ url: databaseUrl, dataDir: tmpdir(), pgSchema: schema }),
  );

  describe('PostgreSQL database', () => {
    it('outlives its connections being ended by the server (a restart or failover) and reconnects', async () => {
      const db = await openDatabase({ url: databaseUrl, dataDir: tmpdir(), pgSchema: schema });
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      try {
        const errors: Error[] = [];
        db.onConnectionError?.((error) => errors.push(error));
        const before = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely);
        const pid = before.rows[0]?.pid as number;
        // The connection is idle in the pool now; the server ends it, as a restart or failover would.
        await admin.query('select pg_terminate_backend($1)', [pid]);
        await expect.poll(() => errors.length, { timeout: 10_000 }).toBe(1);
        expect(errors[0]?.message).toMatch(/terminat/i);
        const after = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely);
        expect(after.rows[0]?.pid).not.toBe(pid);
        await db.ping();
      } finally {
        await admin.end();
        await db.close();
      }
    });

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

    it('indexes only the messages that answer another (reply_to set)', async () => {
      const db = await openDatabase({ url: databaseUrl, dataDir: tmpdir(), pgSchema: schema });
      try {
        const index = await sql<{ indexdef: string }>`
          select indexdef from pg_indexes where schemaname = ${schema} and indexname = 'chat_messages_reply_to'`.execute(
          db.kysely,
        );
        expect(index.rows[0]?.indexdef).toMatch(/\(bot_id, reply_to\) WHERE \(reply_to IS NOT NULL\)$/);
      } finally {
        await db.close();
      }
    });

    it('introspects only its own schema, so other schemas dropped meanwhile never fail its start', async () => {
      const db = await openDatabase({ url: databaseUrl, dataDir: tmpdir(), pgSchema: schema });
      const churn = new pg.Client({ connectionString: databaseUrl });
      await churn.connect();
      const others = Array.from({ length: 40 }, (_, i) => `${schema}_other_${i}`);
      try {
        const tables = await db.kysely.introspection.getTables({ withInternalKyselyTables: true });
        expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([schema]));
        expect(sortedNames(tables.map((t) => t.name).filter((n) => !n.startsWith('kysely_')))).toEqual(
          sortedNames(APP_TABLES),
        );
        const migrations = tables.find((t) => t.name === 'kysely_migration');
        expect(migrations?.columns.map((c) => [c.name, c.dataType, c.isNullable])).toEqual([
          ['name', 'varchar', false],
          ['timestamp', 'varchar', false],
        ]);
        expect((await db.kysely.introspection.getTables()).some((t) => t.name.startsWith('kysely_'))).toBe(
          false,
        );
        // Other schemas (tests, other apps) come and go while this process introspects and migrates: Kysely's
        // own introspector resolved every schema by name and failed with "schema … does not exist".
        for (const name of others)
          await churn.query(`create schema ${name}; create table ${name}.t (id serial)`);
        let dropping = true;
        const dropper = (async () => {
          for (const name of others) await churn.query(`drop schema ${name} cascade`);
          dropping = false;
        })();
        let rounds = 0;
        while (dropping) {
          await db.kysely.introspection.getTables({ withInternalKyselyTables: true });
          rounds++;
        }
        await dropper;
        expect(rounds).toBeGreaterThan(0);
        const again = await openDatabase({ url: databaseUrl, dataDir: tmpdir(), pgSchema: schema });
        await again.close();
      } finally {
        for (const name of others) await churn.query(`drop schema if exists ${name} cascade`);
        await churn.end();
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
