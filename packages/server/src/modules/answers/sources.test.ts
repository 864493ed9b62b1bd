import { describe, expect, it } from 'vitest';
import { atPage } from './sources.js';

describe('atPage', () => {
  const url = 'https://parley.example.com/v1/files/file_1/content?expires=1&signature=abc';

  it('opens a PDF source at its passage’s page', () => {
    expect(atPage(url, 'application/pdf', 3)).toBe(`${url}#page=3`);
    expect(atPage(url, 'Application/PDF; charset=binary', 12)).toBe(`${url}#page=12`);
  });

  it('replaces a fragment the URL already had', () => {
    expect(atPage(`${url}#page=1`, 'application/pdf', 2)).toBe(`${url}#page=2`);
  });

  it('leaves other files, and passages without a page, as they are', () => {
    expect(atPage(url, 'text/markdown', 3)).toBe(url);
    expect(atPage(url, 'application/pdf', undefined)).toBe(url);
    expect(atPage(url, undefined, 3)).toBe(url);
  });
});
