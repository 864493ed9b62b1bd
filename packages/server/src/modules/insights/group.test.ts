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

  it('keeps different topics apart even when they share a word, and questions of stop words only together', async () => {
    const groups = await groupQuestions([
      { text: 'refund for a damaged parcel', at: at(3) },
      { text: 'refund of my subscription fee', at: at(2) },
      { text: 'What?', at: at(1) },
      { text: 'why?', at: at(0) },
    ]);
    expect(groups.map((g) => [g.question, g.count])).toEqual([
      ['What?', 2],
      ['refund for a damaged parcel', 1],
      ['refund of my subscription fee', 1],
    ]);
  });

  it('matches a word with the words it begins: deliver and delivery, ship and shipping', async () => {
    const groups = await groupQuestions([
      { text: 'Delivery to antarctica??', at: at(2) },
      { text: 'Do you deliver to Antarctica?', at: at(1) },
      { text: 'shipping to Antarctica', at: at(0) },
    ]);
    expect(groups.map((g) => [g.question, g.count])).toEqual([
      ['Delivery to antarctica??', 2],
      ['shipping to Antarctica', 1],
    ]);
  });

  it(`answers at most ${MAX_GROUPS} groups`, async () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ text: `item${i}x`, at: at(i) }));
    expect(await groupQuestions(many)).toHaveLength(MAX_GROUPS);
  });
});
