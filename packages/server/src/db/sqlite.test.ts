import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { APP_TABLES, SQLITE_FTS_TABLES, sortedNames } from '../../../testkit/src/server/db-tables.js';
import { useTempDirs } from '../../../testkit/src/server/temp-dirs.js';
import { identityRepo } from '../modules/identity/repo.js';
import { runActivitySuite } from './activity.suite.js';
import { type Db, openDatabase } from './database.js';
import { runRepositorySuite } from './repositories.suite.js';

const tempDir = useTempDirs('parley-sqlite-');

/** Runs `use` on a fresh in-memory database, closed after. */
async function inMemory(use: (db: Db) => Promise<void>): Promise<void> {
  const db = await openDatabase({ dataDir: '/nonexistent-parley-dir', sqliteFile: ':memory:' });
  try {
    await use(db);
  } finally {
    await db.close();
  }
}

let contractDir: string | undefined;
runRepositorySuite('SQLite', async () => {
  contractDir ??= await tempDir();
  return openDatabase({ dataDir: contractDir });
});
runActivitySuite('SQLite', async () => openDatabase({ dataDir: await tempDir() }));

describe('SQLite database', () => {
  it('opens parley.db in the data dir, creating the folder, in WAL mode with foreign keys on', async () => {
    const dataDir = join(await tempDir(), 'nested', 'data');
    const db = await openDatabase({ dataDir });
    try {
      expect(db.dialect).toBe('sqlite');
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db.kysely);
      expect(mode.rows).toEqual([{ journal_mode: 'wal' }]);
      const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db.kysely);
      expect(fk.rows).toEqual([{ foreign_keys: 1 }]);
      const file = await sql<{
        file: string;
      }>`select file from pragma_database_list where name = 'main'`.execute(db.kysely);
      expect(file.rows[0]?.file).toBe(join(dataDir, 'parley.db'));
    } finally {
      await db.close();
    }
  });

  it('keeps data across a close and a reopen of the same file', async () => {
    const dataDir = await tempDir();
    const first = await openDatabase({ dataDir, sqliteFile: 'kept.db' });
    await identityRepo(first.kysely).insertMeta('k', 'v');
    await first.close();
    const second = await openDatabase({ dataDir, sqliteFile: 'kept.db' });
    try {
      expect(await identityRepo(second.kysely).getMeta('k')).toEqual({ value: 'v' });
    } finally {
      await second.close();
    }
  });

  it("indexes only the messages that answer another (reply_to set), and finds a message's answers by it", async () => {
    await inMemory(async (db) => {
      const index = await sql<{ sql: string }>`
        select sql from sqlite_master where type = 'index' and name = 'chat_messages_reply_to'`.execute(
        db.kysely,
      );
      expect(index.rows[0]?.sql).toMatch(/where reply_to is not null$/i);
      const plan = await sql<{ detail: string }>`
        explain query plan select id from chat_messages where bot_id = ${'b'} and reply_to = ${'m'}`.execute(
        db.kysely,
      );
      expect(plan.rows.map((r) => r.detail).join(' ')).toContain('USING INDEX chat_messages_reply_to');
    });
  });

  it('opens an in-memory database with the full schema', async () => {
    await inMemory(async (db) => {
      const tables = await sql<{ name: string }>`
        select name from sqlite_master where type = 'table' and name not like 'kysely_%' and name not like 'sqlite_%'
        order by name`.execute(db.kysely);
      expect(tables.rows.map((t) => t.name)).toEqual(sortedNames([...APP_TABLES, ...SQLITE_FTS_TABLES]));
    });
  });
});
