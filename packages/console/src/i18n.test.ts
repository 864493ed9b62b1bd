import { describe, expect, it } from 'vitest';
import { pickConsoleLanguage } from './i18n.js';

describe('the Console language', () => {
  it("is the member's choice, else the browser's first language the Console has, else English", () => {
    expect(pickConsoleLanguage('fr', ['en-US'])).toBe('fr');
    expect(pickConsoleLanguage('en', ['fr-FR'])).toBe('en');
    expect(pickConsoleLanguage('', ['de-DE', 'fr-CA', 'en'])).toBe('fr');
    expect(pickConsoleLanguage('klingon', ['EN-gb'])).toBe('en');
    expect(pickConsoleLanguage(undefined, ['de-DE', 'ja'])).toBe('en');
  });
});
