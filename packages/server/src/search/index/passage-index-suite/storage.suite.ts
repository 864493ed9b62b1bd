import { describe, expect, it } from 'vitest';
import { newBotId } from '../../../ids.js';
import { EmbeddingModelMismatchError } from '../passage-index.js';
import { MODEL, type PassageSuite, vec } from './kit.suite.js';

/** The PassageIndex suite on reading a file's passages, storage, files without vectors and a change of model. */
export function storageCases(s: PassageSuite): void {
  const { newBot, passage, indexed, indexedNewBot, all } = s;

  describe('reading a file’s passages', () => {
    it('lists a file’s passages page by page after a position', async () => {
      const bot = await newBot();
      const { fileId, ids } = await indexed(
        bot,
        Array.from({ length: 7 }, (_, i) => passage(i, `p${i}`)),
      );
      const page1 = await s.index.listFilePassages(fileId, 3);
      expect(page1.map((p) => p.id)).toEqual(ids.slice(0, 3));
      const page2 = await s.index.listFilePassages(fileId, 3, page1[2]?.position);
      expect(page2.map((p) => p.id)).toEqual(ids.slice(3, 6));
      const page3 = await s.index.listFilePassages(fileId, 3, page2[2]?.position);
      expect(page3.map((p) => p.id)).toEqual(ids.slice(6));
      expect(await s.index.listFilePassages(fileId, 3, 6)).toEqual([]);
    });

    it('answers the neighbours of a passage within a depth, itself included, clipped at the ends', async () => {
      const bot = await newBot();
      const { fileId } = await indexed(
        bot,
        Array.from({ length: 6 }, (_, i) => passage(i, `n${i}`)),
      );
      expect((await s.index.neighbours(fileId, 2, 1)).map((p) => p.content)).toEqual(['n1', 'n2', 'n3']);
      expect((await s.index.neighbours(fileId, 0, 2)).map((p) => p.content)).toEqual(['n0', 'n1', 'n2']);
      expect((await s.index.neighbours(fileId, 5, 10)).map((p) => p.position)).toEqual([0, 1, 2, 3, 4, 5]);
      expect((await s.index.neighbours(fileId, 3, 0)).map((p) => p.content)).toEqual(['n3']);
    });
  });

  describe('storage', () => {
    it('counts passages, vectors and their bytes per bot and per workspace', async () => {
      const bot = await newBot();
      const botB = await newBot();
      await indexed(bot, [
        passage(0, 'abc', { embedding: vec(1, 0, 0, 0) }),
        passage(1, 'é', { embedding: vec(0, 1, 0, 0) }),
        passage(2, 'no vector'),
      ]);
      await indexed(botB, [passage(0, 'xyz', { embedding: vec(1, 0, 0, 0) })]);
      expect(await s.index.storage({ botId: bot.botId })).toEqual({
        passages: 3,
        vectors: 2,
        vectorBytes: 2 * MODEL.dimensions * 4,
        contentBytes: 3 + 2 + 9,
      });
      expect(await s.index.storage({ workspaceId: bot.workspaceId })).toEqual(
        await s.index.storage({ botId: bot.botId }),
      );
      expect(await s.index.storage({ botId: newBotId() })).toEqual({
        passages: 0,
        vectors: 0,
        vectorBytes: 0,
        contentBytes: 0,
      });
    });
  });

  describe('files without vectors', () => {
    it('lists the files done indexing that have passages without a vector, by id, a page after another', async () => {
      const bot = await newBot();
      const vector = vec(1, 0, 0, 0);
      const mixed = await indexed(bot, [passage(0, 'half', { embedding: vector }), passage(1, 'bare')]);
      const bare = await indexed(bot, [passage(0, 'bare')]);
      const embedded = await indexed(bot, [passage(0, 'whole', { embedding: vector })]);
      const empty = await indexed(bot, []);
      const pending = await indexed(bot, [passage(0, 'bare')], { status: 'indexing_pending' });
      const failed = await indexed(bot, [passage(0, 'bare')], { status: 'indexing_failed' });

      const listed = await s.index.unembeddedFiles(1000);
      expect(listed).toEqual([...listed].sort());
      expect(listed).toEqual(expect.arrayContaining([mixed.fileId, bare.fileId]));
      for (const f of [embedded, empty, pending, failed]) expect(listed).not.toContain(f.fileId);
      // A page after another: the one after a listed file is the next one listed.
      const at = listed.indexOf(mixed.fileId);
      expect(await s.index.unembeddedFiles(1, mixed.fileId)).toEqual(listed.slice(at + 1, at + 2));
      expect(await s.index.unembeddedFiles(1000, listed[listed.length - 1])).toEqual([]);
      expect(await s.index.unembeddedFiles(0)).toEqual([]);

      // Embedded, or deleted, a file leaves the list.
      await s.index.replaceFilePassages({
        fileId: mixed.fileId,
        botId: bot.botId,
        passages: [passage(0, 'half', { embedding: vector }), passage(1, 'bare', { embedding: vector })],
        model: MODEL,
      });
      await s.index.deleteFile(bare.fileId);
      const after = await s.index.unembeddedFiles(1000);
      expect(after).not.toContain(mixed.fileId);
      expect(after).not.toContain(bare.fileId);
    });
  });

  // Last: a model change drops every vector of the database.
  describe('changing the model', () => {
    it('drops every vector, lists files to re-embed, and takes vectors of the new width', async () => {
      const { bot, fileId } = await indexedNewBot([passage(0, 'jaguar', { embedding: vec(1, 0, 0, 0) })]);
      expect(await s.index.staleFiles(1000)).not.toContain(fileId);
      const next = { id: 'next-model-3d', dimensions: 3 };
      const changed = await s.index.setModel(next);
      expect(changed).toEqual({ changed: true, info: { ...next, vectorStore: s.options.vectorStore } });
      expect(await s.index.vectorSearch(vec(1, 0, 0), all(bot.botId), 10)).toEqual([]);
      expect(await s.index.storage({ botId: bot.botId })).toMatchObject({
        passages: 1,
        vectors: 0,
        vectorBytes: 0,
      });
      expect(await s.index.staleFiles(1000)).toContain(fileId);
      expect(await s.index.unembeddedFiles(1000)).toContain(fileId);
      expect((await s.index.lexicalSearch('jaguar', all(bot.botId), 10)).length).toBe(1);
      await expect(
        s.index.replaceFilePassages({
          fileId,
          botId: bot.botId,
          passages: [passage(0, 'jaguar', { embedding: vec(1, 0, 0, 0) })],
          model: MODEL,
        }),
      ).rejects.toBeInstanceOf(EmbeddingModelMismatchError);
      const [id] = await s.index.replaceFilePassages({
        fileId,
        botId: bot.botId,
        passages: [passage(0, 'jaguar', { embedding: vec(0, 1, 0) })],
        model: next,
      });
      expect(await s.index.staleFiles(1000)).not.toContain(fileId);
      expect(await s.index.unembeddedFiles(1000)).not.toContain(fileId);
      expect((await s.index.vectorSearch(vec(0, 1, 0), all(bot.botId), 10)).map((h) => h.passageId)).toEqual([
        id,
      ]);
      expect(await s.index.storage({ botId: bot.botId })).toMatchObject({ vectors: 1, vectorBytes: 12 });
    });
  });
}
