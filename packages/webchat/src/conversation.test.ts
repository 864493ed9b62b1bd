import { afterEach, describe, expect, it, vi } from 'vitest';
import { whereFrom } from './conversation.js';

// The locale hint a visitor's message carries (issue #38): the language the webchat shows, not the browser's.
describe('whereFrom', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("sends the locale the webchat shows, not the browser's language, and the page without query or fragment", () => {
    vi.stubGlobal('navigator', { language: 'en-US', languages: ['en-US', 'de-DE'] });
    vi.stubGlobal('location', { origin: 'https://shop.example', pathname: '/help', search: '?token=secret' });
    expect(whereFrom('fr-CA')).toEqual({ page: 'https://shop.example/help', language: 'fr-CA' });
  });

  it('leaves the page out when the webchat runs outside an http(s) page', () => {
    vi.stubGlobal('location', { origin: 'null', pathname: '/index.html' });
    expect(whereFrom('ja')).toEqual({ language: 'ja' });
  });
});
