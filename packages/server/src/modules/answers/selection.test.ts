import { describe, expect, it } from 'vitest';
import { searchPassage } from '../../../../testkit/src/server/search-passage.js';
import { MIN_COVERAGE, MIN_EVIDENCE, namesOf, selectQuotes } from './selection.js';

const at = (content: string, position: number, score: number, fileId = 'file_1') =>
  searchPassage(content, { position, score, fileId });

describe('selectQuotes (the "not found" gate)', () => {
  const refunds = at('Refunds are paid within 30 days of the return.', 1, 2);
  const parking = at('Visitors park in the north garage.', 2, 1, 'file_2');

  it('answers by words alone when the quote covers enough of the question (no similarity scale)', () => {
    const picked = selectQuotes('When are refunds paid?', [refunds, parking], [], undefined);
    expect(picked.by).toBe('words');
    expect(picked.quotes.map((q) => q.text)).toEqual(['Refunds are paid within 30 days of the return.']);
    expect(picked.best?.coverage).toBeGreaterThanOrEqual(MIN_COVERAGE);
  });

  it('finds nothing when the question’s rare words are in no passage', () => {
    // "Warranty" and "toaster" are nowhere: only "paid" matches, a small share of the question's weight.
    const picked = selectQuotes('Is the toaster warranty paid?', [refunds, parking], [], undefined);
    expect(picked.by).toBe('none');
    expect(picked.quotes).toEqual([]);
    expect(picked.best?.coverage).toBeLessThan(MIN_COVERAGE);
  });

  it('with a similarity scale, weighs coverage and the passage’s similarity together', () => {
    const question = 'How long until refunds for a damaged toaster arrive?';
    const close = [{ ...refunds, score: 0.8 }];
    const far = [{ ...refunds, score: 0.1 }];
    const withClose = selectQuotes(question, [refunds], close, 0.65);
    const withFar = selectQuotes(question, [refunds], far, 0.65);
    const coverage = withClose.best?.coverage ?? 0;
    expect(coverage + 0.8).toBeGreaterThanOrEqual(MIN_EVIDENCE);
    expect(coverage + 0.1).toBeLessThan(MIN_EVIDENCE);
    expect(withClose.by).toBe('words');
    expect(withFar.by).toBe('none');
  });

  it('quotes a passage found by meaning alone, from its start, when it reaches the similarity bar', () => {
    const reimbursed = at(
      'Returned items are reimbursed to the original card. Store credit is offered instead on request. Ask at the desk.',
      3,
      0.72,
      'file_3',
    );
    const picked = selectQuotes('Can I get my money back?', [parking], [reimbursed], 0.65);
    expect(picked.by).toBe('meaning');
    expect(picked.quotes[0]?.text).toMatch(/^Returned items are reimbursed to the original card\./);
    expect(
      selectQuotes('Can I get my money back?', [parking], [{ ...reimbursed, score: 0.6 }], 0.65).by,
    ).toBe('none');
  });

  it('finds nothing when a name the question asks about is in none of the passages', () => {
    const manual = at(
      'The Aria H2 headphones charge in 2 hours. Press the ANC button to change modes.',
      5,
      2,
      'file_m',
    );
    const asked = selectQuotes('Does the Tessera speaker support the ANC modes?', [manual], [], undefined);
    expect(asked).toMatchObject({ by: 'none', quotes: [], missingNames: ['Tessera'] });
    const known = selectQuotes('Does the Aria support the ANC modes?', [manual], [], undefined);
    expect(known.by).toBe('words');
    // Typed in lower case, a question names nothing: its words alone decide (here too few of them match).
    const lower = selectQuotes('does the tessera support the anc modes?', [manual], [], undefined);
    expect(lower).toMatchObject({ by: 'none', best: { matched: ['anc', 'mode'] } });
    expect(lower.missingNames).toBeUndefined();
  });

  it('tells the names of a question: capitalised words that do not start a sentence', () => {
    expect(namesOf('Does the Tessera speaker support Dolby Atmos?')).toEqual(['Tessera', 'Dolby', 'Atmos']);
    expect(namesOf('How long is the warranty? And in the UK?')).toEqual(['UK']);
    expect(namesOf('I want a refund. Can I get one?')).toEqual([]);
    // Capitals that say nothing: a shouted question, Title Case.
    expect(namesOf('HOW DO I GET A REFUND FOR THE ARIA?')).toEqual([]);
    expect(namesOf('How Do I Get A Refund For The Aria?')).toEqual([]);
    expect(namesOf('Can I return it on Monday, Or is The shop closed?')).toEqual(['Monday']);
  });

  it('never answers by meaning without a similarity scale (an embedder of unknown scale)', () => {
    const picked = selectQuotes('Can I get my money back?', [parking], [at('Refunds…', 4, 0.99)], undefined);
    expect(picked.quotes).toEqual([]);
  });
});
