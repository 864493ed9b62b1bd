import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { runPassageIndexContract, seedBot, seedFile } from './passage-index.contract.js';
import { sqlitePassageIndex } from './sqlite-passage-index.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-passages-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

runPassageIndexContract(
  'SQLite (FTS5 + sqlite-vec)',
  async () => openDatabase({ dataDir: await tempDir() }),
  {
    vectorStore: 'sqlite-vec',
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
