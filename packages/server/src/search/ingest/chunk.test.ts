import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../testkit/src/shared/random.js';
import type { Block, ChunkOptions, ExtractedDocument, PassageSubtype } from '../types.js';
import { ChunkOptionsError, chunkDocument, countTokens, resolveChunkOptions } from './chunk.js';

const doc = (...blocks: Block[]): ExtractedDocument => ({ blocks });
/** The blocks, each on page `pageNumber` (of a paged document: a PDF). */
const onPage = (pageNumber: number, blocks: Block[]): Block[] => blocks.map((b) => ({ ...b, pageNumber }));
const words = (count: number, prefix = 'w') =>
  Array.from({ length: count }, (_, i) => `${prefix}${i}`).join(' ');

describe('countTokens', () => {
  it('counts words and numbers, each punctuation mark and each CJK character', () => {
    expect(countTokens('Hello, world!')).toBe(4);
    expect(countTokens('v2.5 costs $3')).toBe(6);
    expect(countTokens("don't")).toBe(3);
    expect(countTokens('東京タワー is tall')).toBe(7);
    expect(countTokens('  \n\t ')).toBe(0);
  });
});

describe('chunkDocument structure', () => {
  const document = doc(
    { type: 'title', text: 'Handbook', level: 1 },
    { type: 'paragraph', text: 'Welcome to the team.' },
    { type: 'subtitle', text: 'Leave', level: 2 },
    { type: 'paragraph', text: 'You get 25 days.' },
    { type: 'subtitle', text: 'Carry over', level: 3 },
    { type: 'list', text: '- Up to five days' },
    { type: 'list', text: '- Ask first' },
    { type: 'subtitle', text: 'Expenses', level: 2 },
    { type: 'paragraph', text: 'Keep receipts.' },
  );

  it('emits headings as passages and puts the heading path in every breadcrumb', () => {
    expect(chunkDocument(document)).toEqual([
      { position: 0, content: 'Handbook', subtype: 'title', breadcrumb: [] },
      { position: 1, content: 'Welcome to the team.', subtype: 'paragraph', breadcrumb: ['Handbook'] },
      { position: 2, content: 'Leave', subtype: 'subtitle', breadcrumb: ['Handbook'] },
      { position: 3, content: 'You get 25 days.', subtype: 'paragraph', breadcrumb: ['Handbook', 'Leave'] },
      { position: 4, content: 'Carry over', subtype: 'subtitle', breadcrumb: ['Handbook', 'Leave'] },
      {
        position: 5,
        content: '- Up to five days\n- Ask first',
        subtype: 'list',
        breadcrumb: ['Handbook', 'Leave', 'Carry over'],
      },
      { position: 6, content: 'Expenses', subtype: 'subtitle', breadcrumb: ['Handbook'] },
      { position: 7, content: 'Keep receipts.', subtype: 'paragraph', breadcrumb: ['Handbook', 'Expenses'] },
    ]);
  });

  it('merges small blocks of one subtype and section, but not across subtypes, headings or pages', () => {
    const passages = chunkDocument(
      doc(
        ...onPage(1, [
          { type: 'paragraph', text: 'One.' },
          { type: 'paragraph', text: 'Two.' },
          { type: 'list', text: '- three' },
          { type: 'paragraph', text: 'Four.' },
        ]),
        ...onPage(2, [
          { type: 'paragraph', text: 'Five.' },
          { type: 'subtitle', text: 'Next' },
          { type: 'paragraph', text: 'Six.' },
        ]),
      ),
    );
    expect(passages.map(({ content, pageNumber }) => [content, pageNumber])).toEqual([
      ['One.\n\nTwo.', 1],
      ['- three', 1],
      ['Four.', 1],
      ['Five.', 2],
      ['Next', 2],
      ['Six.', 2],
    ]);
  });

  it('stops merging when the next block would pass maxTokens', () => {
    const blocks: Block[] = Array.from({ length: 5 }, (_, i) => ({
      type: 'paragraph',
      text: `${words(9, `b${i}x`)}.`,
    }));
    const passages = chunkDocument(doc(...blocks), { maxTokens: 25, overlapTokens: 0 });
    expect(passages.map((passage) => countTokens(passage.content))).toEqual([20, 20, 10]);
  });

  it('keeps the page number of paged documents on every passage', () => {
    const passages = chunkDocument(
      doc(
        ...onPage(1, [
          { type: 'title', text: 'Report', level: 1 },
          { type: 'paragraph', text: `${words(300, 'a')}.` },
        ]),
        ...onPage(2, [{ type: 'paragraph', text: 'Page two text.' }]),
      ),
    );
    expect(passages.every((passage) => passage.pageNumber !== undefined)).toBe(true);
    expect(passages.at(-1)).toMatchObject({
      content: 'Page two text.',
      pageNumber: 2,
      breadcrumb: ['Report'],
    });
    expect(passages.filter((passage) => passage.pageNumber === 1).length).toBeGreaterThan(2);
  });

  it('shortens a very long heading in breadcrumbs but keeps it whole in its own passage', () => {
    const heading = words(50, 'h');
    const passages = chunkDocument(
      doc({ type: 'title', text: heading }, { type: 'paragraph', text: 'Body.' }),
    );
    expect(passages[0]?.content).toBe(heading);
    expect(passages[1]?.breadcrumb[0]).toBe(`${words(32, 'h')}…`);
  });
});

describe('chunkDocument splitting', () => {
  const sentences = Array.from(
    { length: 30 },
    (_, i) => `Sentence number ${i} says something about topic ${i}.`,
  );

  it('cuts long prose on sentence ends and starts each piece with the last sentences of the one before', () => {
    const passages = chunkDocument(doc({ type: 'paragraph', text: sentences.join(' ') }), {
      maxTokens: 40,
      overlapTokens: 12,
    });
    expect(passages.length).toBeGreaterThan(5);
    for (const [i, passage] of passages.entries()) {
      expect(countTokens(passage.content)).toBeLessThanOrEqual(40);
      expect(passage.content).toMatch(/^Sentence number \d+ .*\.$/);
      const previous = passages[i - 1];
      if (previous) {
        const firstSentence = /^.*?\d+\./.exec(passage.content)?.[0] ?? '';
        expect(previous.content.endsWith(firstSentence)).toBe(true);
        expect(countTokens(firstSentence)).toBeLessThanOrEqual(12);
      }
    }
    const all = passages.map((passage) => passage.content).join(' ');
    for (const sentence of sentences) expect(all).toContain(sentence);
  });

  it('cuts a sentence longer than maxTokens between tokens with exactly overlapTokens of overlap', () => {
    const text = words(100);
    const passages = chunkDocument(doc({ type: 'paragraph', text }), { maxTokens: 30, overlapTokens: 10 });
    const tokenLists = passages.map((passage) => passage.content.split(' '));
    for (const [i, tokens] of tokenLists.entries()) {
      expect(tokens.length).toBeLessThanOrEqual(30);
      const previous = tokenLists[i - 1];
      if (previous) expect(tokens.slice(0, 10)).toEqual(previous.slice(-10));
    }
    expect(tokenLists.at(-1)?.at(-1)).toBe('w99');
  });

  it('adds no overlap when overlapTokens is 0', () => {
    const passages = chunkDocument(doc({ type: 'paragraph', text: words(100) }), {
      maxTokens: 25,
      overlapTokens: 0,
    });
    expect(passages.map((passage) => passage.content).join(' ')).toBe(words(100));
  });

  it('repeats a table header on every piece and keeps rows whole', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `item ${i} | ${i * 3} | in stock`);
    const passages = chunkDocument(
      doc({ type: 'table', header: 'Name | Price | Status', text: rows.join('\n') }),
      {
        maxTokens: 40,
      },
    );
    expect(passages.length).toBeGreaterThan(3);
    const seen: string[] = [];
    for (const passage of passages) {
      expect(passage.subtype).toBe('table');
      expect(countTokens(passage.content)).toBeLessThanOrEqual(40);
      const [header, ...lines] = passage.content.split('\n');
      expect(header).toBe('Name | Price | Status');
      for (const line of lines) expect(rows).toContain(line);
      seen.push(...lines);
    }
    expect(seen).toEqual(rows);
  });

  it('merges small tables only when their headers match', () => {
    const passages = chunkDocument(
      doc(
        { type: 'table', header: 'A | B', text: '1 | 2' },
        { type: 'table', header: 'A | B', text: '3 | 4' },
        { type: 'table', header: 'C | D', text: '5 | 6' },
      ),
    );
    expect(passages.map((passage) => passage.content)).toEqual(['A | B\n1 | 2\n3 | 4', 'C | D\n5 | 6']);
  });

  it('cuts code on line ends, keeping indentation and every line whole, without overlap', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `${i % 2 ? '    ' : ''}call(${i}, "arg");`);
    const passages = chunkDocument(doc({ type: 'code', text: lines.join('\n') }), { maxTokens: 50 });
    expect(passages.length).toBeGreaterThan(2);
    expect(passages.flatMap((passage) => passage.content.split('\n'))).toEqual(lines);
  });
});

describe('chunkDocument properties', () => {
  const SUBTYPES: PassageSubtype[] = [
    'paragraph',
    'list',
    'table',
    'code',
    'blockquote',
    'title',
    'subtitle',
  ];
  const PUNCTUATION = ['.', ',', '!', '?', ';', ':', '(', ')', '—'];

  /** A random document whose every word is unique and tagged with its page (`p3x17`). */
  function randomDocument(next: () => number): ExtractedDocument {
    let page = 1;
    let id = 0;
    const blocks: Block[] = [];
    const count = 1 + Math.floor(next() * 25);
    for (let b = 0; b < count; b++) {
      if (next() < 0.2) page++;
      const type = SUBTYPES[Math.floor(next() * SUBTYPES.length)] ?? 'paragraph';
      const length =
        type === 'title' || type === 'subtitle' ? 1 + Math.floor(next() * 8) : Math.floor(next() * 400);
      const parts: string[] = [];
      for (let t = 0; t < length; t++) {
        const roll = next();
        if (roll < 0.1) parts.push(PUNCTUATION[Math.floor(next() * PUNCTUATION.length)] ?? '.');
        else if (roll < 0.15) parts.push('\n');
        else if (roll < 0.18) parts.push('漢字');
        else parts.push(`p${page}x${id++}`);
      }
      const block: Block = { type, text: parts.join(next() < 0.5 ? ' ' : '  '), pageNumber: page };
      if (type === 'table' && next() < 0.5) block.header = `Col${b} | Other`;
      if (type === 'subtitle' || type === 'title') block.level = 1 + Math.floor(next() * 6);
      blocks.push(block);
    }
    return { blocks, pageCount: page };
  }

  it('never exceeds maxTokens, numbers passages 0..n-1, stays on one page and loses no word', () => {
    const next = seededRandom(20250101);
    for (let run = 0; run < 200; run++) {
      const document = randomDocument(next);
      const maxTokens = 16 + Math.floor(next() * 200);
      const overlapTokens = Math.floor(next() * (Math.ceil(maxTokens / 2) - 1));
      const passages = chunkDocument(document, { maxTokens, overlapTokens });
      const context = `run ${run} (max ${maxTokens}, overlap ${overlapTokens})`;
      expect(
        passages.map((passage) => passage.position),
        context,
      ).toEqual(passages.map((_, i) => i));
      // What breaks a property, gathered and asserted once per run (an expect per word made this test ~20 s).
      const broken: string[] = [];
      const seen = new Set<string>();
      let lastPage = 0;
      for (const passage of passages) {
        const at = `passage ${passage.position}`;
        const tokens = countTokens(passage.content);
        if (tokens > maxTokens) broken.push(`${at}: ${tokens} tokens`);
        if (passage.content.trim() === '') broken.push(`${at}: empty`);
        const pages = new Set([...passage.content.matchAll(/p(\d+)x\d+/g)].map((match) => Number(match[1])));
        if (pages.size > 1) broken.push(`${at}: words of pages ${[...pages].join(', ')}`);
        if (pages.size === 1 && [...pages][0] !== passage.pageNumber)
          broken.push(`${at}: words of page ${[...pages][0]} on page ${passage.pageNumber}`);
        if ((passage.pageNumber ?? 0) < lastPage)
          broken.push(`${at}: page ${passage.pageNumber} after ${lastPage}`);
        lastPage = passage.pageNumber ?? 0;
        for (const match of passage.content.matchAll(/p\d+x\d+/g)) seen.add(match[0]);
      }
      for (const block of document.blocks) {
        for (const match of block.text.matchAll(/p\d+x\d+/g))
          if (!seen.has(match[0])) broken.push(`word ${match[0]} lost`);
      }
      expect(broken, context).toEqual([]);
    }
  });

  it('gives the same passages for the same input', () => {
    const document = randomDocument(seededRandom(7));
    expect(chunkDocument(document, { maxTokens: 50 })).toEqual(chunkDocument(document, { maxTokens: 50 }));
  });

  it('keeps default-sized passages within the embedding model window', () => {
    const document = randomDocument(seededRandom(99));
    for (const passage of chunkDocument(document))
      expect(countTokens(passage.content)).toBeLessThanOrEqual(120);
  });
});

describe('chunk options', () => {
  it('lowers the default overlap below half of a small maxTokens', () => {
    expect(resolveChunkOptions({ maxTokens: 16 })).toEqual({ maxTokens: 16, overlapTokens: 7 });
    expect(resolveChunkOptions({ maxTokens: 17 })).toEqual({ maxTokens: 17, overlapTokens: 8 });
  });

  it('validates options given to chunkDocument directly', () => {
    expect(() => chunkDocument(doc(), { maxTokens: 10 })).toThrow(ChunkOptionsError);
    expect(() => chunkDocument(doc(), { maxTokens: 16, overlapTokens: 8 })).toThrow(/at most 7/);
    expect(() => chunkDocument(doc(), { minParagraphChars: -1 })).toThrow(/minParagraphChars must be/);
  });
});

describe('short paragraphs joined to the next block (minParagraphChars)', () => {
  // 120 tokens in twelve sentences: too long to share one 101-token passage with anything.
  const long = Array.from({ length: 12 }, (_, i) => `${words(9, `s${i}w`)}.`).join(' ');

  /** Blocks chunked with options, and the passages (subtype, content) they make. */
  const cases: {
    name: string;
    blocks: Block[];
    options: Partial<ChunkOptions>;
    passages: [PassageSubtype, string][];
  }[] = [
    {
      name: 'leaves a short paragraph alone when the option is off',
      blocks: [
        { type: 'paragraph', text: 'To reset:' },
        { type: 'list', text: '- Hold the button' },
      ],
      options: {},
      passages: [
        ['paragraph', 'To reset:'],
        ['list', '- Hold the button'],
      ],
    },
    {
      name: 'joins a paragraph shorter than the limit to the list item after it',
      blocks: [
        { type: 'paragraph', text: 'To reset:' },
        { type: 'list', text: '- Hold the button' },
        { type: 'list', text: '- Wait ten seconds' },
      ],
      options: { minParagraphChars: 20 },
      passages: [['list', 'To reset:\n- Hold the button\n- Wait ten seconds']],
    },
    {
      name: 'gathers short paragraphs in a row until they reach the limit',
      blocks: [
        { type: 'paragraph', text: 'One.' },
        { type: 'paragraph', text: 'Two.' },
        { type: 'paragraph', text: 'Three is longer.' },
        { type: 'table', text: 'a | b', header: 'x | y' },
      ],
      options: { minParagraphChars: 12, maxTokens: 16 },
      passages: [
        ['paragraph', 'One.\n\nTwo.\n\nThree is longer.'],
        ['table', 'x | y\na | b'],
      ],
    },
  ];
  for (const { name, blocks, options, passages } of cases) {
    it(name, () => {
      expect(chunkDocument(doc(...blocks), options).map((p) => [p.subtype, p.content])).toEqual(passages);
    });
  }

  it('joins it to a paragraph too long to share a passage with, instead of leaving it alone', () => {
    const blocks: Block[] = [
      { type: 'paragraph', text: 'Note.' },
      { type: 'paragraph', text: long },
    ];
    expect(chunkDocument(doc(...blocks), { maxTokens: 101, overlapTokens: 0 })[0]?.content).toBe('Note.');
    const joined = chunkDocument(doc(...blocks), { maxTokens: 101, overlapTokens: 0, minParagraphChars: 10 });
    expect(joined[0]?.content.startsWith('Note.\n\ns0w0 s0w1')).toBe(true);
    expect(joined.every((p) => countTokens(p.content) <= 101)).toBe(true);
  });

  it('never joins across a heading, a table, code or a page', () => {
    const passages = chunkDocument(
      doc(
        ...onPage(1, [{ type: 'paragraph', text: 'Intro.' }]),
        ...onPage(2, [
          { type: 'paragraph', text: 'Next page.' },
          { type: 'subtitle', text: 'Setup' },
          { type: 'paragraph', text: 'Run:' },
          { type: 'code', text: 'npm start' },
          { type: 'paragraph', text: 'End.' },
        ]),
      ),
      { minParagraphChars: 50 },
    );
    expect(passages.map((p) => [p.subtype, p.content, p.pageNumber])).toEqual([
      ['paragraph', 'Intro.', 1],
      ['paragraph', 'Next page.', 2],
      ['subtitle', 'Setup', 2],
      ['paragraph', 'Run:', 2],
      ['code', 'npm start', 2],
      ['paragraph', 'End.', 2],
    ]);
    expect(passages[3]?.breadcrumb).toEqual(['Setup']);
  });
});
