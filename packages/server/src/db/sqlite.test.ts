import { join } from 'node:path';
import SQLite from 'better-sqlite3';
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
  it('begins transactions immediate: a read-then-write transaction never loses to another connection', async () => {
    // A deferred begin (Kysely's) would let the other connection commit between this transaction's read and
    // its write, which then fails at once with SQLITE_BUSY (the busy timeout does not apply to that case).
    const dataDir = await tempDir();
    const db = await openDatabase({ dataDir });
    const other = new SQLite(join(dataDir, 'parley.db'));
    other.pragma('busy_timeout = 0');
    try {
      let otherWrite: unknown;
      await db.kysely.transaction().execute(async (trx) => {
        expect(db.inTransaction?.()).toBe(true);
        await sql`select count(*) from jobs`.execute(trx);
        try {
          other.prepare(`insert into meta (key, value) values ('other', '1')`).run();
        } catch (error) {
          otherWrite = error;
        }
        await sql`insert into meta (key, value) values ('mine', '1')`.execute(trx);
      });
      expect((otherWrite as { code?: string } | undefined)?.code).toBe('SQLITE_BUSY');
      expect(db.inTransaction?.()).toBe(false);
      const rows = await sql<{ key: string }>`select key from meta where key in ('mine', 'other')`.execute(
        db.kysely,
      );
      expect(rows.rows).toEqual([{ key: 'mine' }]);
    } finally {
      other.close();
      await db.close();
    }
  });

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
