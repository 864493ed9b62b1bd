import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import * as sqliteVec from 'sqlite-vec';
import { describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../db/database.js';
import { migrationProvider } from '../../db/migrations.js';
import type { Database } from '../../db/schema.js';
import { useTempDirs } from '../../test-support/temp-dirs.js';
import { seedBot, seedFile } from './passage-index.contract.js';
import { botMatchExpression, botToken } from './sqlite-lexical.js';
import { sqlitePassageIndex } from './sqlite-passage-index.js';

const tempDir = useTempDirs('parley-lexical-');

describe('SQLite lexical search scoped by bot inside FTS5', () => {
  it('writes one token per bot id, whatever its characters', () => {
    expect(botToken('bot_bench')).toBe('b626f745f62656e63680');
    expect(botToken('é')).toBe('bc3a90');
    expect(botMatchExpression('b', '"x" OR "y"')).toBe('bot : "b620" AND ("x" OR "y")');
  });

  it('tags the passages and tiles indexed before the migration that added the bot to FTS5', async () => {
    const dataDir = await tempDir();
    const sqlite = new SQLite(join(dataDir, 'parley.db'));
    sqlite.pragma('foreign_keys = ON');
    sqliteVec.load(sqlite);
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    const old: Db = { kysely, dialect: 'sqlite', ping: async () => {}, close: () => kysely.destroy() };
    const migrator = new Migrator({ db: kysely, provider: migrationProvider });
    expect((await migrator.migrateTo('0010_chat_messages_bot_time')).error).toBeUndefined();
    const bots = [await seedBot(old), await seedBot(old)];
    const files: string[] = [];
    // As the passage index wrote them before: passages (triggers index passages_fts) and untagged tiles.
    for (const [b, bot] of bots.entries()) {
      const fileId = await seedFile(old, bot);
      files.push(fileId);
      for (let i = 0; i < 10; i++)
        await sql`insert into passages (id, file_id, bot_id, position, subtype, content, breadcrumb)
          values (${`passage_old_${b}_${i}`}, ${fileId}, ${bot.botId}, ${i}, 'paragraph',
            ${i === 9 ? 'ibex tracks' : `ibex ${b} ${i}`}, '[]')`.execute(kysely);
      await sql`insert into passage_tiles(rowid, text)
        select min(seq), group_concat(content, char(10) order by position)
        from passages where file_id = ${fileId} group by position / 8`.execute(kysely);
    }
    await old.close();

    const db = await openDatabase({ dataDir });
    try {
      await sql`insert into passages_fts(passages_fts, rank) values ('integrity-check', 1)`.execute(
        db.kysely,
      );
      const index = sqlitePassageIndex({ kysely: db.kysely });
      for (const [b, bot] of bots.entries()) {
        const scope = { botId: bot.botId, visibility: { kind: 'all' as const } };
        const hits = await index.lexicalSearch('ibex', scope, 20);
        expect(hits).toHaveLength(10);
        expect(new Set(hits.map((h) => h.fileId))).toEqual(new Set([files[b]]));
        // Each bot's tiles carry its token: two per bot (positions 0–7 and 8–9).
        const tiles = await sql<{ n: number }>`
          select count(*) as n from passage_tiles
          where passage_tiles match ${botMatchExpression(bot.botId, '"ibex"')}`.execute(db.kysely);
        expect(tiles.rows[0]?.n).toBe(2);
      }
      // Passages written after the migration are tagged by the triggers and the index.
      const fileId = await seedFile(db, bots[0] as { botId: string; workspaceId: string });
      await index.replaceFilePassages({
        fileId,
        botId: bots[0]?.botId as string,
        passages: [{ position: 0, content: 'ibex horns', subtype: 'paragraph', breadcrumb: [] }],
      });
      const scope = { botId: bots[0]?.botId as string, visibility: { kind: 'all' as const } };
      expect((await index.lexicalSearch('horns', scope, 5)).map((h) => h.fileId)).toEqual([fileId]);
      const other = { botId: bots[1]?.botId as string, visibility: { kind: 'all' as const } };
      expect(await index.lexicalSearch('horns', other, 5)).toEqual([]);
      await sql`insert into passages_fts(passages_fts, rank) values ('integrity-check', 1)`.execute(
        db.kysely,
      );
    } finally {
      await db.close();
    }
  });
});
