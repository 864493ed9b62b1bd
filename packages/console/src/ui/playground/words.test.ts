import { describe, expect, it } from 'vitest';
import { queryWords, splitMatches } from './words.js';

describe('playground highlighting', () => {
  it('marks the words of the query, whatever their case, at word starts only', () => {
    const pieces = splitMatches('Refunds: a prerefund is no REFUND.', queryWords('refund?'));
    expect(pieces).toEqual([
      { text: 'Refund', match: true },
      { text: 's: a prerefund is no ', match: false },
      { text: 'REFUND', match: true },
      { text: '.', match: false },
    ]);
  });

  it('takes words of two letters or more, longest first, and letters of any script', () => {
    expect(queryWords('a Où est le café, le CAFÉ?')).toEqual(['café', 'est', 'où', 'le']);
    // "long" makes the question's form ("how long"): the bot does not look for it, so it is not marked.
    expect(queryWords('How long do I have to ask for a refund?')).toEqual(['refund', 'ask']);
    expect(splitMatches('Le café est ouvert', queryWords('café'))).toEqual([
      { text: 'Le ', match: false },
      { text: 'café', match: true },
      { text: ' est ouvert', match: false },
    ]);
  });

  it('leaves markup and pattern characters as text', () => {
    const text = '<img src=x onerror=alert(1)> costs $5 (net)';
    const pieces = splitMatches(text, queryWords('img (net) $5 .*'));
    expect(pieces.map((p) => p.text).join('')).toBe(text);
    expect(pieces.filter((p) => p.match).map((p) => p.text)).toEqual(['img', 'net']);
    expect(splitMatches('anything', [])).toEqual([{ text: 'anything', match: false }]);
  });
});
