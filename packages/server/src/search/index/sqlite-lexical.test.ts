import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { sqliteMigratedTo } from '../../../../testkit/src/server/old-sqlite.js';
import { useTempDirs } from '../../../../testkit/src/server/temp-dirs.js';
import { openDatabase } from '../../db/database.js';
import { seedBot, seedFile } from './passage-index.suite.js';
import { botMatchExpression, botToken, sqliteLexicalSearch } from './sqlite-lexical.js';
import { sqlitePassageIndex } from './sqlite-passage-index.js';
import { closeSqliteReaders, type SqliteReaders, sqliteReadersOf } from './sqlite-readers.js';

const tempDir = useTempDirs('parley-lexical-');

describe('SQLite lexical search scoped by bot inside FTS5', () => {
  it('writes one token per bot id, whatever its characters', () => {
    expect(botToken('bot_bench')).toBe('b626f745f62656e63680');
    expect(botToken('é')).toBe('bc3a90');
    expect(botMatchExpression('b', '"x" OR "y"')).toBe('bot : "b620" AND ("x" OR "y")');
  });

  it('tags the passages and tiles indexed before the migration that added the bot to FTS5', async () => {
    const dataDir = await tempDir();
    const old = await sqliteMigratedTo(dataDir, '0010_chat_messages_bot_time');
    const kysely = old.kysely;
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

  it('splits a large search across reader threads and answers exactly what one scan answers', async () => {
    const dataDir = await tempDir();
    const db = await openDatabase({ dataDir });
    try {
      const bots = [await seedBot(db), await seedBot(db)];
      const inThread = sqlitePassageIndex({ kysely: db.kysely, vectorIndex: { dir: false } });
      const split = sqlitePassageIndex({
        kysely: db.kysely,
        vectorIndex: { dir: false },
        lexicalThreads: 2,
        lexicalSplitMin: 1,
      });
      // Two bots' files of words drawn from a small vocabulary, so that queries match many passages with
      // many tied and untied scores, and the best 400 come from both halves of the rowid range.
      const words = 'ibex walrus heron lynx otter badger marten stoat vole shrew'.split(' ');
      let x = 7;
      const next = () => {
        x = (x * 1103515245 + 12345) % 2 ** 31;
        return x;
      };
      for (let f = 0; f < 12; f++) {
        const bot = bots[f % 2] as { botId: string; workspaceId: string };
        const fileId = await seedFile(db, bot);
        const passages = Array.from({ length: 100 }, (_, position) => ({
          position,
          subtype: 'paragraph' as const,
          breadcrumb: [words[next() % 10] as string],
          content: Array.from({ length: 5 + (next() % 20) }, () => words[next() % 10]).join(' '),
        }));
        await split.replaceFilePassages({ fileId, botId: bot.botId, passages });
      }
      const scope = { botId: bots[0]?.botId as string, visibility: { kind: 'all' as const } };
      const readers = await sqliteReadersOf(db.kysely, 2);
      expect(readers?.size).toBe(2);
      for (const query of ['ibex', 'walrus heron', 'lynx otter badger', 'stoat', 'vole shrew ibex marten']) {
        for (const n of [5, 80, 400]) {
          const want = await inThread.lexicalSearch(query, scope, n);
          expect(want.length).toBeGreaterThan(0);
          const answered = readers?.answered ?? 0;
          expect(await split.lexicalSearch(query, scope, n)).toEqual(want);
          expect(readers?.answered).toBe(answered + 2); // one range each
        }
      }
      // A reader sees what the main connection committed a moment before.
      const fresh = await seedFile(db, bots[0] as { botId: string; workspaceId: string });
      await split.replaceFilePassages({
        fileId: fresh,
        botId: scope.botId,
        passages: [{ position: 0, content: 'ocelot ocelot ibex', subtype: 'paragraph', breadcrumb: [] }],
      });
      expect((await split.lexicalSearch('ocelot', scope, 5)).map((h) => h.fileId)).toEqual([fresh]);
      expect((await split.lexicalSearch('ocelot ibex', scope, 5))[0]?.fileId).toBe(fresh);
      // Readers that fail a search: it runs in-thread, same answer, and says so (for the logs).
      const fallbacks: unknown[] = [];
      const failing = { size: 2, run: () => Promise.reject(new Error('reader failed')) };
      const failingSplit = sqliteLexicalSearch(db.kysely, 2, 2, {
        readers: async () => failing as unknown as SqliteReaders,
        min: 1,
        onFallback: (error) => fallbacks.push(error),
      });
      expect(await failingSplit('walrus heron', scope, 80)).toEqual(
        await sqliteLexicalSearch(db.kysely, 2, 2)('walrus heron', scope, 80),
      );
      expect(fallbacks).toEqual([new Error('reader failed')]);
      // A reader that dies between searches: the next search starts a new one.
      await readers?.crash(0);
      await readers?.crash(1);
      const answered = readers?.answered ?? 0;
      expect(await split.lexicalSearch('walrus heron', scope, 80)).toEqual(
        await inThread.lexicalSearch('walrus heron', scope, 80),
      );

      expect(await split.lexicalSearch('lynx', scope, 80)).toEqual(
        await inThread.lexicalSearch('lynx', scope, 80),
      );
      expect(readers?.answered).toBeGreaterThanOrEqual(answered + 2);
      // Fewer passages than the split's minimum: in-thread.
      const small = sqlitePassageIndex({ kysely: db.kysely, vectorIndex: { dir: false }, lexicalThreads: 2 });
      const before = readers?.answered;
      expect(await small.lexicalSearch('lynx', scope, 80)).toEqual(
        await inThread.lexicalSearch('lynx', scope, 80),
      );
      expect(readers?.answered).toBe(before);
      // Closed (at shutdown): searches still answer, in-thread.
      await closeSqliteReaders(db.kysely);
      await expect(readers?.run([{ sql: 'select 1', params: [] }])).rejects.toThrow('closed');
    } finally {
      await closeSqliteReaders(db.kysely);
      await db.close();
    }
  });

  it('runs a reader request in one read transaction and reports its SQL errors', async () => {
    const dataDir = await tempDir();
    const db = await openDatabase({ dataDir });
    try {
      const readers = await sqliteReadersOf(db.kysely, 2);
      if (!readers) throw new Error('no readers for a database file');
      const [a, b] = (await readers.run([
        { sql: 'select count(*) as n from passages', params: [] },
        { sql: 'select ? + 1 as v', params: [41] },
      ])) as [unknown[], unknown[]];
      expect(a).toEqual([{ n: 0 }]);
      expect(b).toEqual([{ v: 42 }]);
      await expect(readers.run([{ sql: 'select * from no_such_table', params: [] }])).rejects.toThrow(
        'no such table: no_such_table',
      );
      // Readers only read.
      await expect(readers.run([{ sql: 'delete from passages returning seq', params: [] }])).rejects.toThrow(
        /readonly|query_only/i,
      );
      // No file, no readers.
      const memory = await openDatabase({ dataDir, sqliteFile: ':memory:' });
      expect(await sqliteReadersOf(memory.kysely, 2)).toBeUndefined();
      await memory.close();
      const one = await openDatabase({ dataDir, sqliteFile: 'one.db' });
      expect(await sqliteReadersOf(one.kysely, 1)).toBeUndefined();
      await one.close();
    } finally {
      await closeSqliteReaders(db.kysely);
      await db.close();
    }
  });
});
