import { randomUUID } from 'node:crypto';
import { type Kysely, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, postgresTestUrl } from '../test-support/postgres.js';
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
