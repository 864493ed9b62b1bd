import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { sqliteMigratedTo } from '../../../../testkit/src/server/old-sqlite.js';
import { useTempDirs } from '../../../../testkit/src/server/temp-dirs.js';
import { type Db, openDatabase } from '../../db/database.js';
import type { IndexedPassage } from './passage-index.js';
import { runPassageIndexSuite, seedBot, seedFile } from './passage-index.suite.js';
import { sqlitePassageIndex } from './sqlite-passage-index.js';
import { closeSqliteReaders } from './sqlite-readers.js';

const tempDir = useTempDirs('parley-passages-');

runPassageIndexSuite('SQLite (FTS5 + sqlite-vec)', async () => openDatabase({ dataDir: await tempDir() }), {
  vectorStore: 'sqlite-vec',
});

// Every lexical search split across two reader threads, however few passages it covers.
runPassageIndexSuite(
  'SQLite, lexical search split across reader threads',
  async () => openDatabase({ dataDir: await tempDir() }),
  {
    vectorStore: 'sqlite-vec',
    index: {
      make: (db) => sqlitePassageIndex({ kysely: db.kysely, lexicalThreads: 2, lexicalSplitMin: 0 }),
      close: (db) => closeSqliteReaders(db.kysely),
    },
  },
);

describe('SQLite passage index', () => {
  it('keeps vectors and the full-text index across a close and a reopen, and cascades a bot’s deletion', async () => {
    const dataDir = await tempDir();
    const first = await openDatabase({ dataDir });
    const bot = await seedBot(first);
    const fileId = await seedFile(first, bot);
    const [id] = await sqlitePassageIndex({ kysely: first.kysely }).replaceFilePassages({
      fileId,
      botId: bot.botId,
      passages: [
        {
          position: 0,
          content: 'persistent capybara',
          subtype: 'paragraph',
          breadcrumb: [],
          embedding: new Float32Array([0, 1]),
        },
      ],
      model: { id: 'm', dimensions: 2 },
    });
    await first.close();

    const second = await openDatabase({ dataDir });
    try {
      const index = sqlitePassageIndex({ kysely: second.kysely });
      const scope = { botId: bot.botId, visibility: { kind: 'all' as const } };
      expect((await index.lexicalSearch('capybaras', scope, 5)).map((h) => h.passageId)).toEqual([id]);
      expect(
        (await index.vectorSearch(new Float32Array([0.1, 1]), scope, 5)).map((h) => h.passageId),
      ).toEqual([id]);
      // FTS5 checks its index against the passages table.
      await sql`insert into passages_fts(passages_fts, rank) values ('integrity-check', 1)`.execute(
        second.kysely,
      );
      // Deleting the bot cascades to its files, their passages, the FTS5 rows and the vectors.
      await second.kysely.deleteFrom('bots').where('id', '=', bot.botId).execute();
      const left = await sql<{ n: number }>`
        select (select count(*) from passages) + (select count(*) from passage_vectors) as n`.execute(
        second.kysely,
      );
      expect(left.rows[0]?.n).toBe(0);
      expect(await index.lexicalSearch('capybara', scope, 5)).toEqual([]);
      await sql`insert into passages_fts(passages_fts, rank) values ('integrity-check', 1)`.execute(
        second.kysely,
      );
    } finally {
      await second.close();
    }
  });
});

const paragraph = (position: number, content: string): IndexedPassage => ({
  position,
  content,
  subtype: 'paragraph',
  breadcrumb: [],
});

/** Files of unrelated text, so that the words of a test are rare and their bm25 means something. */
async function seedFiller(db: Db, bot: { botId: string; workspaceId: string }, files = 12): Promise<void> {
  const index = sqlitePassageIndex({ kysely: db.kysely });
  const topics = ['river boats', 'winter soup', 'train timetable', 'garden fence', 'chess opening'];
  for (let f = 0; f < files; f++) {
    const fileId = await seedFile(db, bot);
    await index.replaceFilePassages({
      fileId,
      botId: bot.botId,
      passages: topics.map((t, i) => paragraph(i, `Notes ${f} on ${t}, item ${i}.`)),
    });
  }
}

const count = async (db: Db, table: 'passage_tiles' | 'passages') =>
  (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db.kysely)).rows[0]?.n;

/** Runs `test` on a fresh database holding one bot, with the SQLite passage index over it; closes it after. */
async function withBotIndex(
  test: (ctx: {
    db: Db;
    bot: Awaited<ReturnType<typeof seedBot>>;
    index: ReturnType<typeof sqlitePassageIndex>;
  }) => Promise<void>,
): Promise<void> {
  const db = await openDatabase({ dataDir: await tempDir() });
  try {
    const bot = await seedBot(db);
    await test({ db, bot, index: sqlitePassageIndex({ kysely: db.kysely }) });
  } finally {
    await db.close();
  }
}

/** The ids of the bot's passages a lexical search of `query` answers (10 at most, best first) at `tileWeight`. */
async function lexicalIds(db: Db, botId: string, query: string, tileWeight?: number): Promise<string[]> {
  const index = sqlitePassageIndex({
    kysely: db.kysely,
    ...(tileWeight === undefined ? {} : { tileWeight }),
  });
  const hits = await index.lexicalSearch(query, { botId, visibility: { kind: 'all' } }, 10);
  return hits.map((h) => h.passageId);
}

describe('SQLite lexical ranking with passage tiles', () => {
  it('ranks a passage by the words of its tile too, but finds it only by its own', () =>
    withBotIndex(async ({ db, bot, index }) => {
      await seedFiller(db, bot);
      const [a, b] = [await seedFile(db, bot), await seedFile(db, bot)];
      const aIds = await index.replaceFilePassages({
        fileId: a,
        botId: bot.botId,
        passages: [
          paragraph(0, 'The capybara is the largest rodent of the world, a grazer of grasses.'),
          paragraph(1, 'It lives near wetlands.'),
          paragraph(2, 'Unrelated closing remark.'),
        ],
      });
      const bIds = await index.replaceFilePassages({
        fileId: b,
        botId: bot.botId,
        passages: [paragraph(0, 'A capybara statue.'), paragraph(1, 'The park opens at nine.')],
      });
      const ids = (tileWeight?: number) => lexicalIds(db, bot.botId, 'capybara wetlands', tileWeight);
      // Alone, the short statue passage is the better capybara match; its tile does not mention wetlands.
      const alone = await ids(0);
      expect(alone.indexOf(bIds[0] as string)).toBeLessThan(alone.indexOf(aIds[0] as string));
      // With its tile (capybara, and wetlands next to it), the rodent passage overtakes it.
      const ranked = await ids();
      expect(ranked.indexOf(aIds[0] as string)).toBeLessThan(ranked.indexOf(bIds[0] as string));
      // Passages without a query word of their own are never answered, whatever their tile holds.
      expect(new Set(ranked)).toEqual(new Set([aIds[0], aIds[1], bIds[0]]));
    }));

  it('groups 8 consecutive passages of a file per tile', () =>
    withBotIndex(async ({ db, bot, index }) => {
      await seedFiller(db, bot);
      const fileId = await seedFile(db, bot);
      // Positions 7 and 8 hold the same word; position 8 is the closer match on its own, but only the
      // tile of 0–7 also holds "zebra".
      const passages = Array.from({ length: 10 }, (_, i) => paragraph(i, `Filler line number ${i}.`));
      passages[0] = paragraph(0, 'A zebra grazes.');
      passages[7] = paragraph(7, 'Seen at dawn near the water hole, an okapi.');
      passages[8] = paragraph(8, 'An okapi.');
      const ids = await index.replaceFilePassages({ fileId, botId: bot.botId, passages });
      expect(await count(db, 'passage_tiles')).toBe(12 + 2);
      const okapi = async (tileWeight?: number) =>
        (await lexicalIds(db, bot.botId, 'okapi zebra', tileWeight)).filter(
          (id) => id === ids[7] || id === ids[8],
        );
      expect(await okapi(0)).toEqual([ids[8], ids[7]]);
      expect(await okapi()).toEqual([ids[7], ids[8]]);
    }));

  it('keeps the tiles in step with the passages: replaced, deleted, cascaded', () =>
    withBotIndex(async ({ db, bot, index }) => {
      const fileId = await seedFile(db, bot);
      const scope = { botId: bot.botId, visibility: { kind: 'all' as const } };
      const passages = (word: string, n: number) =>
        Array.from({ length: n }, (_, i) => paragraph(i, `${word} ${i}`));
      await index.replaceFilePassages({ fileId, botId: bot.botId, passages: passages('walrus', 17) });
      expect(await count(db, 'passage_tiles')).toBe(3);
      await index.replaceFilePassages({ fileId, botId: bot.botId, passages: passages('narwhal', 3) });
      expect(await count(db, 'passage_tiles')).toBe(1);
      expect(await index.lexicalSearch('walrus', scope, 10)).toEqual([]);
      const tiles = await sql<{ seq: number }>`
        select rowid as seq from passage_tiles where passage_tiles match 'walrus'`.execute(db.kysely);
      expect(tiles.rows).toEqual([]);
      expect(await index.lexicalSearch('narwhal', scope, 10)).toHaveLength(3);
      await index.deleteFile(fileId);
      expect(await count(db, 'passage_tiles')).toBe(0);
      const other = await seedFile(db, bot);
      await index.replaceFilePassages({ fileId: other, botId: bot.botId, passages: passages('beluga', 9) });
      await db.kysely.deleteFrom('bots').where('id', '=', bot.botId).execute();
      expect(await count(db, 'passage_tiles')).toBe(0);
      expect(await count(db, 'passages')).toBe(0);
    }));

  it('builds the tiles of passages indexed before the migration that added them', async () => {
    const dataDir = await tempDir();
    const old = await sqliteMigratedTo(dataDir, '0004_jobs_and_knowledge_bases');
    const kysely = old.kysely;
    const bot = await seedBot(old);
    const fileId = await seedFile(old, bot);
    // As the old passage index wrote them: passages only (triggers index passages_fts).
    for (let i = 0; i < 10; i++) {
      await sql`insert into passages (id, file_id, bot_id, position, subtype, content, breadcrumb)
        values (${`passage_old_${i}`}, ${fileId}, ${bot.botId}, ${i}, 'paragraph', ${i === 9 ? 'ibex tracks' : `ibex ${i}`}, '[]')`.execute(
        kysely,
      );
    }
    await old.close();

    const db = await openDatabase({ dataDir });
    try {
      expect(await count(db, 'passage_tiles')).toBe(2);
      const tiles = await sql<{ seq: number }>`
        select rowid as seq from passage_tiles where passage_tiles match 'tracks'`.execute(db.kysely);
      const nine = await sql<{ seq: number }>`
        select seq from passages where id = 'passage_old_9'`.execute(db.kysely);
      const eight = await sql<{ seq: number }>`
        select seq from passages where id = 'passage_old_8'`.execute(db.kysely);
      expect(tiles.rows.map((r) => r.seq)).toEqual([
        Math.min(nine.rows[0]?.seq ?? 0, eight.rows[0]?.seq ?? 0),
      ]);
      const index = sqlitePassageIndex({ kysely: db.kysely });
      const scope = { botId: bot.botId, visibility: { kind: 'all' as const } };
      expect(await index.lexicalSearch('ibex', scope, 20)).toHaveLength(10);
      await index.deleteFile(fileId);
      expect(await count(db, 'passage_tiles')).toBe(0);
    } finally {
      await db.close();
    }
  });
});
