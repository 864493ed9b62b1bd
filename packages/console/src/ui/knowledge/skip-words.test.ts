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
      expect(skipReason('robots')).toBe('refusée par robots.txt');
      expect(skipReason('http_404')).toBe('erreur HTTP 404');
      expect(skipReason('content_type image/png')).toBe('type de contenu image/png non pris en charge');
      expect(skipReason('redirect_other_host')).toBe('redirection : sur un autre hôte');
      expect(skipReason('redirect_somewhere')).toBe('redirect_somewhere');
      expect(skipReason('new_reason')).toBe('new_reason');
      expect(skipReason('constructor')).toBe('constructor');
      expect(scheduleWords('weekly')).toBe('chaque semaine');
      expect(outcomeWords('completed')).toBe('terminée');
    });
  });
});
