import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, postgresTestUrl } from '../../../testkit/src/server/postgres.js';
import { useTempDirs } from '../../../testkit/src/server/temp-dirs.js';
import { type ChangeWatch, changeWatchOf, WatchedCache } from './change-watch.js';
import { type Db, migrate, openDatabase } from './database.js';
import type { Database } from './schema.js';

const tempDir = useTempDirs('parley-change-watch-');

/** A token row of the tests' own (no owner: the table allows it, and nothing here resolves it). */
async function insertToken(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .insertInto('tokens')
    .values({
      id,
      kind: 'pat',
      hash: `hash-${id}`,
      note: 'change watch',
      account_id: null,
      bot_id: null,
      integration_id: null,
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: null,
      revoked_at: null,
      last_used_at: null,
    })
    .execute();
}

describe('ChangeWatch on SQLite', () => {
  let db: Db;
  let other: SQLite.Database;
  let watch: ChangeWatch;

  beforeAll(async () => {
    const dir = await tempDir();
    db = await openDatabase({ dataDir: dir });
    await migrate(db.kysely);
    // A second connection to the same file: the CLI, another process, a sqlite3 shell.
    other = new SQLite(join(dir, 'parley.db'));
    other.pragma('busy_timeout = 5000');
    watch = changeWatchOf(db.kysely) as ChangeWatch;
    expect(watch).toBeDefined();
    expect(watch.watch([{ name: 'tokens', ignoredColumns: ['last_used_at'] }])).toBe(true);
    await insertToken(db.kysely, 'tok_watch_a');
  });
  afterAll(async () => {
    other.close();
    await db.close();
  });

  /** Whether `change` moves the generation. */
  async function moves(change: () => unknown): Promise<boolean> {
    const before = watch.generation();
    await change();
    return watch.generation() !== before;
  }

  it("moves on this connection's insert, update and delete of a watched row", async () => {
    expect(await moves(() => insertToken(db.kysely, 'tok_watch_b'))).toBe(true);
    const revoke = db.kysely
      .updateTable('tokens')
      .set({ revoked_at: '2026-01-02T00:00:00.000Z' })
      .where('id', '=', 'tok_watch_b');
    expect(await moves(() => revoke.execute())).toBe(true);
    expect(await moves(() => db.kysely.deleteFrom('tokens').where('id', '=', 'tok_watch_b').execute())).toBe(
      true,
    );
  });

  it('stays on an update of ignored columns only, on reads and on changes of unwatched tables', async () => {
    const touch = db.kysely
      .updateTable('tokens')
      .set({ last_used_at: '2026-01-03T00:00:00.000Z' })
      .where('id', '=', 'tok_watch_a');
    expect(await moves(() => touch.execute())).toBe(false);
    expect(await moves(() => db.kysely.selectFrom('tokens').selectAll().execute())).toBe(false);
    const meta = db.kysely.insertInto('meta').values({ key: 'change-watch', value: '1' });
    expect(await moves(() => meta.execute())).toBe(false);
  });

  it('moves on a change that rolls back (a kept value is read again, never kept past a change)', async () => {
    const before = watch.generation();
    await expect(
      db.kysely.transaction().execute(async (tx) => {
        await tx.updateTable('tokens').set({ expires_at: '2020-01-01T00:00:00.000Z' }).execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(watch.generation()).not.toBe(before);
    const row = await db.kysely
      .selectFrom('tokens')
      .selectAll()
      .where('id', '=', 'tok_watch_a')
      .executeTakeFirst();
    expect(row?.expires_at).toBeNull();
  });

  it('moves when another connection commits a change to any table', async () => {
    // Even an ignored column's: what another connection changed is not told column by column.
    const touch = "update tokens set last_used_at = '2026-01-04T00:00:00.000Z' where id = 'tok_watch_a'";
    expect(await moves(() => other.prepare(touch).run())).toBe(true);
    expect(
      await moves(() => other.prepare("insert into meta (key, value) values ('other', '1')").run()),
    ).toBe(true);
    // Its reads commit nothing.
    expect(await moves(() => other.prepare('select count(*) from tokens').get())).toBe(false);
  });

  it("asks for other connections' changes once per run of JavaScript", async () => {
    await Promise.resolve();
    const before = watch.generation();
    other.prepare("insert into meta (key, value) values ('same-run', '1')").run();
    // Within one run (no request can arrive in between), the version asked first stands; the next asks again.
    expect(watch.generation()).toBe(before);
    await Promise.resolve();
    expect(watch.generation()).not.toBe(before);
  });

  it('is not installed inside an open transaction (the triggers would go with its rollback)', async () => {
    await db.kysely.transaction().execute(async () => {
      expect(watch.watch([{ name: 'bots' }])).toBe(false);
    });
    expect(watch.watch([{ name: 'bots' }])).toBe(true);
    expect(await moves(() => sql`update bots set name = name where 0`.execute(db.kysely))).toBe(false);
  });

  it('refuses a table that does not exist', () => {
    expect(() => watch.watch([{ name: 'no_such_table' as never }])).toThrow(/no table no_such_table/);
  });

  describe('WatchedCache', () => {
    const cache = new WatchedCache<{ revoked: string | null }>([
      { name: 'tokens', ignoredColumns: ['last_used_at'] },
    ]);
    let reads = 0;
    const read = (id: string) => async () => {
      reads += 1;
      const row = await db.kysely
        .selectFrom('tokens')
        .select('revoked_at')
        .where('id', '=', id)
        .executeTakeFirst();
      return row && { revoked: row.revoked_at };
    };
    /** Token tok_watch_a as the cache answers it (under the key 'a'). */
    const cachedA = () => cache.get(db.kysely, 'a', read('tok_watch_a'));

    it('answers a kept value without reading, until its table changes on this connection', async () => {
      reads = 0;
      expect(await cachedA()).toEqual({ revoked: null });
      expect(await cachedA()).toEqual({ revoked: null });
      expect(reads).toBe(1);
      await db.kysely
        .updateTable('tokens')
        .set({ revoked_at: '2026-02-01T00:00:00.000Z' })
        .where('id', '=', 'tok_watch_a')
        .execute();
      expect(await cachedA()).toEqual({ revoked: '2026-02-01T00:00:00.000Z' });
      expect(reads).toBe(2);
    });

    it('reads again once another connection changed the file', async () => {
      reads = 0;
      expect(await cachedA()).toBeDefined();
      expect(reads).toBe(0);
      other
        .prepare("update tokens set revoked_at = '2026-03-01T00:00:00.000Z' where id = 'tok_watch_a'")
        .run();
      expect(await cachedA()).toEqual({ revoked: '2026-03-01T00:00:00.000Z' });
      expect(reads).toBe(1);
    });

    it('keeps nothing unknown, nothing read inside a transaction, nothing read across a change', async () => {
      reads = 0;
      expect(await cache.get(db.kysely, 'none', read('tok_missing'))).toBeUndefined();
      expect(await cache.get(db.kysely, 'none', read('tok_missing'))).toBeUndefined();
      expect(reads).toBe(2);

      await db.kysely.transaction().execute(async (tx) => {
        await cache.get(tx, 'tx', async () => ({ revoked: 'in tx' }));
      });
      expect(await cache.get(db.kysely, 'tx', async () => ({ revoked: 'after' }))).toEqual({
        revoked: 'after',
      });

      // A change while the value is read: the value read may be older than it, so it is not kept.
      const racing = await cache.get(db.kysely, 'race', async () => {
        other.prepare("insert into meta (key, value) values ('race', '1')").run();
        return { revoked: 'read before the change' };
      });
      expect(racing).toEqual({ revoked: 'read before the change' });
      expect(await cache.get(db.kysely, 'race', async () => ({ revoked: 'read again' }))).toEqual({
        revoked: 'read again',
      });
    });

    it('forgets the least recently stored value past its limit', async () => {
      const small = new WatchedCache<string>([{ name: 'tokens' }], 2);
      for (const key of ['x', 'y', 'z']) await small.get(db.kysely, key, async () => `${key}1`);
      expect(await small.get(db.kysely, 'z', async () => 'z2')).toBe('z1');
      expect(await small.get(db.kysely, 'y', async () => 'y2')).toBe('y1');
      expect(await small.get(db.kysely, 'x', async () => 'x2')).toBe('x2');
    });
  });
});

const pgUrl = postgresTestUrl();
describe.skipIf(!pgUrl)('WatchedCache on PostgreSQL', () => {
  const pgSchema = `change_watch_${Math.random().toString(36).slice(2, 8)}`;
  let db: Db;
  beforeAll(async () => {
    db = await openDatabase({ url: pgUrl, dataDir: '/nonexistent-parley-dir', pgSchema });
  });
  afterAll(async () => {
    await db.close();
    if (pgUrl) await dropSchema(pgUrl, pgSchema);
  });

  it('has no watch and keeps nothing: every ask reads (other processes write without telling)', async () => {
    expect(changeWatchOf(db.kysely)).toBeUndefined();
    const cache = new WatchedCache<number>([{ name: 'tokens' }]);
    let reads = 0;
    const read = async () => ++reads;
    expect(await cache.get(db.kysely, 'k', read)).toBe(1);
    expect(await cache.get(db.kysely, 'k', read)).toBe(2);
  });
});
