import { describe, expect, it } from 'vitest';
import { USE_LITE_ID, USE_LITE_INT8_ID } from '../../search/embed/index.js';
import { contentTerms, stem } from '../../search/terms.js';
import { semanticMinSimilarityFor, USE_LITE_MIN_SIMILARITY } from './relevance.js';

describe('contentTerms', () => {
  it('keeps the stems of content words, without stopwords, question-form words, one-letter words or duplicates', () => {
    expect(contentTerms('How long do I have to ask for a refund? Refunds!')).toEqual(['ask', 'refund']);
    expect(contentTerms('How many days, how much money, how often and how soon do I get it?')).toEqual([
      'dai',
      'monei',
    ]);
    expect(contentTerms('A long sleeve')).toEqual(['sleev']);
  });

  it('folds case and diacritics and drops possessives', () => {
    expect(contentTerms("Café's OPENING hours")).toEqual(['cafe', 'open', 'hour']);
    expect(stem('policies')).toBe(stem('policy'));
  });

  it('has no terms for a question made of stopwords', () => {
    expect(contentTerms('what is it?')).toEqual([]);
  });
});

describe('semanticMinSimilarityFor', () => {
  it('uses a similarity bar only for the shipped USE-lite model', () => {
    expect(semanticMinSimilarityFor({ id: USE_LITE_ID })).toBe(USE_LITE_MIN_SIMILARITY);
    // The int8 weights keep the vectors within cosine 0.998 of the fp32 ones: the same bar is used.
    expect(semanticMinSimilarityFor({ id: USE_LITE_INT8_ID })).toBe(USE_LITE_MIN_SIMILARITY);
    expect(semanticMinSimilarityFor({ id: 'openai:text-embedding-3-small' })).toBeUndefined();
    expect(semanticMinSimilarityFor(null)).toBeUndefined();
  });
});
