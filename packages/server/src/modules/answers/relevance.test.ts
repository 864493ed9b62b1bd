import type { SearchPassage } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { USE_LITE_ID } from '../../search/embed/index.js';
import {
  contentTerms,
  mergeRelevant,
  ratePassages,
  relevantPassages,
  semanticMinSimilarityFor,
  stem,
  USE_LITE_MIN_SIMILARITY,
} from './relevance.js';

const passage = (content: string, score = 1, key = 'doc.md'): SearchPassage => ({
  content,
  score,
  meta: { type: 'chunk' },
  file: {
    id: `file_${key}`,
    key,
    contentType: 'text/markdown',
    metadata: {},
    tags: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  },
});

describe('contentTerms', () => {
  it('keeps the stems of content words, without stopwords, one-letter words or duplicates', () => {
    expect(contentTerms('How long do I have to ask for a refund? Refunds!')).toEqual([
      'long',
      'ask',
      'refund',
    ]);
  });

  it('folds case and diacritics and drops possessives', () => {
    expect(contentTerms("Café's OPENING hours")).toEqual(['cafe', 'open', 'hour']);
    expect(stem('policies')).toBe(stem('policy'));
  });

  it('has no terms for a question made of stopwords', () => {
    expect(contentTerms('what is it?')).toEqual([]);
  });
});

describe('ratePassages and relevantPassages', () => {
  const refunds = passage('Customers may ask for a refund within 30 days of purchase.', 2, 'handbook.md');
  const shipping = passage('Parcels leave the warehouse every weekday at noon.', 1, 'shipping.md');

  it('keeps passages that share a content word with the question, in search order', () => {
    expect(relevantPassages('When are refunds paid?', [refunds, shipping])).toEqual([refunds]);
    expect(ratePassages('When are refunds paid?', [refunds, shipping]).map((r) => r.matched)).toEqual([
      ['refund'],
      [],
    ]);
  });

  it('finds nothing relevant for an unrelated question, whatever the scores', () => {
    expect(relevantPassages('What is the capital of Mongolia?', [refunds, shipping])).toEqual([]);
    expect(relevantPassages('what is it', [refunds, shipping])).toEqual([]);
  });

  it('drops passages covering less than half of what the best one covers', () => {
    const best = passage('Refunds for purchases with a gift card go back to the gift card.', 1, 'a.md');
    const weak = passage('A card is a piece of paper.', 3, 'b.md');
    expect(relevantPassages('refund gift card purchase', [weak, best])).toEqual([best]);
  });

  it('never quotes a heading alone', () => {
    const heading = {
      ...passage('Refunds', 3, 'a.md'),
      meta: { type: 'chunk' as const, subtype: 'title' as const },
    };
    const body = passage('Refunds are paid within 30 days.', 1, 'a.md');
    expect(relevantPassages('refunds', [heading, body])).toEqual([body]);
    expect(ratePassages('refunds', [heading])[0]).toMatchObject({ matched: ['refund'], relevant: false });
  });

  it('answers at most max passages', () => {
    const many = [1, 2, 3, 4, 5].map((i) => passage(`refund rule ${i}`, i, `${i}.md`));
    expect(relevantPassages('refund', many, 3)).toHaveLength(3);
  });
});

describe('mergeRelevant', () => {
  const at = (content: string, score: number, position: number) => ({
    ...passage(content, score, 'doc.md'),
    meta: { type: 'chunk' as const, position },
  });
  const byWords = at('Refunds are paid within 30 days.', 3, 1);

  it('adds passages found by meaning alone that reach the similarity bar, best first, after the word matches', () => {
    const close = at('Purchases may be returned for a full refund.', 0.62, 2);
    const closer = at('Returned items are reimbursed.', 0.7, 3);
    const far = at('Parcels leave at noon.', 0.3, 4);
    expect(mergeRelevant([byWords], [far, close, closer], 0.5)).toEqual([byWords, closer, close]);
  });

  it('does not repeat a passage both searches found, and keeps at most max', () => {
    const again = { ...byWords, score: 0.9 };
    const close = at('Returned items are reimbursed.', 0.7, 3);
    expect(mergeRelevant([byWords], [again, close], 0.5)).toEqual([byWords, close]);
    expect(mergeRelevant([byWords], [again, close], 0.5, 1)).toEqual([byWords]);
  });

  it('uses a similarity bar only for the shipped USE-lite model', () => {
    expect(semanticMinSimilarityFor({ id: USE_LITE_ID })).toBe(USE_LITE_MIN_SIMILARITY);
    expect(semanticMinSimilarityFor({ id: 'openai:text-embedding-3-small' })).toBeUndefined();
    expect(semanticMinSimilarityFor(null)).toBeUndefined();
  });
});
