/**
 * When a website source is crawled again on its own (issue #36): `off`, `daily` or `weekly` from the end of its
 * last crawl, or at the times of a cron expression of five fields, in UTC (`0 3 * * 1`: Mondays at 03:00). Cron
 * expressions are read by croner; one that would crawl more often than {@link MIN_CRON_GAP_MS} apart is
 * refused, as a site's owner would see a crawler that never stops.
 */
import { isCronSchedule, type SourceSchedule } from '@parley/protocol';
import { Cron } from 'croner';
import { errors } from '../../../errors/errors.js';

/** The least time between two crawls a cron schedule may ask for. */
export const MIN_CRON_GAP_MS = 60 * 60_000;
/** How many of a cron expression's next times are looked at for gaps shorter than the least. */
const GAPS_CHECKED = 48;

const PERIOD_MS: Record<'daily' | 'weekly', number> = {
  daily: 86_400_000,
  weekly: 7 * 86_400_000,
};

/** A cron expression read in UTC, never run by croner itself (it only answers when). */
function cronOf(expression: string): Cron {
  return new Cron(expression, { timezone: 'UTC', paused: true });
}

/**
 * When a source on `schedule` next runs after `from` (null: `off`, or a cron expression with no time left).
 * @example nextSyncAfter('0 3 * * 1', new Date('2026-12-06T21:00:00Z')) // '2026-12-07T03:00:00.000Z'
 */
export function nextSyncAfter(schedule: string, from: Date): string | null {
  if (schedule === 'off') return null;
  const period = PERIOD_MS[schedule as keyof typeof PERIOD_MS];
  if (period !== undefined) return new Date(from.getTime() + period).toISOString();
  try {
    return cronOf(schedule).nextRun(from)?.toISOString() ?? null;
  } catch {
    // Checked when the source was made; a stored one croner no longer reads runs no more.
    return null;
  }
}

/**
 * Checks a schedule a request asks for: a cron expression must be one croner reads, have a time to come, and
 * never ask for two crawls less than an hour apart.
 * @throws ApiError InvalidPayload (400) naming the field `schedule`, and why
 */
export function checkSchedule(schedule: SourceSchedule, now: Date): void {
  if (!isCronSchedule(schedule)) return;
  const refuse = (why: string) =>
    errors.invalidPayload(`schedule: ${why}`, [{ field: 'schedule', message: why }]);
  let cron: Cron;
  try {
    cron = cronOf(schedule);
  } catch (error) {
    throw refuse(`"${schedule}" is not a cron expression of five fields (${(error as Error).message})`);
  }
  const times = cron.nextRuns(GAPS_CHECKED, now);
  if (times.length === 0) throw refuse(`"${schedule}" never runs again`);
  for (let i = 1; i < times.length; i++) {
    const gap = (times[i] as Date).getTime() - (times[i - 1] as Date).getTime();
    if (gap < MIN_CRON_GAP_MS)
      throw refuse(
        `"${schedule}" crawls more often than once an hour (runs ${Math.round(gap / 60_000)} min apart)`,
      );
  }
}
