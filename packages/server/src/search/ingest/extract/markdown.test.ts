import { Lexer } from 'marked';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { extractText, failureOf } from '../../../../../testkit/src/server/extract-fixtures.js';
import { ExtractionError } from '../../types.js';
import { MAX_MARKDOWN_NESTING } from './markdown.js';

const MARKDOWN = `---
title: "Release notes"
tags: [a, b]
---
# Parley 2.0

Search is **faster** &amp; [smarter](https://example.com).

## Changes

- Hybrid ranking
  - tuned on SciFact
- [x] Knowledge bases

1. Upgrade
2. Re-index

\`\`\`sh
parley reindex --all
\`\`\`

| Mode | Default |
| --- | --- |
| hybrid | yes |
| lexical | no |

> Quoted *advice*.
> Second line.

![Architecture diagram](arch.png)

<div>Raw <b>HTML</b> block</div>
`;

describe('Markdown extraction', () => {
  it('maps headings, paragraphs, lists, code, tables, quotes and images to blocks', async () => {
    const document = await extractText(MARKDOWN, 'text/markdown', 'notes.md');
    expect(document.title).toBe('Release notes');
    expect(document.blocks).toEqual([
      { type: 'title', text: 'Parley 2.0', level: 1 },
      { type: 'paragraph', text: 'Search is faster & smarter.' },
      { type: 'subtitle', text: 'Changes', level: 2 },
      { type: 'list', text: '- Hybrid ranking' },
      { type: 'list', text: '  - tuned on SciFact' },
      { type: 'list', text: '- [x] Knowledge bases' },
      { type: 'list', text: '1. Upgrade' },
      { type: 'list', text: '2. Re-index' },
      { type: 'code', text: 'parley reindex --all' },
      { type: 'table', text: 'hybrid | yes\nlexical | no', header: 'Mode | Default' },
      { type: 'blockquote', text: 'Quoted advice. Second line.' },
      { type: 'image', text: 'Architecture diagram' },
      { type: 'paragraph', text: 'Raw HTML block' },
    ]);
  });

  it('is chosen for text/plain uploads named .md, and titles from the first heading', async () => {
    const document = await extractText('# Title here\n\nBody.', 'text/plain', 'readme.md');
    expect(document.title).toBe('Title here');
    expect(document.blocks[0]).toEqual({ type: 'title', text: 'Title here', level: 1 });
  });

  /** About 5 MB of `line(i)` for i = 0, 1, 2, … */
  const fiveMb = (line: (i: number) => string) => {
    const lines: string[] = [];
    let size = 0;
    for (let i = 0; size < 5_000_000; i++) {
      const text = line(i);
      lines.push(text);
      size += text.length + 1;
    }
    return lines.join('\n');
  };

  // Each took the lexer minutes (time quadratic in the depth): quotes, lists by indentation, markers on one
  // line, quotes and lists mixed, and a long document nested just past the limit all the way.
  const NESTED: Record<string, string> = {
    quotes: fiveMb((i) => `${'>'.repeat(i % 2000)} line ${i}`),
    'indented lists': fiveMb((i) => `${'  '.repeat(i % 1500)}- item ${i}`),
    'list markers on one line': fiveMb((i) => `${'- '.repeat(i % 1000)}item ${i}`),
    'quotes and lists': fiveMb((i) => `${'> 1. '.repeat(i % 500)}item ${i}`),
    'just past the limit': fiveMb((i) => `${'>'.repeat(MAX_MARKDOWN_NESTING + 1)} line ${i}`),
  };

  for (const [name, text] of Object.entries(NESTED))
    it(`fails 5 MB of nested Markdown (${name}) too_large before the lexer sees it, not the time bound`, async () => {
      // The one pass over the text answers, not the lexer (minutes on these): were it called, it would throw
      // here at once instead of taking the test's own time.
      const lex = vi.spyOn(Lexer.prototype, 'lex').mockImplementation(() => {
        throw new Error('the lexer was given the nested document');
      });
      onTestFinished(() => lex.mockRestore());
      const error = await failureOf(extractText(text, 'text/markdown', 'deep.md'));
      expect(lex).not.toHaveBeenCalled();
      expect(error).toBeInstanceOf(ExtractionError);
      expect(error).toMatchObject({
        code: 'too_large',
        message: `"deep.md" is too large to index: it has more levels of Markdown nesting than the limit of ${MAX_MARKDOWN_NESTING}.`,
      });
    });

  it('fails a document with much text nested under the depth limit too_large, counting each level', async () => {
    const deep = `${'> '.repeat(MAX_MARKDOWN_NESTING)}${'word '.repeat(40)}\n`;
    const text = deep.repeat(Math.ceil(2_000 / deep.length) * 20);
    // The same characters unnested read; nested, each counts 33 times, over twice maxChars.
    await expect(
      extractText(text.replaceAll('> ', ''), 'text/markdown', 'flat.md', { maxChars: 40_000 }),
    ).resolves.toBeDefined();
    await expect(extractText(text, 'text/markdown', 'nested.md', { maxChars: 40_000 })).rejects.toMatchObject(
      {
        code: 'too_large',
        message:
          '"nested.md" is too large to index: it has more characters of nested Markdown (counted once per level of nesting) than the limit of 80,000.',
      },
    );
  });

  it('still reads nesting real documents use, and rules and numbers that only look like markers', async () => {
    const text = [
      '- one',
      '  - two',
      '    - three',
      '      1. four',
      '         > five',
      '         > > six',
      '',
      '* * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * *',
      '',
      '2024. A year, 1.5 million people, -3 degrees.',
    ].join('\n');
    const document = await extractText(text, 'text/markdown', 'nested.md');
    expect(document.blocks.map((b) => b.text)).toEqual([
      '- one',
      '  - two',
      '    - three',
      '      1. four five six',
      '2024. A year, 1.5 million people, -3 degrees.',
    ]);
  });
});
