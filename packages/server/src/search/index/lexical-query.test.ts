import { describe, expect, it } from 'vitest';
import { foldText, ftsMatchExpression, isStopword, MAX_QUERY_TERMS, queryTerms } from './lexical-query.js';

describe('queryTerms', () => {
  it('drops stopwords and the punctuation around words, folding case and diacritics', () => {
    expect(queryTerms('What is the Café’s "opening" time?')).toEqual(['cafe’s', 'opening', 'time']);
  });

  it('keeps punctuation inside a word, so identifiers stay one phrase', () => {
    expect(queryTerms('error ERR-1234 in e-mail v2.1')).toEqual(['error', 'err-1234', 'e-mail', 'v2.1']);
  });

  it('drops repeated words', () => {
    expect(queryTerms('Refund refund REFUND policy')).toEqual(['refund', 'policy']);
  });

  it('keeps the stopwords of a query made only of stopwords', () => {
    expect(queryTerms('to be or not to be')).toEqual(['to', 'be', 'or', 'not']);
  });

  it('answers nothing for a query without letters or digits', () => {
    expect(queryTerms('  !!! ??? *** "" ')).toEqual([]);
    expect(queryTerms('')).toEqual([]);
  });

  it('splits on every kind of space and on control characters', () => {
    expect(queryTerms('alpha\u00a0beta\tgamma\u0000delta\u200bepsilon')).toEqual([
      'alpha',
      'beta',
      'gamma',
      'delta',
      'epsilon',
    ]);
  });

  it('keeps letters of any script', () => {
    expect(queryTerms('東京 Ünïcödé мир')).toEqual(['東京', 'unicode', 'мир']);
  });

  it('keeps at most MAX_QUERY_TERMS terms', () => {
    const many = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
    expect(queryTerms(many)).toHaveLength(MAX_QUERY_TERMS);
  });
});

describe('ftsMatchExpression', () => {
  it('quotes every term and ORs them', () => {
    expect(ftsMatchExpression(['cafe', 'e-mail'])).toBe('"cafe" OR "e-mail"');
  });

  it('doubles quotes inside a term and leaves FTS5 operators inside quotes', () => {
    expect(ftsMatchExpression(['a"b', 'near', 'col:x*'])).toBe('"a""b" OR "near" OR "col:x*"');
  });

  it('answers undefined when there are no terms', () => {
    expect(ftsMatchExpression([])).toBeUndefined();
  });
});

describe('foldText and isStopword', () => {
  it('folds case and diacritics', () => {
    expect(foldText('ÉCOLE Crème Brûlée')).toBe('ecole creme brulee');
  });

  it('knows stopwords in any case and with a curly apostrophe', () => {
    expect(isStopword('The')).toBe(true);
    expect(isStopword('don’t')).toBe(true);
    expect(isStopword('refund')).toBe(false);
  });
});
