import { describe, expect, it } from 'vitest';
import { newId } from '../../../ids.js';
import type { PassageScope } from '../passage-index.js';
import { MODEL, type PassageSuite, vec } from './kit.suite.js';

/** The PassageIndex suite on what a search may see (its scope) and on vector search. */
export function scopeAndVectorCases(s: PassageSuite): void {
  const { newBot, passage, indexed, indexedNewBot, all, fileIdsOf } = s;

  describe('scope', () => {
    it('searches only the bot’s own files', async () => {
      const mine = await newBot();
      const theirs = await newBot();
      const a = await indexed(mine, [passage(0, 'shared secret word', { embedding: vec(1, 0, 0, 0) })]);
      await indexed(theirs, [passage(0, 'shared secret word', { embedding: vec(1, 0, 0, 0) })]);
      expect(fileIdsOf(await s.index.lexicalSearch('secret', all(mine.botId), 10))).toEqual([a.fileId]);
      expect(fileIdsOf(await s.index.vectorSearch(vec(1, 0, 0, 0), all(mine.botId), 10))).toEqual([a.fileId]);
    });

    it('searches only files that finished indexing', async () => {
      const bot = await newBot();
      const done = await indexed(bot, [passage(0, 'ocelot', { embedding: vec(1, 0, 0, 0) })]);
      for (const status of ['indexing_pending', 'indexing_failed', 'upload_completed', 'upload_pending'])
        await indexed(bot, [passage(0, 'ocelot', { embedding: vec(1, 0, 0, 0) })], { status });
      expect(fileIdsOf(await s.index.lexicalSearch('ocelot', all(bot.botId), 10))).toEqual([done.fileId]);
      expect(fileIdsOf(await s.index.vectorSearch(vec(1, 0, 0, 0), all(bot.botId), 10))).toEqual([
        done.fileId,
      ]);
    });

    it('shows an integration its own files and those shared with integrations, nothing else', async () => {
      const bot = await newBot();
      const integrationId = newId('int');
      const own = await indexed(bot, [passage(0, 'gazelle', { embedding: vec(1, 0, 0, 0) })], {
        ownerType: 'integration',
        ownerId: integrationId,
      });
      const shared = await indexed(bot, [passage(0, 'gazelle', { embedding: vec(1, 0, 0, 0) })], {
        accessPolicies: ['integrations'],
      });
      const hidden = await indexed(bot, [passage(0, 'gazelle', { embedding: vec(1, 0, 0, 0) })]);
      await indexed(bot, [passage(0, 'gazelle', { embedding: vec(1, 0, 0, 0) })], {
        ownerType: 'integration',
        ownerId: newId('int'),
      });
      await indexed(bot, [passage(0, 'gazelle', { embedding: vec(1, 0, 0, 0) })], {
        accessPolicies: ['public_content'],
      });
      const scope = all(bot.botId, { visibility: { kind: 'integration', integrationId } });
      const expected = [own.fileId, shared.fileId].sort();
      expect(fileIdsOf(await s.index.lexicalSearch('gazelle', scope, 10))).toEqual(expected);
      expect(fileIdsOf(await s.index.vectorSearch(vec(1, 0, 0, 0), scope, 10))).toEqual(expected);
      expect(fileIdsOf(await s.index.lexicalSearch('gazelle', all(bot.botId), 10))).toContain(hidden.fileId);
      expect(await s.index.lexicalSearch('gazelle', all(bot.botId), 10)).toHaveLength(5);
    });

    it('filters by tags (any of, none of, exists)', async () => {
      const bot = await newBot();
      const sales = await indexed(bot, [passage(0, 'quokka', { embedding: vec(1, 0, 0, 0) })], {
        tags: { team: 'sales', lang: 'en' },
      });
      const ops = await indexed(bot, [passage(0, 'quokka', { embedding: vec(1, 0, 0, 0) })], {
        tags: { team: 'ops' },
      });
      const none = await indexed(bot, [passage(0, 'quokka', { embedding: vec(1, 0, 0, 0) })]);
      const cases: [PassageScope['tags'], string[]][] = [
        [{ team: { anyOf: ['sales'] } }, [sales.fileId]],
        [{ team: { anyOf: ['sales', 'ops'] } }, [sales.fileId, ops.fileId]],
        [{ team: { noneOf: ['sales'] } }, [ops.fileId, none.fileId]],
        [{ team: { exists: false } }, [none.fileId]],
        [{ team: { exists: true }, lang: { anyOf: ['en'] } }, [sales.fileId]],
      ];
      for (const [tags, expected] of cases) {
        const scope = all(bot.botId, { tags });
        expect(fileIdsOf(await s.index.lexicalSearch('quokka', scope, 10)), JSON.stringify(tags)).toEqual(
          [...expected].sort(),
        );
        expect(
          fileIdsOf(await s.index.vectorSearch(vec(1, 0, 0, 0), scope, 10)),
          JSON.stringify(tags),
        ).toEqual([...expected].sort());
      }
    });

    it('restricts to the given file ids; an empty list matches nothing', async () => {
      const bot = await newBot();
      const a = await indexed(bot, [passage(0, 'wombat', { embedding: vec(1, 0, 0, 0) })]);
      const b = await indexed(bot, [passage(0, 'wombat', { embedding: vec(1, 0, 0, 0) })]);
      await indexed(bot, [passage(0, 'wombat', { embedding: vec(1, 0, 0, 0) })]);
      const scope = all(bot.botId, { fileIds: [a.fileId, b.fileId] });
      expect(fileIdsOf(await s.index.lexicalSearch('wombat', scope, 10))).toEqual(
        [a.fileId, b.fileId].sort(),
      );
      expect(fileIdsOf(await s.index.vectorSearch(vec(1, 0, 0, 0), scope, 10))).toEqual(
        [a.fileId, b.fileId].sort(),
      );
      const empty = all(bot.botId, { fileIds: [] });
      expect(await s.index.lexicalSearch('wombat', empty, 10)).toEqual([]);
      expect(await s.index.vectorSearch(vec(1, 0, 0, 0), empty, 10)).toEqual([]);
    });

    it('a file whose access changes leaves or enters results at once', async () => {
      const bot = await newBot();
      const integrationId = newId('int');
      const f = await indexed(bot, [passage(0, 'tapir', { embedding: vec(1, 0, 0, 0) })], {
        accessPolicies: ['integrations'],
      });
      const scope = all(bot.botId, { visibility: { kind: 'integration', integrationId } });
      expect(await s.index.lexicalSearch('tapir', scope, 10)).toHaveLength(1);
      await s.db.kysely
        .updateTable('files')
        .set({ access_policies: '[]' })
        .where('id', '=', f.fileId)
        .execute();
      expect(await s.index.lexicalSearch('tapir', scope, 10)).toEqual([]);
      expect(await s.index.vectorSearch(vec(1, 0, 0, 0), scope, 10)).toEqual([]);
    });
  });

  describe('vector search', () => {
    it('answers the nearest passages by cosine similarity, best first, with the similarity as score', async () => {
      const { bot, ids } = await indexedNewBot([
        passage(0, 'east', { embedding: vec(1, 0, 0, 0) }),
        passage(1, 'north-east', { embedding: vec(1, 1, 0, 0) }),
        passage(2, 'north', { embedding: vec(0, 5, 0, 0) }),
        passage(3, 'west', { embedding: vec(-1, 0, 0, 0) }),
        passage(4, 'no vector'),
      ]);
      const hits = await s.index.vectorSearch(vec(2, 0.2, 0, 0), all(bot.botId), 10);
      expect(hits.map((h) => h.passageId)).toEqual([ids[0], ids[1], ids[2], ids[3]]);
      const cos = (a: number[], b: number[]) => {
        const dot = a.reduce((s, x, i) => s + x * (b[i] as number), 0);
        return dot / Math.hypot(...a) / Math.hypot(...b);
      };
      expect(hits[0]?.score).toBeCloseTo(cos([2, 0.2, 0, 0], [1, 0, 0, 0]), 5);
      expect(hits[1]?.score).toBeCloseTo(cos([2, 0.2, 0, 0], [1, 1, 0, 0]), 5);
      expect(hits[3]?.score).toBeCloseTo(-cos([2, 0.2, 0, 0], [1, 0, 0, 0]), 5);
      const top2 = await s.index.vectorSearch(vec(0, 1, 0, 0), all(bot.botId), 2);
      expect(top2.map((h) => h.passageId)).toEqual([ids[2], ids[1]]);
    });

    it('finds the nearest in scope even when many nearer passages are out of scope', async () => {
      const bot = await newBot();
      for (let f = 0; f < 3; f++)
        await indexed(
          bot,
          Array.from({ length: 50 }, (_, i) =>
            passage(i, `near ${i}`, { embedding: vec(1, i / 1000, 0, 0) }),
          ),
          { tags: { kind: 'noise' } },
        );
      const target = await indexed(bot, [passage(0, 'far', { embedding: vec(0, 0, 1, 1) })], {
        tags: { kind: 'wanted' },
      });
      const hits = await s.index.vectorSearch(
        vec(1, 0, 0, 0),
        all(bot.botId, { tags: { kind: { anyOf: ['wanted'] } } }),
        1,
      );
      expect(hits.map((h) => h.passageId)).toEqual(target.ids);
    });

    it('answers the exact nearest (recall@10 ≥ 0.98 where an ANN index serves it), scoped to the bot, after updates', async () => {
      // 1,500 passages in 15 files around 30 centres, written file by file as indexing does, so an
      // approximate index (SQLite's HNSW graph, pgvector's hnsw) is built and updated as it goes.
      let seed = 7;
      const rnd = () => {
        seed = (seed * 16807) % 2147483647;
        return seed / 2147483647 - 0.5;
      };
      const centres = Array.from({ length: 30 }, () => [rnd(), rnd(), rnd(), rnd()]);
      const vectors = Array.from({ length: 1500 }, (_, i) =>
        vec(...(centres[i % 30] as number[]).map((x) => x + rnd() * 0.3)),
      );
      const bot = await newBot();
      const files: { fileId: string; ids: string[] }[] = [];
      for (let f = 0; f < 15; f++)
        files.push(
          await indexed(
            bot,
            vectors.slice(f * 100, f * 100 + 100).map((v, i) => passage(i, `v${f}.${i}`, { embedding: v })),
          ),
        );
      // Another bot's identical vectors are never answered.
      const other = await newBot();
      await indexed(
        other,
        vectors.slice(0, 100).map((v, i) => passage(i, `o${i}`, { embedding: v })),
      );
      // One file re-indexed with other vectors, one deleted: the index follows.
      const moved = vectors.slice(0, 100).map((v) => vec(...Array.from(v, (x) => -x)));
      await s.index.replaceFilePassages({
        fileId: files[0]?.fileId as string,
        botId: bot.botId,
        passages: moved.map((v, i) => passage(i, `m${i}`, { embedding: v })),
        model: MODEL,
      });
      await s.index.deleteFile(files[1]?.fileId as string);
      const live = [...moved, ...vectors.slice(200)];
      const cos = (a: Float32Array, b: Float32Array) => {
        let dot = 0;
        for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
        return dot / Math.hypot(...a) / Math.hypot(...b);
      };
      let found = 0;
      const queries = Array.from({ length: 40 }, (_, i) =>
        vec(...Array.from(live[i * 31] as Float32Array, (x) => x + rnd() * 0.2)),
      );
      const allowed = new Set([files[0], ...files.slice(2)].map((f) => f?.fileId as string));
      for (const q of queries) {
        const tenth = live.map((v) => cos(q, v)).sort((a, b) => b - a)[9] as number;
        const hits = await s.index.vectorSearch(q, all(bot.botId), 10);
        expect(hits).toHaveLength(10);
        for (const h of hits) expect(allowed.has(h.fileId)).toBe(true);
        found += hits.filter((h) => h.score >= tenth - 1e-5).length;
      }
      expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.98);
    });

    it('refuses a query vector of the wrong width', async () => {
      const bot = await newBot();
      await expect(s.index.vectorSearch(vec(1, 0, 0), all(bot.botId), 5)).rejects.toThrow(/dimensions/);
    });
  });
}
