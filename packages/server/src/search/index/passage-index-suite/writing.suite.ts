import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { EmbeddingModelMismatchError, type IndexedPassage } from '../passage-index.js';
import { MODEL, type PassageSuite, vec } from './kit.suite.js';

/** The PassageIndex suite on its model, and writing and deleting passages. */
export function writingCases(s: PassageSuite): void {
  const { newBot, newFile, passage, indexed, indexedNewBot, all, fileIdsOf } = s;

  describe('model', () => {
    it('has no model and finds no vectors before one is set', async () => {
      expect(await s.index.modelInfo()).toBeUndefined();
      const bot = await newBot();
      expect(await s.index.vectorSearch(vec(1, 0, 0, 0), all(bot.botId), 5)).toEqual([]);
      expect(await s.index.staleFiles(10)).toEqual([]);
      expect(await s.index.unembeddedFiles(10)).toEqual([]);
    });

    it('records the model and how vectors are stored; setting it again changes nothing', async () => {
      const first = await s.index.setModel(MODEL);
      expect(first).toEqual({ changed: true, info: { ...MODEL, vectorStore: s.options.vectorStore } });
      expect(await s.index.modelInfo()).toEqual({ ...MODEL, vectorStore: s.options.vectorStore });
      const again = await s.index.setModel({ ...MODEL });
      expect(again.changed).toBe(false);
    });

    it('refuses a model without an id or with an impossible width', async () => {
      await expect(s.index.setModel({ id: '', dimensions: 4 })).rejects.toThrow(/id/);
      await expect(s.index.setModel({ id: 'x', dimensions: 0 })).rejects.toThrow(/dimensions/);
      await expect(s.index.setModel({ id: 'x', dimensions: 2.5 })).rejects.toThrow(/dimensions/);
      expect((await s.index.modelInfo())?.id).toBe(MODEL.id);
    });
  });

  describe('writing passages', () => {
    it('stores a file’s passages in order with their type, page and breadcrumb', async () => {
      const { bot, fileId, ids } = await indexedNewBot([
        passage(0, 'Getting started', { breadcrumb: [] }, 'title'),
        passage(1, 'Install the package.', { breadcrumb: ['Getting started'], pageNumber: 2 }),
        passage(2, '- one\n- two', { breadcrumb: ['Getting started', 'Lists'] }, 'list'),
      ]);
      expect(ids).toHaveLength(3);
      expect(new Set(ids).size).toBe(3);
      const listed = await s.index.listFilePassages(fileId, 10);
      expect(listed).toEqual([
        {
          id: ids[0],
          fileId,
          botId: bot.botId,
          position: 0,
          subtype: 'title',
          content: 'Getting started',
          breadcrumb: [],
        },
        {
          id: ids[1],
          fileId,
          botId: bot.botId,
          position: 1,
          subtype: 'paragraph',
          pageNumber: 2,
          content: 'Install the package.',
          breadcrumb: ['Getting started'],
        },
        {
          id: ids[2],
          fileId,
          botId: bot.botId,
          position: 2,
          subtype: 'list',
          content: '- one\n- two',
          breadcrumb: ['Getting started', 'Lists'],
        },
      ]);
    });

    it('answers passages by id in the order asked, leaving unknown ids out', async () => {
      const { ids } = await indexedNewBot([passage(0, 'zero'), passage(1, 'one'), passage(2, 'two')]);
      const got = await s.index.getPassages([ids[2] as string, 'passage_unknown', ids[0] as string]);
      expect(got.map((p) => p.content)).toEqual(['two', 'zero']);
      expect(await s.index.getPassages([])).toEqual([]);
    });

    it('marks passages with the model of their vector', async () => {
      const { fileId } = await indexedNewBot([
        passage(0, 'with a vector', { embedding: vec(1, 0, 0, 0) }),
        passage(1, 'without'),
      ]);
      const [a, b] = await s.index.listFilePassages(fileId, 10);
      expect(a?.modelId).toBe(MODEL.id);
      expect(b).not.toHaveProperty('modelId');
    });

    it('replaces every passage of a file: the old ones are gone from reads and searches', async () => {
      const {
        bot,
        fileId,
        ids: old,
      } = await indexedNewBot([
        passage(0, 'obsolete walrus text', { embedding: vec(1, 0, 0, 0) }),
        passage(1, 'more walrus', { embedding: vec(0.9, 0.1, 0, 0) }),
      ]);
      const fresh = await s.index.replaceFilePassages({
        fileId,
        botId: bot.botId,
        passages: [passage(0, 'current narwhal text', { embedding: vec(0, 1, 0, 0) })],
        model: MODEL,
      });
      expect(await s.index.getPassages(old)).toEqual([]);
      expect((await s.index.listFilePassages(fileId, 10)).map((p) => p.id)).toEqual(fresh);
      expect(await s.index.lexicalSearch('walrus', all(bot.botId), 10)).toEqual([]);
      expect((await s.index.lexicalSearch('narwhal', all(bot.botId), 10)).map((h) => h.passageId)).toEqual(
        fresh,
      );
      const near = await s.index.vectorSearch(vec(1, 0, 0, 0), all(bot.botId), 10);
      expect(near.map((h) => h.passageId)).toEqual(fresh);
    });

    it('replaces with an empty list to clear a file', async () => {
      const { bot, fileId } = await indexedNewBot([passage(0, 'something')]);
      expect(await s.index.replaceFilePassages({ fileId, botId: bot.botId, passages: [] })).toEqual([]);
      expect(await s.index.listFilePassages(fileId, 10)).toEqual([]);
    });

    it('keeps the old passages when a write fails part-way (one transaction)', async () => {
      const { bot, fileId, ids } = await indexedNewBot([passage(0, 'original kept')]);
      const many = Array.from({ length: 700 }, (_, i) =>
        passage(i, `new ${i}`, { embedding: vec(1, 0, 0, 0) }),
      );
      // A null content fails in the second insert batch, after the delete and the first batch.
      (many[650] as { content: unknown }).content = null;
      await expect(
        s.index.replaceFilePassages({ fileId, botId: bot.botId, passages: many, model: MODEL }),
      ).rejects.toThrow();
      expect((await s.index.listFilePassages(fileId, 1000)).map((p) => p.id)).toEqual(ids);
      expect(await s.index.lexicalSearch('original', all(bot.botId), 10)).toHaveLength(1);
      expect(await s.index.lexicalSearch('new', all(bot.botId), 10)).toEqual([]);
      expect((await s.index.storage({ botId: bot.botId })).passages).toBe(1);
    });

    it('never shows a mix of two versions to readers while files are re-indexed', async () => {
      const bot = await newBot();
      const fileId = await newFile(bot);
      const version = (v: number) =>
        Array.from({ length: 40 }, (_, i) =>
          passage(i, `version${v} part ${i}`, { embedding: vec(1, v, 0, 0) }),
        );
      await s.index.replaceFilePassages({ fileId, botId: bot.botId, passages: version(0), model: MODEL });
      const reads: Promise<string[]>[] = [];
      const writes: Promise<unknown>[] = [];
      for (let v = 1; v <= 6; v++) {
        writes.push(
          s.index.replaceFilePassages({ fileId, botId: bot.botId, passages: version(v), model: MODEL }),
        );
        reads.push(
          s.index
            .listFilePassages(fileId, 100)
            .then((ps) => ps.map((p) => p.content.split(' ')[0] as string)),
        );
      }
      await Promise.all(writes);
      for (const seen of await Promise.all(reads)) {
        expect(seen).toHaveLength(40);
        expect(new Set(seen).size).toBe(1);
      }
      expect(await s.index.listFilePassages(fileId, 100)).toHaveLength(40);
    });

    it('refuses passages of another bot’s file, or of a missing file', async () => {
      const bot = await newBot();
      const other = await newBot();
      const fileId = await newFile(bot);
      await expect(
        s.index.replaceFilePassages({ fileId, botId: other.botId, passages: [passage(0, 'x')] }),
      ).rejects.toThrow(/not a file of bot/);
      await expect(
        s.index.replaceFilePassages({
          fileId: 'file_missing',
          botId: bot.botId,
          passages: [passage(0, 'x')],
        }),
      ).rejects.toThrow(/does not exist/);
    });

    it('refuses vectors of the wrong width, vectors without a model, and repeated positions', async () => {
      const bot = await newBot();
      const fileId = await newFile(bot);
      const write = (passages: IndexedPassage[], withModel = true) =>
        s.index.replaceFilePassages({
          fileId,
          botId: bot.botId,
          passages,
          model: withModel ? MODEL : undefined,
        });
      await expect(write([passage(0, 'x', { embedding: vec(1, 0, 0) })])).rejects.toThrow(/dimensions/);
      await expect(write([passage(0, 'x', { embedding: vec(1, 0, 0, 0) })], false)).rejects.toThrow(/model/);
      await expect(write([passage(0, 'x', { embedding: vec(1, Number.NaN, 0, 0) })])).rejects.toThrow(
        /finite/,
      );
      await expect(write([passage(0, 'x'), passage(0, 'y')])).rejects.toThrow(/position/);
    });

    it('refuses vectors of another model than the index’s', async () => {
      const bot = await newBot();
      const fileId = await newFile(bot);
      await expect(
        s.index.replaceFilePassages({
          fileId,
          botId: bot.botId,
          passages: [passage(0, 'x', { embedding: vec(1, 0, 0, 0) })],
          model: { id: 'another-model', dimensions: 4 },
        }),
      ).rejects.toBeInstanceOf(EmbeddingModelMismatchError);
    });
  });

  describe('deleting', () => {
    it('deleteFile removes a file’s passages and vectors at once', async () => {
      const { bot, fileId, ids } = await indexedNewBot([
        passage(0, 'ephemeral platypus', { embedding: vec(0, 0, 1, 0) }),
      ]);
      await s.index.deleteFile(fileId);
      expect(await s.index.getPassages(ids)).toEqual([]);
      expect(await s.index.lexicalSearch('platypus', all(bot.botId), 10)).toEqual([]);
      expect(await s.index.vectorSearch(vec(0, 0, 1, 0), all(bot.botId), 10)).toEqual([]);
      expect(await s.index.storage({ botId: bot.botId })).toMatchObject({ passages: 0, vectors: 0 });
    });

    it('deleting the file row removes its passages and vectors by cascade', async () => {
      const { bot, fileId, ids } = await indexedNewBot([
        passage(0, 'cascading axolotl', { embedding: vec(0, 0, 0, 1) }),
      ]);
      const kept = await indexed(bot, [passage(0, 'staying axolotl', { embedding: vec(0, 0, 0.9, 0.1) })]);
      await s.db.kysely.deleteFrom('files').where('id', '=', fileId).execute();
      expect(await s.index.getPassages(ids)).toEqual([]);
      expect(fileIdsOf(await s.index.lexicalSearch('axolotl', all(bot.botId), 10))).toEqual([kept.fileId]);
      expect(fileIdsOf(await s.index.vectorSearch(vec(0, 0, 0, 1), all(bot.botId), 10))).toEqual([
        kept.fileId,
      ]);
      expect(await s.index.storage({ botId: bot.botId })).toMatchObject({ passages: 1, vectors: 1 });
      if (s.db.dialect === 'sqlite') {
        const left = await sql<{
          n: number;
        }>`select count(*) as n from passage_vectors where bot_id = ${bot.botId}`.execute(s.db.kysely);
        expect(left.rows[0]?.n).toBe(1);
      }
    });
  });
}
