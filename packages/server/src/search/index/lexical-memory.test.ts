import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteMigratedTo } from '../../../../testkit/src/server/old-sqlite.js';
import { useTempDirs } from '../../../../testkit/src/server/temp-dirs.js';
import { type Db, openDatabase } from '../../db/database.js';
import { closeLexicalMemory, type LexicalMemory, lexicalMemoryOf } from './lexical-memory-client.js';
import type { PassageHit, PassageIndex } from './passage-index.js';
import { seedBot, seedFile } from './passage-index.suite.js';
import { sqliteScopedLexicalSearch } from './sqlite-lexical.js';
import { sqlitePassageIndex } from './sqlite-passage-index.js';

const tempDir = useTempDirs('parley-lexical-memory-');

type Bot = { botId: string; workspaceId: string };

/** Words with stems in common, diacritics and a few rare ones, so scores vary and tie. */
const WORDS =
  'ibex walrus heron lynx otter badger marten stoat vole shrew running runs runner café cafe naïve glacier fjord tundra'.split(
    ' ',
  );

function generator(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x;
  };
}

interface Setup {
  dataDir: string;
  db: Db;
  /** Lexical search through the in-memory index. */
  memoryIndex: PassageIndex;
  memory: LexicalMemory;
  /** What the index said failed (for the logs). */
  failures: unknown[];
  bots: Bot[];
  files: { fileId: string; bot: Bot }[];
  /** FTS5 scoring every match with its tile (the exact answer the in-memory index must give). */
  exact: (query: string, scope: { botId: string; fileIds?: string[] }, n: number) => Promise<PassageHit[]>;
}

let open: Db[] = [];
afterEach(async () => {
  for (const db of open) {
    await closeLexicalMemory(db.kysely);
    await db.close();
  }
  open = [];
});

async function setup(files = 10, perFile = 60): Promise<Setup> {
  const dataDir = await tempDir();
  const db = await openDatabase({ dataDir });
  open.push(db);
  const bots = [await seedBot(db), await seedBot(db)];
  const failures: unknown[] = [];
  const memoryIndex = sqlitePassageIndex({
    kysely: db.kysely,
    vectorIndex: { dir: false },
    lexicalMemory: true,
  });
  const next = generator(11);
  const made: Setup['files'] = [];
  for (let f = 0; f < files; f++) {
    const bot = bots[f % 2] as Bot;
    const fileId = await seedFile(db, bot);
    made.push({ fileId, bot });
    await memoryIndex.replaceFilePassages({
      fileId,
      botId: bot.botId,
      passages: Array.from({ length: perFile }, (_, position) => ({
        position,
        subtype: 'paragraph' as const,
        breadcrumb: next() % 3 === 0 ? [WORDS[next() % WORDS.length] as string, 'Guide'] : [],
        content: Array.from({ length: 3 + (next() % 30) }, () => WORDS[next() % WORDS.length]).join(' '),
      })),
    });
  }
  const memory = await lexicalMemoryOf(db.kysely, (e) => failures.push(e));
  if (!memory) throw new Error('a database file has an in-memory lexical index');
  const scoped = sqliteScopedLexicalSearch(db.kysely, 2, 2);
  return {
    dataDir,
    db,
    memoryIndex,
    memory,
    failures,
    bots,
    files: made,
    exact: (query, scope, n) => scoped(query, { visibility: { kind: 'all' }, ...scope }, n),
  };
}

/** Same passages in the same order with the same scores (to 1e-9: FTS5's and V8's log may differ in the last bit). */
function expectSame(got: PassageHit[], want: PassageHit[]) {
  expect(got.map((h) => h.passageId)).toEqual(want.map((h) => h.passageId));
  got.forEach((h, i) => {
    expect(h.score).toBeCloseTo(want[i]?.score as number, 9);
  });
}

describe('the in-memory lexical index (SQLite)', () => {
  it("answers FTS5's own scores, every match and its tile scored, for each bot", async () => {
    const s = await setup();
    // Before it has read the database, FTS5 answers (the same passages).
    await s.memory.settled();
    const answered = s.memory.counts.answered;
    const queries = [
      'ibex',
      'walrus heron',
      'runs',
      'Running runner',
      'Café naive',
      'fjord tundra glacier stoat',
      'GUIDE',
    ];
    for (const bot of s.bots) {
      const scope = { botId: bot.botId, visibility: { kind: 'all' as const } };
      for (const query of queries) {
        for (const n of [1, 20, 400]) {
          const want = await s.exact(query, scope, n);
          expect(want.length).toBeGreaterThan(0);
          expectSame(await s.memoryIndex.lexicalSearch(query, scope, n), want);
        }
      }
      // A word no passage has, and a query of stopwords only that no passage has.
      expect(await s.memoryIndex.lexicalSearch('aardvark', scope, 10)).toEqual([]);
      expect(await s.memoryIndex.lexicalSearch('the of', scope, 10)).toEqual([]);
    }
    expect(s.memory.counts.answered).toBe(answered + 2 * (queries.length * 3 + 2));
    expect(s.memory.counts.failed).toBe(0);
  });

  it('follows every change: replaced, deleted (by cascade too) and written by another connection', async () => {
    const s = await setup(6, 40);
    await s.memory.settled();
    const [first, second, third] = s.files as [Setup['files'][0], Setup['files'][0], Setup['files'][0]];
    const scope = { botId: first.bot.botId, visibility: { kind: 'all' as const } };
    const check = async (query: string) => {
      const answered = s.memory.counts.answered;
      const got = await s.memoryIndex.lexicalSearch(query, scope, 50);
      expect(s.memory.counts.answered).toBe(answered + 1);
      expectSame(got, await s.exact(query, scope, 50));
      return got;
    };
    // Replaced through the index: the new words are found at once, the old ones are gone.
    await s.memoryIndex.replaceFilePassages({
      fileId: first.fileId,
      botId: first.bot.botId,
      passages: [
        { position: 0, subtype: 'paragraph', breadcrumb: [], content: 'ocelot ocelot ibex' },
        { position: 9, subtype: 'paragraph', breadcrumb: ['Ocelots'], content: 'walrus' },
      ],
    });
    expect((await check('ocelot')).map((h) => h.fileId)).toEqual([first.fileId, first.fileId]);
    await check('ibex walrus');
    // The file deleted: its passages go by cascade, not through the index.
    await s.db.kysely.deleteFrom('files').where('id', '=', first.fileId).execute();
    expect(await check('ocelot')).toEqual([]);
    await check('ibex heron');
    // Another connection (another process) writes: seen before the next search.
    const other = await openDatabase({ dataDir: s.dataDir });
    try {
      const theirs = sqlitePassageIndex({ kysely: other.kysely, vectorIndex: { dir: false } });
      await theirs.replaceFilePassages({
        fileId: third.fileId,
        botId: third.bot.botId,
        passages: [{ position: 0, subtype: 'paragraph', breadcrumb: [], content: 'lemming ibex ibex ibex' }],
      });
      await theirs.deleteFile(second.fileId);
    } finally {
      await other.close();
    }
    expect((await check('lemming')).map((h) => h.fileId)).toEqual([third.fileId]);
    await check('ibex walrus heron');
  });

  it('leaves to FTS5 what it cannot answer: phrases, narrow scopes, a failed worker', async () => {
    const s = await setup(4, 50);
    await s.memory.settled();
    const bot = s.bots[0] as Bot;
    const scope = { botId: bot.botId, visibility: { kind: 'all' as const } };
    await s.memoryIndex.replaceFilePassages({
      fileId: s.files[0]?.fileId as string,
      botId: bot.botId,
      passages: [
        { position: 0, subtype: 'paragraph', breadcrumb: [], content: 'write an e-mail to the ibex' },
      ],
    });
    // A term of several tokens is a phrase: FTS5's.
    const phrases = s.memory.counts.phrase;
    const got = await s.memoryIndex.lexicalSearch('e-mail ibex', scope, 10);
    expect(s.memory.counts.phrase).toBe(phrases + 1);
    expect(got[0]?.fileId).toBe(s.files[0]?.fileId);
    // A scope of one file: the bot's matches (fewer than 400) kept in scope.
    const narrow = { ...scope, fileIds: [s.files[2]?.fileId as string] };
    expectSame(await s.memoryIndex.lexicalSearch('ibex', narrow, 30), await s.exact('ibex', narrow, 30));
    // The worker dies: that search is FTS5's, the next starts a new worker, which reads the database again.
    await s.memory.crash();
    const want = await s.exact('walrus', scope, 20);
    expectSame(await s.memoryIndex.lexicalSearch('walrus', scope, 20), want);
    await s.memory.settled();
    const answered = s.memory.counts.answered;
    expectSame(await s.memoryIndex.lexicalSearch('walrus', scope, 20), want);
    expect(s.memory.counts.answered).toBe(answered + 1);
    // Closed (at shutdown): FTS5 answers.
    await closeLexicalMemory(s.db.kysely);
    expectSame(await s.memoryIndex.lexicalSearch('walrus', scope, 20), want);
  });

  it('stays exact when most of a bot is deleted (its postings compacted)', async () => {
    const s = await setup(6, 600);
    await s.memory.settled();
    const bot = s.bots[0] as Bot;
    const scope = { botId: bot.botId, visibility: { kind: 'all' as const } };
    const mine = s.files.filter((f) => f.bot === bot);
    // A scope of one file that keeps fewer of the best 400 than asked for: FTS5 over every match in scope.
    const narrow = { ...scope, fileIds: [mine[0]?.fileId as string] };
    expectSame(await s.memoryIndex.lexicalSearch('ibex', narrow, 300), await s.exact('ibex', narrow, 300));
    // 1,200 of its 1,800 passages go: more than half dead (and over 1,024), so its postings are compacted.
    for (const f of mine.slice(0, 2))
      await s.db.kysely.deleteFrom('files').where('id', '=', f.fileId).execute();
    for (const query of ['ibex', 'glacier runs', 'café']) {
      expectSame(await s.memoryIndex.lexicalSearch(query, scope, 100), await s.exact(query, scope, 100));
    }
    // The last file, renumbered by the compaction, is still replaced and deleted correctly.
    const last = mine[2]?.fileId as string;
    await s.memoryIndex.replaceFilePassages({
      fileId: last,
      botId: bot.botId,
      passages: [{ position: 0, subtype: 'paragraph', breadcrumb: [], content: 'ibex alone' }],
    });
    expectSame(await s.memoryIndex.lexicalSearch('ibex', scope, 100), await s.exact('ibex', scope, 100));
    expect(await s.memoryIndex.lexicalSearch('ibex', scope, 100)).toHaveLength(1);
    await s.db.kysely.deleteFrom('files').where('id', '=', last).execute();
    expect(await s.memoryIndex.lexicalSearch('ibex', scope, 100)).toEqual([]);
    // The other bot is untouched.
    const other = { botId: (s.bots[1] as Bot).botId, visibility: { kind: 'all' as const } };
    expectSame(await s.memoryIndex.lexicalSearch('ibex', other, 100), await s.exact('ibex', other, 100));
  });

  it('reads the passages indexed before the migration that added the change log', async () => {
    const dataDir = await tempDir();
    const old = await sqliteMigratedTo(dataDir, '0013_resumable_uploads');
    const kysely = old.kysely;
    const bot = await seedBot(old);
    // Today's writer also fills `terms` (0028): the column stands in while it writes, and goes again before the
    // database is opened, so the passages are what a 0013 database held.
    await sql`alter table passages add column terms text`.execute(kysely);
    const before = sqlitePassageIndex({ kysely, vectorIndex: { dir: false } });
    for (let f = 0; f < 3; f++) {
      const fileId = await seedFile(old, bot);
      await before.replaceFilePassages({
        fileId,
        botId: bot.botId,
        passages: Array.from({ length: 12 }, (_, position) => ({
          position,
          subtype: 'paragraph' as const,
          breadcrumb: [],
          content: `ibex ${f} walrus ${position % 3 === 0 ? 'heron' : 'lynx'}`,
        })),
      });
    }
    await sql`alter table passages drop column terms`.execute(kysely);
    await old.close();

    const db = await openDatabase({ dataDir });
    open.push(db);
    const index = sqlitePassageIndex({ kysely: db.kysely, vectorIndex: { dir: false }, lexicalMemory: true });
    const memory = await lexicalMemoryOf(db.kysely);
    expect(await memory?.settled()).toBe(36);
    const scope = { botId: bot.botId, visibility: { kind: 'all' as const } };
    const exact = sqliteScopedLexicalSearch(db.kysely, 2, 2);
    for (const query of ['ibex', 'heron walrus', 'lynx']) {
      const answered = memory?.counts.answered ?? 0;
      const got = await index.lexicalSearch(query, scope, 40);
      expect(memory?.counts.answered).toBe(answered + 1);
      expect(got.length).toBeGreaterThan(0);
      expectSame(got, await exact(query, scope, 40));
    }
  });

  it('says when it cannot read the database, and FTS5 answers', async () => {
    const s = await setup(2, 30);
    await s.memory.settled();
    const scope = { botId: (s.bots[0] as Bot).botId, visibility: { kind: 'all' as const } };
    const want = await s.exact('ibex walrus', scope, 10);
    expect(want.length).toBeGreaterThan(0);
    // The change log gone, as in a damaged database: the worker's read fails, the search is FTS5's.
    await sql`drop table passage_changes`.execute(s.db.kysely);
    expectSame(await s.memoryIndex.lexicalSearch('ibex walrus', scope, 10), want);
    expect(s.memory.counts.failed).toBe(1);
    expect(s.failures).toHaveLength(1);
    expect(String(s.failures[0])).toContain('no such table: passage_changes');
  });
});
