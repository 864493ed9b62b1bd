import { describe, expect, it } from 'vitest';
import { hrefOf, safeHref, safeSrc } from './links.js';

describe('links the webchat puts into the page', () => {
  it.each([
    'javascript:alert(1)',
    ' JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example/x',
    'file:///etc/passwd',
  ])('never follows %s', (url) => {
    expect(safeHref(url)).toBeUndefined();
    expect(safeSrc(url)).toBeUndefined();
    expect(hrefOf(url)).toEqual({});
  });

  it('follows http(s), mailto: and tel: links, and loads only http(s) sources', () => {
    expect(safeHref('https://example.com/a.pdf')).toBe('https://example.com/a.pdf');
    expect(safeHref('HTTP://example.com')).toBe('HTTP://example.com');
    expect(safeHref('mailto:help@example.com')).toBe('mailto:help@example.com');
    expect(safeHref('tel:+15550100')).toBe('tel:+15550100');
    expect(hrefOf('https://example.com')).toEqual({ href: 'https://example.com' });
    expect(safeSrc('https://example.com/p.png')).toBe('https://example.com/p.png');
    expect(safeSrc('mailto:help@example.com')).toBeUndefined();
    expect(safeHref(undefined)).toBeUndefined();
  });
});
