import type { SearchPassage } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { searchPassage } from '../../../../testkit/src/server/search-passage.js';
import type { Quote } from './extract.js';
import type { Selection } from './selection.js';
import { MODEL_PASSAGES, modelQuotes } from './unsure.js';

const quoteOf = (passage: SearchPassage, coverage: number): Quote => ({
  passage,
  rank: 0,
  text: passage.content,
  heading: [],
  coverage,
  passageCoverage: coverage,
  score: passage.score,
  matched: [],
});

describe('modelQuotes (what a chat model reads)', () => {
  const found = Array.from({ length: 8 }, (_, i) =>
    searchPassage(`Passage ${i} about refunds and returns.`, { fileId: `file_${i}`, score: 2 - i / 10 }),
  );
  const semantic = found.map((p, i) => ({ ...p, score: 0.6 - i / 20 }));

  it('sends the quotes’ passages first, also one without a position, then the best others, at most 6', () => {
    const quoted = { ...searchPassage('Refunds within 30 days.', { fileId: 'file_q' }) };
    quoted.meta = { type: 'chunk', subtype: 'paragraph' };
    const selection: Selection = { quotes: [quoteOf(quoted, 0.9)], by: 'words', best: quoteOf(quoted, 0.9) };
    const quotes = modelQuotes({ found, semantic }, selection, true) ?? [];
    expect(quotes[0]?.passage).toBe(quoted);
    expect(quotes[0]?.text).toBe('Refunds within 30 days.');
    expect(quotes).toHaveLength(MODEL_PASSAGES);
    expect(new Set(quotes.map((q) => q.passage)).size).toBe(MODEL_PASSAGES);
  });

  it('sends an unanswered question near something, not one with nothing near or naming what no passage holds', () => {
    const none: Selection = { quotes: [], by: 'none', best: undefined };
    expect(modelQuotes({ found, semantic }, none, true)?.length).toBe(MODEL_PASSAGES);
    const far = found.map((p) => ({ ...p, score: 0.1 }));
    expect(modelQuotes({ found, semantic: far }, none, true)).toBeUndefined();
    expect(modelQuotes({ found, semantic }, { ...none, missingNames: ['Klarna'] }, true)).toBeUndefined();
    // By words alone: the best quote's coverage decides (0.1).
    expect(modelQuotes({ found, semantic: [] }, none, false)).toBeUndefined();
    const some: Selection = { quotes: [], by: 'none', best: quoteOf(found[2] as SearchPassage, 0.15) };
    expect(modelQuotes({ found, semantic: [] }, some, false)?.[0]?.passage).toBe(found[2]);
  });
});
