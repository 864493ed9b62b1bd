import { describe, expect, it } from 'vitest';
import {
  type AnswerSource,
  citationsOf,
  citedSources,
  escapeMarkdown,
  generatedAnswer,
  markdownUrl,
  passagesAnswer,
  quote,
  quotesIn,
  sourceLink,
  sourcesMetadata,
  trimPassage,
} from './format.js';

const source = (n: number, extra: Partial<AnswerSource> = {}): AnswerSource => ({
  n,
  fileId: `file_${n}`,
  key: `doc-${n}.md`,
  title: `doc-${n}.md`,
  url: `https://parley.example.com/v1/files/file_${n}/content?public=1&signature=s${n}`,
  score: 1 / n,
  content: `Passage number ${n}.`,
  ...extra,
});

describe('trimPassage and quote', () => {
  it('squeezes spaces and blank-line runs and keeps short passages whole', () => {
    expect(trimPassage('a   b\n\n\n\nc  \n d')).toBe('a b\n\nc\nd');
  });

  it('cuts long passages at a word boundary with an ellipsis', () => {
    const text = 'word '.repeat(200);
    const cut = trimPassage(text, 42);
    expect(cut.length).toBeLessThanOrEqual(43);
    expect(cut).toMatch(/word…$/);
  });

  it('quotes every line, blank ones included', () => {
    expect(quote('one\n\ntwo')).toBe('> one\n>\n> two');
  });
});

describe('links', () => {
  it('links a source by title, with its page number', () => {
    expect(sourceLink(source(1, { pageNumber: 3 }))).toBe(
      '[doc-1.md, page 3](https://parley.example.com/v1/files/file_1/content?public=1&signature=s1)',
    );
    expect(sourceLink(source(2, { url: undefined }))).toBe('doc-2.md');
  });

  it('escapes link text and URL characters that would break the markdown', () => {
    expect(escapeMarkdown('a [b] *c*_d')).toBe('a \\[b\\] \\*c\\*\\_d');
    expect(markdownUrl('https://x.test/a (1).pdf')).toBe('https://x.test/a%20%281%29.pdf');
  });
});

describe('passagesAnswer', () => {
  it('quotes each passage followed by a link to its source', () => {
    const answer = passagesAnswer([source(1), source(2, { pageNumber: 7 })]);
    expect(answer.type).toBe('markdown');
    expect(answer.markdown).toBe(
      [
        'Here is what I found in my knowledge base:',
        '> Passage number 1.',
        '— [doc-1.md](https://parley.example.com/v1/files/file_1/content?public=1&signature=s1)',
        '> Passage number 2.',
        '— [doc-2.md, page 7](https://parley.example.com/v1/files/file_2/content?public=1&signature=s2)',
      ].join('\n\n'),
    );
  });

  it('shows a quote under its headings, leaving out the one that only repeats the document title', () => {
    const answer = passagesAnswer([
      source(1, {
        title: 'Handbook',
        heading: ['Handbook', 'Returns', 'Refunds'],
        content: 'Refunds take 5 days.\nAsk us.',
      }),
    ]);
    expect(answer.markdown).toBe(
      [
        'Here is what I found in my knowledge base:',
        '*Returns › Refunds*',
        '> Refunds take 5 days.\n> Ask us.',
        '— [Handbook](https://parley.example.com/v1/files/file_1/content?public=1&signature=s1)',
      ].join('\n\n'),
    );
    expect(quotesIn(answer.markdown)).toEqual(['Refunds take 5 days.\nAsk us.']);
  });

  it('puts the file id, key, page and score of each source in the metadata', () => {
    expect(sourcesMetadata([source(1, { pageNumber: 2 }), source(2)])).toEqual({
      sources: [
        { fileId: 'file_1', key: 'doc-1.md', pageNumber: 2, score: 1 },
        { fileId: 'file_2', key: 'doc-2.md', score: 0.5 },
      ],
    });
  });
});

describe('citations', () => {
  it('reads [n], [n, m] and [n][m] citations in order of first use, ignoring unknown numbers', () => {
    expect(citationsOf('Yes [2]. Also [1, 2] and [9].', 3)).toEqual([2, 1]);
    expect(citationsOf('See [3][1]; [0] and [x] are not citations', 3)).toEqual([3, 1]);
    expect(citationsOf('No citation here.', 3)).toEqual([]);
  });

  it('maps citations to their sources, and falls back to all sources when none is cited', () => {
    const sources = [source(1), source(2), source(3)];
    expect(citedSources('From [3] and [1].', sources).map((s) => s.n)).toEqual([3, 1]);
    expect(citedSources('Uncited answer.', sources).map((s) => s.n)).toEqual([1, 2, 3]);
  });

  it('ends a generated answer with a Sources list whose numbers match the citations', () => {
    const sources = [source(1), source(2, { pageNumber: 4 })];
    const answer = generatedAnswer('Refunds take 30 days [2].  ', citedSources('[2]', sources));
    expect(answer.markdown).toBe(
      'Refunds take 30 days [2].\n\n**Sources**\n\n- \\[2\\] [doc-2.md, page 4](https://parley.example.com/v1/files/file_2/content?public=1&signature=s2)',
    );
  });
});
