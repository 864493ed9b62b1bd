import { describe, expect, it } from 'vitest';
import { extractText } from '../../test-support/extract-fixtures.js';

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
});
