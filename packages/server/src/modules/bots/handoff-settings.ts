import type { BotHandoff } from '@parley/protocol';
import { errors } from '../../errors/errors.js';
import { storedObject } from './stored-object.js';

// A bot's human handoff settings (issue #35): stored as JSON in `bots.handoff`, checked on the way in (the
// schema has bounded the numbers and shapes), read back leniently (what is not a setting is left out).

const bad = (field: string, message: string) =>
  errors.invalidPayload(`handoff.${field} ${message}`, [{ field: `handoff.${field}`, message }]);

/** Whether `timezone` is an IANA time zone this runtime knows. */
function knownTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/**
 * 400 InvalidPayload (naming the field) when the opening hours name an unknown time zone or a span that does
 * not end after it starts, or the webhook URL is not http(s); otherwise the settings as stored.
 */
export function checkHandoff(handoff: BotHandoff): BotHandoff {
  const hours = handoff.openingHours;
  if (hours) {
    if (!knownTimezone(hours.timezone))
      throw bad('openingHours.timezone', `"${hours.timezone}" is not a known IANA time zone`);
    hours.days.forEach((span, i) => {
      if (span.from >= span.to) throw bad(`openingHours.days.${i}`, 'must end (to) after it starts (from)');
    });
  }
  const url = handoff.webhookUrl;
  if (url && !/^https?:\/\//i.test(url)) throw bad('webhookUrl', 'must be an http(s) URL');
  const out: BotHandoff = {};
  if (handoff.waitSeconds !== undefined) out.waitSeconds = handoff.waitSeconds;
  if (hours) out.openingHours = hours;
  if (handoff.offerAfterMisses !== undefined) out.offerAfterMisses = handoff.offerAfterMisses;
  if (url) out.webhookUrl = url;
  return out;
}

/** The stored handoff settings (JSON) as the wire shows them: only the settings set. */
export function handoffOf(stored: string | null | undefined): BotHandoff {
  const r = storedObject(stored);
  const out: BotHandoff = {};
  if (typeof r.waitSeconds === 'number') out.waitSeconds = r.waitSeconds;
  if (r.openingHours && typeof r.openingHours === 'object')
    out.openingHours = r.openingHours as NonNullable<BotHandoff['openingHours']>;
  if (r.offerAfterMisses === 0 || r.offerAfterMisses === 1 || r.offerAfterMisses === 2)
    out.offerAfterMisses = r.offerAfterMisses;
  if (typeof r.webhookUrl === 'string') out.webhookUrl = r.webhookUrl;
  return out;
}
