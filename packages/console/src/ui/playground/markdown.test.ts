import { describe, expect, it } from 'vitest';
import { parseInline, parseReply } from './markdown.js';

describe("the bot reply's Markdown", () => {
  it('reads a quoted answer: intro, quote and source link', () => {
    const reply =
      'Here is what I found in my knowledge base:\n\n> Refunds within 30 days.\n> Back to the card.\n\n— [handbook\\_2024.md, page 3](https://x.example/f?a=1)';
    expect(parseReply(reply)).toEqual([
      { kind: 'paragraph', lines: [[{ kind: 'text', text: 'Here is what I found in my knowledge base:' }]] },
      {
        kind: 'quote',
        lines: [
          [{ kind: 'text', text: 'Refunds within 30 days.' }],
          [{ kind: 'text', text: 'Back to the card.' }],
        ],
      },
      {
        kind: 'paragraph',
        lines: [
          [
            { kind: 'text', text: '— ' },
            { kind: 'link', text: 'handbook_2024.md, page 3', url: 'https://x.example/f?a=1' },
          ],
        ],
      },
    ]);
  });

  it("reads a generated answer's sources list and bold title", () => {
    expect(parseReply('Yes [1].\n\n**Sources**\n\n- \\[1\\] [a.md](https://x.example/a)')).toEqual([
      { kind: 'paragraph', lines: [[{ kind: 'text', text: 'Yes [1].' }]] },
      { kind: 'paragraph', lines: [[{ kind: 'strong', text: 'Sources' }]] },
      {
        kind: 'list',
        items: [
          [
            { kind: 'text', text: '[1] ' },
            { kind: 'link', text: 'a.md', url: 'https://x.example/a' },
          ],
        ],
      },
    ]);
  });

  it('keeps markup and links that are not web links as text', () => {
    expect(parseInline('<img src=x onerror=alert(1)> [click](javascript:alert(1))')).toEqual([
      { kind: 'text', text: '<img src=x onerror=alert(1)> [click](javascript:alert(1))' },
    ]);
    expect(parseInline('[go](javascript:void)')).toEqual([{ kind: 'text', text: '[go](javascript:void)' }]);
  });
});
