import type { KnowledgeSource } from '@parley/client';
import { type MessageKey, t, wordsOf } from '../../i18n.js';

/** The reason codes of a page a crawl skipped (docs/knowledge.md, websites), in words. */
const REASONS: Record<string, MessageKey> = {
  robots: 'skip.robots',
  other_host: 'skip.otherHost',
  excluded: 'skip.excluded',
  not_included: 'skip.notIncluded',
  not_http: 'skip.notHttp',
  max_pages: 'skip.maxPages',
  duplicate: 'skip.duplicate',
  noindex: 'skip.noindex',
  too_large: 'skip.tooLarge',
  timeout: 'skip.timeout',
  blocked_address: 'skip.blocked',
  network_error: 'skip.network',
  bad_redirect: 'skip.badRedirect',
  too_many_redirects: 'skip.tooManyRedirects',
  render_failed: 'skip.renderFailed',
  unsupported_format: 'skip.unsupported',
  unreadable_document: 'skip.unreadable',
  empty_document: 'skip.empty',
};

/**
 * Why a crawl skipped a page, in the Console's language: English shows the API's reason code as it is
 * (`http_404`, `content_type image/png`), another language says it in words; an unknown code stays as it is.
 * @example skipReason('redirect_other_host') // 'redirect_other_host' in English, 'redirection : sur un autre hôte' in French
 */
export function skipReason(reason: string): string {
  if (Object.hasOwn(REASONS, reason)) return wordsOf(REASONS, reason);
  const http = /^http_(\d{3})$/.exec(reason);
  if (http) return t('skip.http', { status: http[1] ?? '' });
  const type = /^content_type (.*)$/.exec(reason);
  if (type) return t('skip.contentType', { type: type[1] ?? '' });
  const redirect = /^redirect_(.+)$/.exec(reason);
  if (redirect?.[1] && Object.hasOwn(REASONS, redirect[1]))
    return t('skip.redirect', { reason: skipReason(redirect[1]) });
  return reason;
}

/** How often a site is crawled again, in words. */
const SCHEDULES: Record<string, MessageKey> = { daily: 'site.daily', weekly: 'site.weekly' };

/** How a crawl ended, in words. */
const OUTCOMES: Record<string, MessageKey> = {
  completed: 'site.completed',
  stopped: 'site.stopped',
  failed: 'site.failed',
};

/** What the Website form's "Crawl again" offers: a named schedule, or the times of a cron expression. */
export type ScheduleChoice = 'off' | 'daily' | 'weekly' | 'cron';

/** Whether `schedule` is a cron expression (five fields, UTC) rather than `off`, `daily` or `weekly`. */
export const isCronSchedule = (schedule: string): boolean =>
  schedule !== 'off' && !Object.hasOwn(SCHEDULES, schedule);

/**
 * The `schedule` a new site is sent with: none when off (the server's default), the named one, or the cron
 * expression typed (spaces around it dropped, the server checks the rest).
 * @example scheduleToSend('cron', ' 0 3 * * 1 ') // '0 3 * * 1'
 */
export function scheduleToSend(choice: ScheduleChoice, cron: string): string | undefined {
  if (choice === 'off') return undefined;
  return choice === 'cron' ? cron.trim() : choice;
}

/**
 * A site's schedule in words: daily or weekly, a cron expression with what it is ("at 0 3 * * 1 (cron, UTC)").
 */
export const scheduleWords = (schedule: KnowledgeSource['schedule']): string =>
  isCronSchedule(schedule) ? t('site.cronWords', { expression: schedule }) : wordsOf(SCHEDULES, schedule);

/** A crawl run's outcome in words (as it is when unknown). */
export const outcomeWords = (outcome: string): string => wordsOf(OUTCOMES, outcome);
