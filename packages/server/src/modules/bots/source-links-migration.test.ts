import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { testDatabases } from '../../../../testkit/src/server/harness.js';
import { migrationProvider } from '../../db/migrations/index.js';

describe.each(testDatabases())('migration 0017_bots_source_links on $name', ({ url: databaseUrl }) => {
  const t = useTestApp(databaseUrl ? { databaseUrl } : {});

  it('gives every existing bot sourceLinks public, which the Admin API then shows', async () => {
    const db = t.db.kysely;
    const other = await t.otherTenant();
    // The bots table as it was before the migration: no source_links column.
    await sql`alter table bots drop column source_links`.execute(db);
    const migration = (await migrationProvider.getMigrations())['0017_bots_source_links'];
    await migration?.up(db as never);

    const rows = await db.selectFrom('bots').select(['id', 'source_links']).orderBy('id').execute();
    expect(rows.map((r) => r.id).sort()).toEqual([t.botId, other.botId].sort());
    expect(rows.map((r) => r.source_links)).toEqual(['public', 'public']);
    const res = await t.asOwner('GET', `/v1/admin/bots/${t.botId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { bot: { sourceLinks: string } }).bot.sourceLinks).toBe('public');
  });
});
