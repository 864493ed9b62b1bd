import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../testkit/src/shared/eventually.js';
import { type Db, openDatabase } from './database.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';

/** Polls `check` every 10 ms until it holds (or fails after `ms`). */
const until = (check: () => boolean, ms = 10_000): Promise<void> => eventually(async () => check(), ms, 10);

/** A WAL database with a table of 2 KB rows, and `rows` of them committed one transaction each. */
function walDatabase(dir: string): { db: SQLite.Database; file: string; write: (rows: number) => void } {
  const file = join(dir, 'test.db');
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('create table t (id integer primary key, body text not null)');
  const insert = db.prepare('insert into t (body) values (?)');
  return {
    db,
    file,
    write: (rows) => {
      for (let i = 0; i < rows; i++) insert.run('x'.repeat(2048));
    },
  };
}

/** Rows of `t` in the database file alone, without its WAL: what checkpoints have copied there. */
function rowsInFileAlone(dir: string, file: string): number {
  const copy = join(dir, 'alone.db');
  rmSync(`${copy}-wal`, { force: true });
  copyFileSync(file, copy);
  const db = new SQLite(copy, { readonly: true });
  try {
    return (db.prepare('select count(*) as n from t').get() as { n: number }).n;
  } catch {
    return 0; // the table itself is still only in the WAL
  } finally {
    db.close();
  }
}

/**
 * Runs `body` with a checkpointer of `db` and the process warnings emitted meanwhile; then stops listening and
 * closes the checkpointer and the database, whatever `body` did.
 */
async function withCheckpointer(
  db: SQLite.Database,
  file: string,
  options: { frames: number; intervalMs: number },
  body: (checkpointer: SqliteCheckpointer, warnings: string[]) => Promise<void>,
): Promise<void> {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.message);
  process.on('warning', onWarning);
  const checkpointer = new SqliteCheckpointer(db, file, options);
  try {
    await body(checkpointer, warnings);
  } finally {
    process.off('warning', onWarning);
    await checkpointer.close();
    db.close();
  }
}

describe('SqliteCheckpointer', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-checkpoint-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('copies committed pages into the database file from its worker, while the main connection only commits', async () => {
    const dir = tempDir();
    const { db, file, write } = walDatabase(dir);
    await withCheckpointer(db, file, { frames: 32, intervalMs: 5 }, async (checkpointer) => {
      // The main connection's own autocheckpoint is the net only: 4× the worker's threshold.
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(128);
      write(10); // a few pages: below the threshold, nothing is started
      // A negative check, with no event to wait for (the checkpointer looks on a timer): ten of its looks.
      const tenLooks = 50;
      await new Promise((r) => setTimeout(r, tenLooks));
      expect(checkpointer.checkpoints).toBe(0);
      expect(checkpointer.pendingFrames()).toBeGreaterThan(0);
      expect(rowsInFileAlone(dir, file)).toBe(0);

      write(100); // 2 KB rows: ~50 pages or more
      await until(() => checkpointer.checkpoints > 0);
      await until(() => (checkpointer.pendingFrames() ?? 99) < 32);
      expect(rowsInFileAlone(dir, file)).toBeGreaterThanOrEqual(100);
    });
    // The worker's connection closed first, so the main one was the last: SQLite removed the WAL with it.
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('hands checkpoints back to the main connection when its worker dies', async () => {
    const dir = tempDir();
    const { db, file, write } = walDatabase(dir);
    await withCheckpointer(db, file, { frames: 16, intervalMs: 5 }, async (checkpointer, warnings) => {
      write(40);
      await until(() => checkpointer.checkpoints > 0);
      await checkpointer.crash();
      await until(() => db.pragma('wal_autocheckpoint', { simple: true }) === 16);
      await until(() => warnings.some((m) => m.includes('checkpoints run on the main thread again')));
      // Without the worker, the main connection's commits checkpoint (SQLite's default behaviour).
      const before = checkpointer.checkpoints;
      write(200);
      expect(checkpointer.checkpoints).toBe(before);
      expect(checkpointer.pendingFrames() ?? 99).toBeLessThan(16 + 4);
      expect(rowsInFileAlone(dir, file)).toBeGreaterThanOrEqual(200);
    });
  });

  it('hands checkpoints back to the main connection when there is no -shm file to read', async () => {
    const dir = tempDir();
    const file = join(dir, 'exclusive.db');
    const db = new SQLite(file);
    // In exclusive locking mode SQLite keeps the wal-index in memory: no -shm file.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.exec('create table t (id integer primary key)');
    await withCheckpointer(db, file, { frames: 16, intervalMs: 2 }, async (checkpointer) => {
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(64);
      await until(() => db.pragma('wal_autocheckpoint', { simple: true }) === 16);
      expect(existsSync(`${file}-shm`)).toBe(false);
      expect(checkpointer.checkpoints).toBe(0);
    });
  });

  it('hands checkpoints back to the main connection when the -shm file has a layout it does not know', async () => {
    const dir = tempDir();
    const { db } = walDatabase(dir);
    // The header it reads is this one: two equal 48-byte copies, initialised, of a wal-index version to come.
    const file = join(dir, 'future.db');
    const header = Buffer.alloc(136);
    header.writeUInt32LE(3008000, 0);
    header[12] = 1;
    header.copy(header, 48, 0, 48);
    writeFileSync(`${file}-shm`, header);
    await withCheckpointer(db, file, { frames: 16, intervalMs: 2 }, async (checkpointer, warnings) => {
      expect(checkpointer.pendingFrames()).toBeNaN();
      await until(() => db.pragma('wal_autocheckpoint', { simple: true }) === 16);
      await until(() => warnings.some((m) => m.includes('a wal-index layout this server does not know')));
      expect(checkpointer.checkpoints).toBe(0);
    });
  });

  it('runs for a database on disk opened by openDatabase, and its close leaves no WAL behind', async () => {
    const dir = tempDir();
    const db = await openDatabase({ dataDir: dir });
    const file = join(dir, 'parley.db');
    const autocheckpoint = async (on: Db) =>
      (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(on.kysely)).rows[0]
        ?.wal_autocheckpoint;
    expect(await autocheckpoint(db)).toBe(4000);
    expect(existsSync(`${file}-wal`)).toBe(true);
    await db.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    // In memory there is no WAL and no checkpointer: SQLite's default stays.
    const memory = await openDatabase({ dataDir: dir, sqliteFile: ':memory:' });
    expect(await autocheckpoint(memory)).toBe(1000);
    await memory.close();
  });
});
