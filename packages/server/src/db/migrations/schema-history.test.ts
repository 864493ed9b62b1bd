import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema, postgresTestUrl } from '../../../../testkit/src/server/postgres.js';
import { migrationProvider } from './index.js';

// The schema each migration leaves, on both engines, as committed in schema-history.*.txt: a released migration
// must never change what it made (databases migrated by an older Parley have it already and never run it again),
// so an edit to one shows here as a changed line under its name. A new migration adds its own section: run
// `npx vitest run packages/server/src/db/migrations/schema-history.test.ts -u` (with PARLEY_TEST_DATABASE_URL
// set, for the PostgreSQL file too) and review the lines it adds.

/** One line per column, key, index, view and trigger, in a stable order. */
type Describe = (db: Kysely<unknown>) => Promise<string[]>;

/** SQL text without its quoting and spacing, so `create index "a" on "t" ("c")` and `create index a on t(c)` agree. */
const normalized = (text: string | null) =>
  (text ?? '')
    .toLowerCase()
    .replaceAll('"', '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([(),=|])\s*/g, '$1')
    .trim();

const describeSqlite: Describe = async (db) => {
  const lines: string[] = [];
  const rows = async <T>(query: string) => (await sql.raw<T>(query).execute(db)).rows;
  const objects = await rows<{ type: string; name: string; tbl_name: string; sql: string | null }>(
    `select type, name, tbl_name, sql from sqlite_master
     where name not like 'sqlite_stat%' and tbl_name not like 'kysely_%' order by type, name`,
  );
  for (const o of objects) {
    if (o.type !== 'table') {
      lines.push(`${o.type} ${o.name} on ${o.tbl_name}: ${normalized(o.sql) || '(automatic)'}`);
      continue;
    }
    if (/virtual table/i.test(o.sql ?? '')) lines.push(`table ${o.name}: ${normalized(o.sql)}`);
    const pragma = <T>(name: string, argument = o.name) => rows<T>(`pragma ${name}("${argument}")`);
    for (const c of await pragma<Record<string, unknown>>('table_xinfo'))
      lines.push(
        `table ${o.name} column ${c.cid} ${c.name} ${c.type} notnull=${c.notnull} default=${c.dflt_value} pk=${c.pk} hidden=${c.hidden}`,
      );
    for (const k of await pragma<Record<string, unknown>>('foreign_key_list'))
      lines.push(
        `table ${o.name} foreign key ${k.id}.${k.seq} ${k.from} -> ${k.table}(${k.to}) on update ${k.on_update} on delete ${k.on_delete}`,
      );
    for (const i of await pragma<{ name: string; unique: number; origin: string; partial: number }>(
      'index_list',
    )) {
      const columns = await pragma<{ name: string | null; desc: number; key: number }>('index_xinfo', i.name);
      const keys = columns.filter((c) => c.key === 1).map((c) => `${c.name}${c.desc ? ' desc' : ''}`);
      lines.push(
        `table ${o.name} index ${i.name} unique=${i.unique} origin=${i.origin} partial=${i.partial} (${keys.join(', ')})`,
      );
    }
  }
  return lines;
};

const describePostgres: Describe = async (db) => {
  const lines: string[] = [];
  const columns = await sql<Record<string, unknown>>`
    select table_name, ordinal_position, column_name, data_type, is_nullable, column_default, is_identity,
      identity_generation
    from information_schema.columns where table_schema = current_schema() and table_name not like 'kysely_%'
    order by table_name, ordinal_position`.execute(db);
  for (const c of columns.rows)
    lines.push(
      `table ${c.table_name} column ${c.ordinal_position} ${c.column_name} ${c.data_type} nullable=${c.is_nullable} default=${c.column_default} identity=${c.is_identity}/${c.identity_generation}`,
    );
  const constraints = await sql<{ table: string; name: string; definition: string }>`
    select t.relname as table, c.conname as name, pg_get_constraintdef(c.oid) as definition
    from pg_constraint c join pg_class t on t.oid = c.conrelid
    where t.relnamespace = current_schema()::regnamespace and t.relname not like 'kysely_%'
    order by t.relname, c.conname`.execute(db);
  for (const c of constraints.rows) lines.push(`table ${c.table} constraint ${c.name}: ${c.definition}`);
  const indexes = await sql<{ table: string; name: string; definition: string }>`
    select tablename as table, indexname as name, replace(indexdef, current_schema() || '.', '') as definition
    from pg_indexes where schemaname = current_schema() and tablename not like 'kysely_%'
    order by tablename, indexname`.execute(db);
  for (const i of indexes.rows) lines.push(`table ${i.table} index ${i.name}: ${i.definition}`);
  const others = await sql<{ kind: string; name: string; definition: string }>`
    select 'view' as kind, viewname as name, definition from pg_views where schemaname = current_schema()
    union all
    select 'trigger', trigger_name || ' on ' || event_object_table, action_statement
    from information_schema.triggers where trigger_schema = current_schema()
    union all
    select 'function', p.proname, pg_get_functiondef(p.oid)
    from pg_proc p where p.pronamespace = current_schema()::regnamespace
    order by 1, 2`.execute(db);
  for (const o of others.rows) lines.push(`${o.kind} ${o.name}: ${normalized(o.definition)}`);
  return lines;
};

/** Runs the migrations one at a time, and writes what each one added to and took from the schema. */
async function history(db: Kysely<unknown>, describeSchema: Describe, migrator: Migrator): Promise<string> {
  const out: string[] = [];
  let before = new Set<string>();
  for (;;) {
    const { error, results } = await migrator.migrateUp();
    if (error) throw error;
    const name = results?.[0]?.migrationName;
    if (name === undefined) break;
    const after = new Set(await describeSchema(db));
    out.push(`== ${name}`);
    for (const line of before) if (!after.has(line)) out.push(`- ${line}`);
    for (const line of after) if (!before.has(line)) out.push(`+ ${line}`);
    before = after;
  }
  return `${out.join('\n')}\n`;
}

describe('the schema each migration leaves', () => {
  it('on SQLite, is the committed one', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      await expect(history(db, describeSqlite, migrator)).resolves.toMatchFileSnapshot(
        'schema-history.sqlite.txt',
      );
    } finally {
      await db.destroy();
    }
  });

  const url = postgresTestUrl();
  const schema = `schema_history_${process.pid}_${Date.now().toString(36)}`;
  afterAll(async () => {
    if (url) await dropSchema(url, schema);
  });

  // A migrator run per migration, each taking the lock and reading the catalogue: seconds, or a minute when loaded.
  it.skipIf(!url)('on PostgreSQL, is the committed one', { timeout: 120_000 }, async () => {
    const run = async (): Promise<string> => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin
        .query(`drop schema if exists ${schema} cascade; create schema ${schema}`)
        .finally(() => admin.end());
      const pool = new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}` });
      const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
      try {
        const migrator = new Migrator({ db, provider: migrationProvider, migrationTableSchema: schema });
        return await history(db, describePostgres, migrator);
      } finally {
        await db.destroy();
      }
    };
    // Kysely's Migrator reads the tables of every schema of the database; another test file dropping its own
    // schema at that moment fails the read ("schema ... does not exist", 3F000): once more from the start then.
    const othersDropped = (error: unknown) =>
      (error as { code?: string }).code === '3F000' && !String(error).includes(schema);
    const text = await run().catch((error: unknown) => {
      if (othersDropped(error)) return run();
      throw error;
    });
    await expect(text).toMatchFileSnapshot('schema-history.postgres.txt');
  });
});
