import type { ChatMessage, SearchPassage } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import {
  asksBackByWords,
  CLARIFY_BARS,
  CLARIFY_MIN_EVIDENCE,
  CLARIFY_MIN_SIMILARITY,
  candidatesOf,
  clarifyPayload,
  isUnsure,
  labelOf,
  pickedQuestion,
  pickedQuote,
  pickOf,
} from './clarify.js';
import type { Quote } from './extract.js';

let n = 0;
/** A search result: its file, heading path, score and subtype. */
function passage(
  key: string,
  content: string,
  o: { heading?: string[]; score?: number; subtype?: 'title' | 'paragraph'; title?: string } = {},
): SearchPassage {
  n += 1;
  return {
    content,
    score: o.score ?? 0.5,
    meta: { type: 'chunk', subtype: o.subtype ?? 'paragraph', position: n },
    file: {
      id: `file_${key.replace(/\W/g, '')}`,
      key,
      contentType: 'text/markdown',
      metadata: o.title ? { title: o.title } : {},
      tags: {},
      createdAt: '2030-01-01T00:00:00.000Z',
      updatedAt: '2030-01-01T00:00:00.000Z',
    },
    ...(o.heading
      ? { context: [{ text: o.heading.join(' › '), offset: 0, type: 'breadcrumb' as const }] }
      : {}),
  };
}
const quoteOf = (p: SearchPassage, coverage: number): Quote => ({
  passage: p,
  rank: 0,
  text: p.content,
  heading: [],
  coverage,
  passageCoverage: coverage,
  score: coverage,
  matched: [],
});

describe('the unsure band', () => {
  const refunds = passage('returns.md', 'Refunds take 5 days.', { heading: ['Returns', 'Refunds'] });
  const semantic = (top: number, own = top) => [
    { ...refunds, score: own },
    passage('other.md', 'Something else.', { score: top }),
  ];

  it('asks back between the lower bar and the answer bar, by evidence (coverage plus similarity)', () => {
    const best = quoteOf(refunds, 0.3);
    // Coverage 0.3 plus a similarity (below the meaning bar) just short of the lower bar, then just over it.
    expect(isUnsure({ best }, semantic(CLARIFY_MIN_EVIDENCE - 0.31), true)).toBe(false);
    expect(isUnsure({ best }, semantic(CLARIFY_MIN_EVIDENCE - 0.29), true)).toBe(true);
    expect(CLARIFY_MIN_EVIDENCE - 0.29).toBeLessThan(CLARIFY_MIN_SIMILARITY);
    expect(CLARIFY_MIN_EVIDENCE).toBeLessThan(0.86);
  });

  it('asks back when the closest passage by meaning reaches the lower similarity bar', () => {
    const sem = [
      passage('a.md', 'A.', { score: CLARIFY_MIN_SIMILARITY }),
      passage('b.md', 'B.', { score: 0.1 }),
    ];
    expect(isUnsure({ best: undefined }, sem, true)).toBe(true);
    const low = [passage('a.md', 'A.', { score: CLARIFY_MIN_SIMILARITY - 0.01 })];
    expect(isUnsure({ best: undefined }, low, true)).toBe(false);
    // A heading alone is not what the question means.
    const title = [passage('a.md', 'Refunds', { score: 0.9, subtype: 'title' })];
    expect(isUnsure({ best: undefined }, title, true)).toBe(false);
  });

  it('by words alone, asks back in English only, not in a language read by its own words', () => {
    expect(asksBackByWords(undefined)).toBe(true);
    expect(asksBackByWords('en')).toBe(true);
    expect(asksBackByWords('de')).toBe(false);
    expect(asksBackByWords('ja')).toBe(false);
  });

  it('never asks back when the question names something no passage holds', () => {
    expect(isUnsure({ best: quoteOf(refunds, 0.5), missingNames: ['Zorblax'] }, semantic(0.4), true)).toBe(
      false,
    );
  });

  it('by words alone, asks back from the coverage bar up', () => {
    expect(isUnsure({ best: quoteOf(refunds, CLARIFY_BARS.minCoverage) }, [], false)).toBe(true);
    expect(isUnsure({ best: quoteOf(refunds, CLARIFY_BARS.minCoverage - 0.01) }, [], false)).toBe(false);
    expect(isUnsure({ best: undefined }, [], false)).toBe(false);
  });
});

describe('the choices', () => {
  it('names a topic by its nearest heading, else a FAQ question line, else the document title', () => {
    expect(labelOf(passage('r.md', 'x', { heading: ['Returns and refunds', 'Returning an item'] }))).toBe(
      'Returning an item',
    );
    expect(labelOf(passage('faq.txt', 'Can I visit your showroom?\nYes, in Leipzig.'))).toBe(
      'Can I visit your showroom?',
    );
    expect(labelOf(passage('docs/price-list.csv', 'a | b'))).toBe('Price list');
    expect(labelOf(passage('x.pdf', 'text', { title: 'Warranty Terms' }))).toBe('Warranty Terms');
  });

  it('offers the best distinct topics, 3 at most, never a heading passage or the same topic twice', () => {
    const a = passage('returns.md', 'Send it back in 30 days.', { heading: ['Returns'] });
    const a2 = passage('returns.md', 'Labels are free.', { heading: ['Returns'] });
    const b = passage('warranty.md', 'Two years.', { heading: ['Warranty'], score: 0.6 });
    const c = passage('delivery.md', 'Three days.', { heading: ['Delivery'], score: 0.4 });
    const d = passage('care.md', 'Descale monthly.', { heading: ['Care'], score: 0.3 });
    const title = passage('faq.md', 'FAQ', { subtype: 'title', score: 0.9 });
    const picked = candidatesOf([quoteOf(a, 0.3)], [a2, a, c, d], [title, b, d]);
    // The best quote's passage, then by meaning and by words taking turns: b (0.6), a2 (Returns again), d.
    expect(picked.map((x) => x.label)).toEqual(['Returns', 'Warranty', 'Care']);
    const payload = clarifyPayload(picked, undefined);
    expect(payload.type).toBe('choice');
    expect(payload.text).toBe('Did you mean one of these?');
    expect(payload.options.map((o) => pickOf(o.value))).toEqual(
      picked.map((x) => ({ fileId: x.passage.file.id, position: x.passage.meta.position, label: x.label })),
    );
    expect(clarifyPayload(picked, 'Which one?').text).toBe('Which one?');
  });

  it('reads a choice value back, and nothing else', () => {
    expect(pickOf('pick:file_01ABC:12:Refunds')).toEqual({
      fileId: 'file_01ABC',
      position: 12,
      label: 'Refunds',
    });
    expect(pickOf('pick:file_01ABC:3')).toEqual({ fileId: 'file_01ABC', position: 3, label: '' });
    for (const text of ['pick me', 'pick:../etc:1:x', 'pick:file:-1:x', 'How do I pick:file:1?'])
      expect(pickOf(text)).toBeUndefined();
  });

  it('answers a pick for the question asked before the choices', () => {
    const at = '2030-01-01T00:00:00.000Z';
    const msg = (payload: ChatMessage['payload'], isBot = false): ChatMessage => ({
      id: `m${Math.random()}`,
      createdAt: at,
      conversationId: 'c',
      userId: isBot ? 'bot' : 'u',
      isBot,
      payload,
    });
    const value = 'pick:file_1:2:Refunds';
    const history = [
      msg({ type: 'text', text: 'hello' }),
      msg({ type: 'text', text: 'money back?' }),
      msg({ type: 'choice', text: 'Did you mean?', options: [{ label: 'Refunds', value }] }, true),
      msg({ type: 'text', text: 'Refunds', value }),
    ];
    expect(pickedQuestion(history, value)).toBe('money back?');
    expect(pickedQuestion(history.slice(3), value)).toBeUndefined();
  });

  it('quotes a short picked passage whole, lines as the document has them', () => {
    const p = passage('t.csv', 'Item | Price\nBurr set | 34.90 EUR');
    expect(pickedQuote(p, 'how much').text).toBe('Item | Price\nBurr set | 34.90 EUR');
    const long = passage('l.md', `${'Filler sentence here. '.repeat(40)}Refunds take 5 days.`);
    expect(pickedQuote(long, 'how long do refunds take').text).toContain('Refunds take 5 days.');
  });
});
