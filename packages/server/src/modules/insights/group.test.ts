import { describe, expect, it } from 'vitest';
import { contentWords, groupQuestions, MAX_GROUPS } from './group.js';

const at = (minute: number) => new Date(Date.UTC(2026, 2, 20, 8, minute)).toISOString();

describe('groupQuestions', () => {
  it('reads content words: case, accents, punctuation, stop words and endings aside', () => {
    expect([...contentWords('How do I get a REFUND?')]).toEqual(['refund']);
    expect([...contentWords('Où est le café ?')]).toEqual(['ou', 'est', 'le', 'cafe']);
    expect([...contentWords('Shipping policies')]).toEqual(['shipp', 'policy']);
  });

  it('groups similar wordings under the most asked one (case aside, the latest as typed), most asked groups first, with counts and last times', async () => {
    const groups = await groupQuestions([
      { text: 'Where is my refund', at: at(9) },
      { text: 'do you ship to Mars?', at: at(8) },
      { text: 'refunds?', at: at(7) },
      { text: 'Refunds?', at: at(6) },
      { text: 'How do I get a refund?', at: at(5) },
      { text: '   ', at: at(4) },
    ]);
    expect(groups).toEqual([
      {
        question: 'refunds?',
        count: 4,
        lastAskedAt: at(9),
        variants: ['Where is my refund', 'How do I get a refund?'],
      },
      { question: 'do you ship to Mars?', count: 1, lastAskedAt: at(8), variants: [] },
    ]);
  });

  it.each([
    [
      'keeps different topics apart even when they share a word, and questions of stop words only together',
      ['refund for a damaged parcel', 'refund of my subscription fee', 'What?', 'why?'],
      [
        ['What?', 2],
        ['refund for a damaged parcel', 1],
        ['refund of my subscription fee', 1],
      ],
    ],
    [
      'matches a word with the words it begins: deliver and delivery, ship and shipping',
      ['Delivery to antarctica??', 'Do you deliver to Antarctica?', 'shipping to Antarctica'],
      [
        ['Delivery to antarctica??', 2],
        ['shipping to Antarctica', 1],
      ],
    ],
  ])('%s', async (_, texts, expected) => {
    // Asked a minute apart, the first the latest.
    const groups = await groupQuestions(texts.map((text, i) => ({ text, at: at(texts.length - 1 - i) })));
    expect(groups.map((g) => [g.question, g.count])).toEqual(expected);
  });

  it(`answers at most ${MAX_GROUPS} groups`, async () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ text: `item${i}x`, at: at(i) }));
    expect(await groupQuestions(many)).toHaveLength(MAX_GROUPS);
  });
});
