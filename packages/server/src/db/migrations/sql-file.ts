import { readFile } from 'node:fs/promises';
import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The folder of the `.sql` migrations, `src/db/migrations/` of this package, found from this module both when
 * it runs from `src/` (tests) and from `dist/` (the built server): the package ships the folder's `.sql` files
 * (its `files`), so no build step copies them.
 */
const FOLDER = new URL('../../../src/db/migrations/', import.meta.url);

/**
 * The statements of a `.sql` migration, in order: each ends with a `;` that ends its line; lines starting
 * with `--` are comments. (No statement of a `.sql` migration has a `;` ending a line inside it: triggers,
 * whose bodies do, are made in TypeScript.)
 */
export function sqlStatements(text: string): string[] {
  const lines = text.split('\n').filter((line) => !line.trimStart().startsWith('--'));
  return lines
    .join('\n')
    .split(/;[ \t]*(?:\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
}

/** Runs the statements of the migration file `<name>.sql`, one at a time (SQLite prepares one per call). */
export async function executeSqlFile(db: Kysely<unknown>, name: string): Promise<void> {
  const text = await readFile(new URL(`${name}.sql`, FOLDER), 'utf8');
  for (const statement of sqlStatements(text)) await sql.raw(statement).execute(db);
}

/** Migrations that are only their `.sql` files (the same DDL on SQLite and PostgreSQL), by name. */
export function sqlMigrations(...names: string[]): Record<string, Migration> {
  return Object.fromEntries(names.map((name) => [name, { up: (db) => executeSqlFile(db, name) }]));
}
