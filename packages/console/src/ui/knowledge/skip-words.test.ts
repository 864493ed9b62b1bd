import { describe, expect, it } from 'vitest';
import { useLanguage } from '../../test-language.js';
import { outcomeWords, scheduleWords, skipReason } from './skip-words.js';

describe('skipReason: why a crawl skipped a page', () => {
  it('is the reason code of the API in English, unknown codes too', () => {
    for (const code of [
      'robots',
      'excluded',
      'http_404',
      'content_type image/png',
      'redirect_other_host',
      'new_reason',
    ])
      expect(skipReason(code)).toBe(code);
    expect(scheduleWords('daily')).toBe('daily');
    expect(outcomeWords('stopped')).toBe('stopped');
  });

  describe('in French', () => {
    useLanguage('fr', 'fr-FR');

    it('says each reason in words, with the status, type or redirect it names; an unknown code stays', () => {
      const words = {
        robots: 'refusée par robots.txt',
        http_404: 'erreur HTTP 404',
        'content_type image/png': 'type de contenu image/png non pris en charge',
        redirect_other_host: 'redirection : sur un autre hôte',
      };
      for (const [code, said] of Object.entries(words)) expect(skipReason(code)).toBe(said);
      for (const code of ['redirect_somewhere', 'new_reason', 'constructor'])
        expect(skipReason(code)).toBe(code);
      expect(scheduleWords('weekly')).toBe('chaque semaine');
      expect(outcomeWords('completed')).toBe('terminée');
    });
  });
});
