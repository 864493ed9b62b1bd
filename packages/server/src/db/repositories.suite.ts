import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountRow, workspaceRow } from '../../../testkit/src/server/rows.js';
import { identityRepo } from '../modules/identity/repo.js';
import { type Db, isUniqueViolation, migrate } from './database.js';
import { migrationProvider } from './migrations/index.js';
import { botRepositoryCases } from './repositories/bots.suite.js';
import { chatRepositoryCases } from './repositories/chat.suite.js';
import { identityRepositoryCases } from './repositories/identity.suite.js';
import { recordRepositoryCases } from './repositories/records.suite.js';
import { rejection, suiteRepos, unique } from './repositories/rows.suite.js';

/**
 * The contract every database adapter meets, run through the real repositories and migrations.
 * `open` opens the same database each time it is called (a second call checks migrations are idempotent).
 * @example runRepositorySuite('SQLite', () => openDatabase({ dataDir }))
 */
export function runRepositorySuite(name: string, open: () => Promise<Db>): void {
  describe(`repository suite: ${name}`, () => {
    let db: Db;
    const suite = suiteRepos(() => db);
    const { identity } = suite;

    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => {
      await db?.close();
    });

    describe('database', () => {
      it('answers ping', async () => {
        await expect(db.ping()).resolves.toBeUndefined();
      });

      it('runs every migration once and records it', async () => {
        const expected = Object.keys(await migrationProvider.getMigrations()).sort();
        const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
          db.kysely,
        );
        expect(rows.rows.map((r) => r.name)).toEqual(expected);
      });

      it('migrates again without error or change (migrations are idempotent)', async () => {
        const owner = accountRow();
        await identity().insertAccount(owner);
        await migrate(db.kysely);
        const again = await open();
        try {
          expect(await identityRepo(again.kysely).accountById(owner.id)).toEqual(owner);
          const rows = await sql<{ n: number | string }>`select count(*) as n from kysely_migration`.execute(
            again.kysely,
          );
          expect(Number(rows.rows[0]?.n)).toBe(Object.keys(await migrationProvider.getMigrations()).length);
        } finally {
          await again.close();
        }
      });

      it('rolls a failed transaction back', async () => {
        const row = accountRow();
        const error = await rejection(
          db.kysely.transaction().execute(async (tx) => {
            await identityRepo(tx).insertAccount(row);
            throw new Error('abort');
          }),
        );
        expect((error as Error).message).toBe('abort');
        expect(await identity().accountById(row.id)).toBeUndefined();
      });

      it('enforces foreign keys, and does not report their violation as a unique violation', async () => {
        const error = await rejection(identity().insertWorkspace(workspaceRow('user_does_not_exist')));
        expect(isUniqueViolation(error)).toBe(false);
        expect(await identity().workspaceById('user_does_not_exist')).toBeUndefined();
      });

      it('stores and reads meta values', async () => {
        const key = `k-${unique()}`;
        expect(await identity().getMeta(key)).toBeUndefined();
        await identity().insertMeta(key, '{"a":1}');
        expect(await identity().getMeta(key)).toEqual({ value: '{"a":1}' });
        expect(isUniqueViolation(await rejection(identity().insertMeta(key, 'again')))).toBe(true);
      });
    });

    identityRepositoryCases(suite);
    botRepositoryCases(suite);
    recordRepositoryCases(suite);
    chatRepositoryCases(suite);
  });
}
