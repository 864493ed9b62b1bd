import { randomUUID } from 'node:crypto';
import { type Kysely, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dropSchema, postgresTestUrl } from '../../../testkit/src/server/postgres.js';
import { type Db, openDatabase } from './database.js';
import { fixedQuery } from './fixed-query.js';
import type { Database } from './schema.js';

/** A plugin that changes nothing: a handle with a plugin must compile every call. */
const passThrough: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: async (args) => args.result,
};

function suite(name: string, open: () => Promise<Db>, close: (db: Db) => Promise<void>) {
  describe(`fixedQuery on ${name}`, () => {
    let db: Db;
    let built = 0;
    const insertMeta = fixedQuery(2, (k: Kysely<Database>, key: string, value: string) => {
      built += 1;
      return k.insertInto('meta').values({ key, value });
    });
    const metaOf = fixedQuery(1, (k: Kysely<Database>, key: string) => {
      built += 1;
      // 'fixed-' is bound by the query itself: it stays bound on every call.
      return k
        .selectFrom('meta')
        .select(['key', 'value'])
        .where('key', '=', key)
        .where('value', 'like', sql<string>`${'fixed-'} || '%'`);
    });

    beforeAll(async () => {
      db = await open();
    });
    afterAll(() => close(db));

    it('binds each call its own arguments, the query its own constants, compiled once per database', async () => {
      built = 0;
      await insertMeta(db.kysely, 'fq-a', 'fixed-1');
      await insertMeta(db.kysely, 'fq-b', 'fixed-2');
      await insertMeta(db.kysely, 'fq-c', 'other');
      expect((await metaOf(db.kysely, 'fq-a')).rows).toEqual([{ key: 'fq-a', value: 'fixed-1' }]);
      expect((await metaOf(db.kysely, 'fq-b')).rows).toEqual([{ key: 'fq-b', value: 'fixed-2' }]);
      expect((await metaOf(db.kysely, 'fq-c')).rows).toEqual([]);
      expect((await metaOf(db.kysely, 'fq-none')).rows).toEqual([]);
      expect(built).toBe(2);
    });

    it("runs in a transaction with the database's compiled query, and rolls back with it", async () => {
      built = 0;
      await db.kysely.transaction().execute(async (tx) => {
        await insertMeta(tx, 'fq-tx', 'fixed-tx');
        expect((await metaOf(tx, 'fq-tx')).rows).toEqual([{ key: 'fq-tx', value: 'fixed-tx' }]);
      });
      await expect(
        db.kysely.transaction().execute(async (tx) => {
          await insertMeta(tx, 'fq-gone', 'fixed-gone');
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect((await metaOf(db.kysely, 'fq-tx')).rows).toHaveLength(1);
      expect((await metaOf(db.kysely, 'fq-gone')).rows).toEqual([]);
      expect(built).toBe(0);
    });

    it('compiles every call on a handle with plugins', async () => {
      built = 0;
      const withPlugin = db.kysely.withPlugin(passThrough);
      expect((await metaOf(withPlugin, 'fq-a')).rows).toEqual([{ key: 'fq-a', value: 'fixed-1' }]);
      expect((await metaOf(withPlugin, 'fq-b')).rows).toEqual([{ key: 'fq-b', value: 'fixed-2' }]);
      expect(built).toBe(2);
    });

    it('refuses an undefined argument, and a query that does not bind an argument', async () => {
      await expect(metaOf(db.kysely, undefined as unknown as string)).rejects.toThrow(
        'argument 0 is undefined',
      );
      const unbound = fixedQuery(2, (k: Kysely<Database>, key: string, _unused: string) =>
        k.selectFrom('meta').select('value').where('key', '=', key),
      );
      await expect(unbound(db.kysely, 'fq-a', 'x')).rejects.toThrow('argument 1 is not bound');
    });

    it("answers what Kysely's own execution answers: affected rows and insert id, rows, RETURNING rows", async () => {
      const setMeta = fixedQuery(2, (k: Kysely<Database>, key: string, value: string) =>
        k.updateTable('meta').set({ value }).where('key', '=', key),
      );
      const insertReturning = fixedQuery(2, (k: Kysely<Database>, key: string, value: string) =>
        k.insertInto('meta').values({ key, value }).returning(['key', 'value']),
      );
      await insertMeta(db.kysely, 'fq-r1', 'fixed-r');
      await insertMeta(db.kysely, 'fq-r2', 'fixed-r');
      const ownWay = await db.kysely
        .updateTable('meta')
        .set({ value: 'fixed-s' })
        .where('key', '=', 'fq-r1')
        .executeTakeFirst();
      const updated = await setMeta(db.kysely, 'fq-r2', 'fixed-s');
      expect(updated.numAffectedRows).toBe(1n);
      expect(ownWay.numUpdatedRows).toBe(1n);
      expect((await setMeta(db.kysely, 'fq-none', 'fixed-s')).numAffectedRows).toBe(0n);
      expect((await insertReturning(db.kysely, 'fq-r3', 'fixed-t')).rows).toEqual([
        { key: 'fq-r3', value: 'fixed-t' },
      ]);
      await db.kysely.transaction().execute(async (tx) => {
        expect((await setMeta(tx, 'fq-r3', 'fixed-u')).numAffectedRows).toBe(1n);
        expect((await metaOf(tx, 'fq-r3')).rows).toEqual([{ key: 'fq-r3', value: 'fixed-u' }]);
      });
      // A failing statement rejects the call's promise; it does not throw at the call.
      const failing = insertMeta(db.kysely, 'fq-r3', 'fixed-dup');
      await expect(failing).rejects.toThrow();
    });

    it(`runs ${name === 'SQLite' ? 'on the connection directly' : "through Kysely's executor"}, on the handle and in a transaction`, async () => {
      const executed = vi.spyOn(db.kysely, 'executeQuery');
      try {
        await metaOf(db.kysely, 'fq-a');
        await db.kysely.transaction().execute(async (tx) => {
          const inTx = vi.spyOn(tx, 'executeQuery');
          await metaOf(tx, 'fq-a');
          expect(inTx).toHaveBeenCalledTimes(name === 'SQLite' ? 0 : 1);
        });
        expect(executed).toHaveBeenCalledTimes(name === 'SQLite' ? 0 : 1);
      } finally {
        executed.mockRestore();
      }
    });

    it("never runs inside another caller's open transaction: a query on the handle waits for it", async () => {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inserted = () => {};
      const insertedInTx = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      const open = db.kysely
        .transaction()
        .execute(async (tx) => {
          await insertMeta(tx, 'fq-held', 'fixed-held');
          inserted();
          await held;
          throw new Error('roll back');
        })
        .catch((error: unknown) => error);
      await insertedInTx;
      // Issued while the transaction is open: neither sees its row nor becomes part of it.
      const read = metaOf(db.kysely, 'fq-held');
      const write = insertMeta(db.kysely, 'fq-beside', 'fixed-beside');
      release();
      expect(await open).toEqual(new Error('roll back'));
      expect((await read).rows).toEqual([]);
      await write;
      expect((await metaOf(db.kysely, 'fq-beside')).rows).toEqual([
        { key: 'fq-beside', value: 'fixed-beside' },
      ]);
      expect((await metaOf(db.kysely, 'fq-held')).rows).toEqual([]);
    });
  });
}

suite(
  'SQLite',
  () => openDatabase({ dataDir: '/nonexistent-parley-dir', sqliteFile: ':memory:' }),
  (db) => db.close(),
);

const pgUrl = postgresTestUrl();
const pgSchema = `fixed_query_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
if (pgUrl) {
  suite(
    'PostgreSQL',
    () => openDatabase({ url: pgUrl, dataDir: '/nonexistent-parley-dir', pgSchema }),
    async (db) => {
      await db.close();
      await dropSchema(pgUrl, pgSchema);
    },
  );
}
