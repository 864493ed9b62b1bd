import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import * as sqliteVec from 'sqlite-vec';
import type { Db } from '../../../server/src/db/database.js';
import { migrationProvider } from '../../../server/src/db/migrations/index.js';
import type { Database } from '../../../server/src/db/schema.js';

/**
 * The database file `parley.db` of `dataDir` migrated only up to `migration` (as an older Parley left it),
 * sqlite-vec loaded; close it before `openDatabase` migrates it the rest of the way.
 */
export async function sqliteMigratedTo(dataDir: string, migration: string): Promise<Db> {
  const sqlite = new SQLite(join(dataDir, 'parley.db'));
  sqlite.pragma('foreign_keys = ON');
  sqliteVec.load(sqlite);
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error } = await new Migrator({ db: kysely, provider: migrationProvider }).migrateTo(migration);
  if (error) {
    await kysely.destroy();
    throw error;
  }
  return { kysely, dialect: 'sqlite', ping: async () => {}, close: () => kysely.destroy() };
}
