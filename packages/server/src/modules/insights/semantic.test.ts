import { describe, expect, it } from 'vitest';
import { USE_LITE_ID, UseLiteEmbedder } from '../../search/embed/index.js';
import type { Embedder } from '../../search/types.js';
import { groupQuestions } from './group.js';
import { questionSimilarityFor, questionVectors } from './semantic.js';

const at = (minute: number) => new Date(Date.UTC(2026, 2, 20, 8, minute)).toISOString();

/** An embedder of the built-in model's id whose vectors put wordings of one topic on one axis. */
function topicEmbedder(topics: Record<string, number>, id = USE_LITE_ID) {
  const calls: string[][] = [];
  const embedder: Embedder = {
    id,
    dimensions: 3,
    async embed(texts) {
      calls.push(texts);
      return texts.map((t) => {
        const v = new Float32Array(3);
        v[topics[t] ?? 2] = 1;
        return v;
      });
    },
    async close() {},
  };
  return { embedder, calls };
}

const QUESTIONS = [
  { text: 'How do I return an item?', at: at(3) },
  { text: 'Can I send a product back?', at: at(2) },
  { text: 'Where is your shop?', at: at(1) },
];

describe('grouping by meaning', () => {
  it('groups questions of one meaning but different words with the built-in model, caching vectors', async () => {
    const { embedder, calls } = topicEmbedder({
      'how do i return an item?': 0,
      'can i send a product back?': 0,
      'where is your shop?': 1,
    });
    const vectorsOf = questionVectors(embedder);
    const semantic = await vectorsOf(QUESTIONS.map((q) => q.text));
    expect((await groupQuestions(QUESTIONS, semantic)).map((g) => [g.question, g.count, g.variants])).toEqual(
      [
        ['How do I return an item?', 2, ['Can I send a product back?']],
        ['Where is your shop?', 1, []],
      ],
    );
    await vectorsOf(['Can I send a product BACK?', 'New question']);
    expect(calls).toEqual([
      ['how do i return an item?', 'can i send a product back?', 'where is your shop?'],
      ['new question'],
    ]);
  });

  it('groups by words alone without vectors, for a model without a calibrated bar, or when embedding fails', async () => {
    expect(await groupQuestions(QUESTIONS)).toHaveLength(3);
    expect(questionSimilarityFor({ id: 'openai:text-embedding-3-small' })).toBeUndefined();
    expect(await questionVectors(topicEmbedder({}, 'other-model').embedder)(['a'])).toBeUndefined();
    expect(await questionVectors(null)(['a'])).toBeUndefined();
    const failing: Embedder = {
      id: USE_LITE_ID,
      dimensions: 3,
      embed: () => Promise.reject(new Error('worker gone')),
      close: async () => {},
    };
    expect(await questionVectors(failing)(['a'])).toBeUndefined();
  });

  it('with the shipped model: paraphrases in other words are one question, other topics stay apart', async () => {
    const embedder = new UseLiteEmbedder();
    try {
      const questions = [
        { text: 'How much does shipping cost?', at: at(4) },
        { text: 'What is the price of delivery?', at: at(3) },
        { text: 'Can I pay with PayPal?', at: at(2) },
        { text: 'How do I reset my password?', at: at(1) },
        { text: 'I forgot my password', at: at(0) },
      ];
      const semantic = await questionVectors(embedder)(questions.map((q) => q.text));
      expect(semantic?.vectors.size).toBe(5);
      const groups = (await groupQuestions(questions, semantic)).map((g) =>
        [g.question, ...g.variants].sort(),
      );
      expect(groups.sort()).toEqual(
        [
          ['How much does shipping cost?', 'What is the price of delivery?'],
          ['Can I pay with PayPal?'],
          ['How do I reset my password?', 'I forgot my password'],
        ].sort(),
      );
    } finally {
      await embedder.close();
    }
  }, 60_000);
});
