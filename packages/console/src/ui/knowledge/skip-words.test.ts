import { describe, expect, it } from 'vitest';
import { useLanguage } from '../../test-language.js';
import { isCronSchedule, outcomeWords, scheduleToSend, scheduleWords, skipReason } from './skip-words.js';

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
      expect(scheduleWords('0 3 * * 1')).toBe('à 0 3 * * 1 (cron, UTC)');
      expect(outcomeWords('completed')).toBe('terminée');
    });
  });
});

describe("a website's re-crawl schedule", () => {
  it('says a cron expression with what it is, and a named schedule in words', () => {
    expect(scheduleWords('0 3 * * 1')).toBe('at 0 3 * * 1 (cron, UTC)');
    expect(scheduleWords('weekly')).toBe('weekly');
  });

  it('tells a cron expression from the named schedules', () => {
    for (const named of ['off', 'daily', 'weekly']) expect(isCronSchedule(named)).toBe(false);
    for (const cron of ['0 3 * * 1', '*/30 * * * *', 'constructor']) expect(isCronSchedule(cron)).toBe(true);
  });

  it('sends nothing when off, the named schedule, or the cron expression typed without its outer spaces', () => {
    expect(scheduleToSend('off', '0 3 * * 1')).toBeUndefined();
    expect(scheduleToSend('daily', '0 3 * * 1')).toBe('daily');
    expect(scheduleToSend('weekly', '')).toBe('weekly');
    expect(scheduleToSend('cron', '  0 3 * * 1 ')).toBe('0 3 * * 1');
  });
});
