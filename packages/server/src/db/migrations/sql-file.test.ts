import { readdirSync, readFileSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrationProvider } from './index.js';
import { executeSqlFile, sqlStatements } from './sql-file.js';

describe('.sql migrations', () => {
  it('are split into statements at each `;` that ends a line, without their comment lines', () => {
    const text =
      "-- a comment; not a statement\ncreate table t (\n  a text default ';'\n);\n\n  -- indented comment\ncreate index i on t (a);";
    expect(sqlStatements(text)).toEqual([
      "create table t (\n  a text default ';'\n)",
      'create index i on t (a)',
    ]);
  });

  it('fail, naming the file, when a migration file is missing', async () => {
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    try {
      await expect(executeSqlFile(db, '9999_missing')).rejects.toThrow(/ENOENT.*9999_missing\.sql/);
    } finally {
      await db.destroy();
    }
  });

  it('are each a listed migration (none lies there unrun), and ship in the server package', async () => {
    const listed = Object.keys(await migrationProvider.getMigrations());
    const files = readdirSync(new URL('./', import.meta.url)).filter((name) => name.endsWith('.sql'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(listed).toContain(file.replace(/\.sql$/, ''));
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      files: string[];
    };
    expect(pkg.files).toContain('src/db/migrations/*.sql');
  });
});
