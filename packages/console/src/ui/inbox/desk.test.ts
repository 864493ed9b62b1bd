import { describe, expect, it } from 'vitest';
import { titleWithCount } from './desk-alerts.js';
import { tabOf } from './desk-tabs.js';
import { replyPayload } from './reply-box.js';

describe('the inbox desk', () => {
  it('puts the count of waiting conversations before the tab title, once, and takes it off at 0', () => {
    expect(titleWithCount('Conversations · Acme · Parley', 2)).toBe('(2) Conversations · Acme · Parley');
    expect(titleWithCount('(2) Conversations · Acme · Parley', 3)).toBe('(3) Conversations · Acme · Parley');
    expect(titleWithCount('(3) Conversations · Acme · Parley', 0)).toBe('Conversations · Acme · Parley');
    // A title that merely starts with a number in brackets, without the space, is the page's own.
    expect(titleWithCount('(beta) Parley', 1)).toBe('(1) (beta) Parley');
  });

  it('sends a reply as Markdown, with its files as a bloc, the text first', () => {
    const file = {
      type: 'file' as const,
      fileUrl: 'https://x.example/f?public=1&signature=s',
      title: 'form.pdf',
    };
    expect(replyPayload('**Hi**', [])).toEqual({ type: 'markdown', markdown: '**Hi**' });
    expect(replyPayload('See this', [file])).toEqual({
      type: 'bloc',
      items: [{ type: 'markdown', markdown: 'See this' }, file],
    });
    expect(replyPayload('', [file])).toEqual({ type: 'bloc', items: [file] });
  });

  it('reads the tab from the address, All when none or an unknown one', () => {
    expect(tabOf('waiting')).toBe('waiting');
    expect(tabOf('mine')).toBe('mine');
    expect(tabOf(undefined)).toBe('all');
    expect(tabOf('everything')).toBe('all');
  });
});
