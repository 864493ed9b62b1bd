import { describe, expect, it } from 'vitest';
import { contentDisposition } from './content-disposition.js';

describe('contentDisposition', () => {
  it('quotes a plain ASCII name', () => {
    expect(contentDisposition('report 2026.pdf', 'attachment')).toBe(
      'attachment; filename="report 2026.pdf"',
    );
  });

  it('adds an RFC 8187 filename* for non-ASCII names with an ASCII fallback', () => {
    expect(contentDisposition('résumé.pdf', 'inline')).toBe(
      `inline; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`,
    );
    expect(contentDisposition('数据.csv', 'attachment')).toBe(
      `attachment; filename="__.csv"; filename*=UTF-8''%E6%95%B0%E6%8D%AE.csv`,
    );
  });

  it('never lets quotes, backslashes or line breaks break out of the header', () => {
    const header = contentDisposition('a"b\\c\r\nSet-Cookie: x.txt', 'attachment');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toBe(
      `attachment; filename="a_b_c  Set-Cookie: x.txt"; filename*=UTF-8''a%22b%5Cc%20%20Set-Cookie%3A%20x.txt`,
    );
    expect(decodeURIComponent(header.split("UTF-8''")[1] ?? '')).toBe('a"b\\c  Set-Cookie: x.txt');
  });

  it('encodes the characters RFC 8187 reserves', () => {
    expect(contentDisposition("it's (1)*.txt", 'attachment')).toBe(`attachment; filename="it's (1)*.txt"`);
    expect(contentDisposition("l'été.txt", 'attachment')).toBe(
      `attachment; filename="l'_t_.txt"; filename*=UTF-8''l%27%C3%A9t%C3%A9.txt`,
    );
  });
});
