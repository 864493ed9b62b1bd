import { describe, expect, it } from 'vitest';
import type { PassageSuite } from './kit.suite.js';

/** The PassageIndex suite on lexical search: word forms, diacritics and ranking, and what it answers among many matches. */
export function lexicalCases(s: PassageSuite): void {
  const { newBot, passage, indexed, indexedNewBot, all } = s;

  describe('lexical search', () => {
    it('finds a passage by another form of a word (stemming)', async () => {
      const { bot, ids } = await indexedNewBot([
        passage(0, 'The runners were running quickly.'),
        passage(1, 'Unrelated.'),
      ]);
      const hits = await s.index.lexicalSearch('run', all(bot.botId), 10);
      expect(hits.map((h) => h.passageId)).toEqual([ids[0]]);
      expect((await s.index.lexicalSearch('RUNS', all(bot.botId), 10)).map((h) => h.passageId)).toEqual([
        ids[0],
      ]);
    });

    it('ignores diacritics both ways', async () => {
      const { bot, ids } = await indexedNewBot([
        passage(0, 'Meet me at the Café Müller.'),
        passage(1, 'A naive resume.'),
      ]);
      expect(
        (await s.index.lexicalSearch('cafe muller', all(bot.botId), 10)).map((h) => h.passageId),
      ).toEqual([ids[0]]);
      expect(
        (await s.index.lexicalSearch('naïve résumé', all(bot.botId), 10)).map((h) => h.passageId),
      ).toEqual([ids[1]]);
    });

    it('ORs the words of a question: a passage with only some of them is found', async () => {
      const { bot, ids } = await indexedNewBot([
        passage(0, 'Our refund policy allows returns within thirty days.'),
        passage(1, 'Shipping takes five days.'),
        passage(2, 'Nothing to see here.'),
      ]);
      const hits = await s.index.lexicalSearch(
        'How many days do I have to ask for a refund?',
        all(bot.botId),
        10,
      );
      expect(hits.map((h) => h.passageId)).toEqual([ids[0], ids[1]]);
    });

    it('ranks passages with more and rarer query words higher, scores descending', async () => {
      const { bot, ids } = await indexedNewBot([
        passage(0, 'apple apple apple banana'),
        passage(1, 'apple banana cherry durian'),
        passage(2, 'banana only here'),
        passage(3, 'banana split'),
      ]);
      const hits = await s.index.lexicalSearch('apple durian', all(bot.botId), 10);
      expect(hits[0]?.passageId).toBe(ids[1]);
      expect(new Set(hits.map((h) => h.passageId))).toEqual(new Set([ids[0], ids[1]]));
      for (const h of hits) expect(h.score).toBeGreaterThan(0);
      for (let i = 1; i < hits.length; i++)
        expect((hits[i - 1] as { score: number }).score).toBeGreaterThanOrEqual(
          (hits[i] as { score: number }).score,
        );
    });

    it('finds words of the breadcrumb too', async () => {
      const { bot, ids } = await indexedNewBot([
        passage(0, 'Press the red button.', { breadcrumb: ['Emergency shutdown'] }),
      ]);
      expect((await s.index.lexicalSearch('shutdown', all(bot.botId), 10)).map((h) => h.passageId)).toEqual([
        ids[0],
      ]);
    });

    it('answers at most limit hits', async () => {
      const bot = await newBot();
      await indexed(
        bot,
        Array.from({ length: 8 }, (_, i) => passage(i, `lemur number ${i}`)),
      );
      expect(await s.index.lexicalSearch('lemur', all(bot.botId), 3)).toHaveLength(3);
      expect(await s.index.lexicalSearch('lemur', all(bot.botId), 0)).toEqual([]);
    });

    it('never throws on hostile or odd query strings', async () => {
      const bot = await newBot();
      await indexed(bot, [passage(0, 'NEAR AND OR NOT title: "quoted" star* caret^ 東京 😀 col:x')]);
      const hostile = [
        '"',
        '""',
        '"unbalanced',
        "it's",
        'NEAR(a b, 3)',
        'NEAR/2',
        'a AND OR NOT b',
        'AND',
        'OR OR OR',
        'NOT',
        'title:foo',
        'content:near',
        '{content breadcrumb}: x',
        'star*',
        '*',
        '^caret',
        '((((',
        ')',
        '-minus +plus',
        "'; drop table passages; --",
        '\u0000nul\u0000',
        '\\',
        '😀😀 emoji',
        '東京',
        'Ünïcödé',
        'a:b:c',
        '!@#$%^&*()_+=-[]{}|;:,.<>/?`~',
        ' ',
        '',
        `${'x'.repeat(2000)}`,
        Array.from({ length: 300 }, (_, i) => `w${i}`).join(' '),
        '& | ! <-> :*',
        '\'quoted\' "double"',
      ];
      for (const q of hostile) {
        const hits = await s.index.lexicalSearch(q, all(bot.botId), 5);
        expect(Array.isArray(hits), q).toBe(true);
      }
      expect(await s.index.lexicalSearch('NEAR', all(bot.botId), 5)).toHaveLength(1);
      expect(await s.index.lexicalSearch('star*', all(bot.botId), 5)).toHaveLength(1);
      expect(await s.index.lexicalSearch('東京', all(bot.botId), 5)).toHaveLength(1);
    });

    it('finds nothing for a query with no words', async () => {
      const bot = await newBot();
      await indexed(bot, [passage(0, 'text')]);
      expect(await s.index.lexicalSearch('?!', all(bot.botId), 5)).toEqual([]);
    });
  });

  // More matches than a search ranks before it applies the scope (SQLite: 400 or 5 × the limit).
  describe('lexical search among many matches', () => {
    const MANY = 500;
    /** `count` passages of one file that match "heron" better than any longer text does. */
    const herons = (count: number, word = 'heron') =>
      Array.from({ length: count }, (_, i) => passage(i, `${word} ${word} ${word} number ${i}`));

    it('never answers another bot’s passages, however many better ones it has', async () => {
      const mine = await newBot();
      const theirs = await newBot();
      await indexed(theirs, herons(MANY));
      const a = await indexed(mine, [
        passage(0, 'A grey heron stood in the shallow water of the lake for an hour.'),
        passage(1, 'Later the heron flew off over the reeds and the boats of the harbour.'),
      ]);
      const hits = await s.index.lexicalSearch('heron', all(mine.botId), 10);
      expect(hits.map((h) => h.passageId).sort()).toEqual([...a.ids].sort());
      expect(await s.index.lexicalSearch('heron', all(mine.botId, { fileIds: [] }), 10)).toEqual([]);
      // Naming another bot's file finds nothing either.
      const other = await indexed(theirs, [passage(0, 'heron')]);
      expect(await s.index.lexicalSearch('heron', all(mine.botId, { fileIds: [other.fileId] }), 10)).toEqual(
        [],
      );
      // Words only the other bot holds find nothing.
      expect(await s.index.lexicalSearch('number', all(mine.botId), 10)).toEqual([]);
    });

    it('a narrow scope (a few files, a tag) still answers all its matches up to the limit, best first', async () => {
      const bot = await newBot();
      await indexed(bot, herons(MANY), { tags: { kind: 'noise' } });
      const wanted = await indexed(
        bot,
        [
          passage(0, 'A grey heron stood in the shallow water of the lake for an hour or more.'),
          passage(1, 'The heron flew away across the wide grey lake towards the woods at dusk.'),
          passage(2, 'Nothing about birds here.'),
          passage(3, 'Late in the evening a heron came back to the same spot by the water.'),
        ],
        { tags: { kind: 'wanted' } },
      );
      const expected = [wanted.ids[0], wanted.ids[1], wanted.ids[3]].sort();
      const scopes = [
        all(bot.botId, { fileIds: [wanted.fileId] }),
        all(bot.botId, { tags: { kind: { anyOf: ['wanted'] } } }),
        all(bot.botId, { tags: { kind: { noneOf: ['noise'] } } }),
      ];
      for (const scope of scopes) {
        const hits = await s.index.lexicalSearch('heron', scope, 10);
        expect(hits.map((h) => h.passageId).sort(), JSON.stringify(scope)).toEqual(expected);
        for (let i = 1; i < hits.length; i++)
          expect((hits[i - 1] as { score: number }).score).toBeGreaterThanOrEqual(
            (hits[i] as { score: number }).score,
          );
        const top2 = await s.index.lexicalSearch('heron', scope, 2);
        expect(top2.map((h) => h.passageId)).toEqual(hits.slice(0, 2).map((h) => h.passageId));
      }
      // Unscoped, the many better matches fill the limit.
      const unscoped = await s.index.lexicalSearch('heron', all(bot.botId), 10);
      expect(unscoped).toHaveLength(10);
      expect(unscoped.filter((h) => h.fileId === wanted.fileId)).toEqual([]);
    });

    it('orders equal scores by passage id, even among more ties than it keeps', async () => {
      const bot = await newBot();
      // 56 full tiles of 8 passages of one text: every passage and every tile scores the same.
      const { ids } = await indexed(
        bot,
        Array.from({ length: 448 }, (_, i) => passage(i, 'otter pup')),
      );
      const sorted = [...ids].sort();
      const hits = await s.index.lexicalSearch('otter', all(bot.botId), 5);
      expect(hits.map((h) => h.passageId)).toEqual(sorted.slice(0, 5));
      expect(new Set(hits.map((h) => h.score)).size).toBe(1);
      const few = await indexed(bot, [passage(0, 'badger sett'), passage(1, 'badger sett')]);
      expect(
        (await s.index.lexicalSearch('badger', all(bot.botId, { fileIds: [few.fileId] }), 5)).map(
          (h) => h.passageId,
        ),
      ).toEqual([...few.ids].sort());
    });

    it('answers nothing when no passage in scope holds a query word', async () => {
      const bot = await newBot();
      await indexed(bot, herons(MANY), { tags: { kind: 'noise' } });
      const quiet = await indexed(bot, [passage(0, 'A quiet pond.')], { tags: { kind: 'quiet' } });
      expect(await s.index.lexicalSearch('kingfisher', all(bot.botId), 10)).toEqual([]);
      expect(await s.index.lexicalSearch('heron', all(bot.botId, { fileIds: [quiet.fileId] }), 10)).toEqual(
        [],
      );
      expect(
        await s.index.lexicalSearch('heron', all(bot.botId, { tags: { kind: { anyOf: ['quiet'] } } }), 10),
      ).toEqual([]);
    });
  });
}
