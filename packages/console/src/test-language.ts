import { afterAll, beforeAll, vi } from 'vitest';
import { type ConsoleLanguage, loadLanguage } from './i18n.js';

/**
 * For unit tests of the words the Console shows: the tests of the enclosing `describe` run in `language`, as
 * in a browser whose preferred language is `locale` (dates and numbers follow it); English again after them.
 * @example describe('in French', () => { useLanguage('fr', 'fr-FR'); it(…) });
 */
export function useLanguage(language: ConsoleLanguage, locale: string): void {
  beforeAll(async () => {
    vi.stubGlobal('navigator', { languages: [locale] });
    vi.stubGlobal('document', { documentElement: {} });
    await loadLanguage(language);
  });
  afterAll(async () => {
    await loadLanguage('en');
    vi.unstubAllGlobals();
  });
}
