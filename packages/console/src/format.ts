import { consoleLocale, type MessageKey, t } from './i18n.js';

const dateTimes = new Map<string, Intl.DateTimeFormat>();

/** An ISO timestamp as the Console's language writes a date and time (the browser's region kept). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const locale = consoleLocale();
  let format = dateTimes.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    dateTimes.set(locale, format);
  }
  return format.format(date);
}

/** A browser's user agent as people name it ("Chrome on Linux"), or the raw text when unknown. */
export function describeUserAgent(userAgent: string): string {
  if (!userAgent) return t('account.unknownBrowser');
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : undefined;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : undefined;
  if (!browser) return userAgent.slice(0, 80);
  return system ? t('account.browserOn', { browser, system }) : browser;
}

const BYTE_UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/**
 * A size in bytes as people read it (decimal units, one decimal under 10), the same on every page; '—' for a
 * size not known (a file not uploaded yet).
 * @example formatBytes(1_234_567) // '1.2 MB'
 */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  if (unit === 0) return t(value === 1 ? 'size.byte' : 'size.bytes', { n: formatNumber(value) });
  const shown = value < 10 ? formatNumber(value, 1) : formatNumber(Math.round(value));
  return `${shown} ${BYTE_UNITS[unit]}`;
}

const numbers = new Map<string, Intl.NumberFormat>();

/**
 * A share (0–1) as a whole percentage the way the Console's language writes it (`12%`, `12 %`).
 * @example formatPercent(0.123) // '12%' in English
 */
export function formatPercent(share: number): string {
  return new Intl.NumberFormat(consoleLocale(), { style: 'percent', maximumFractionDigits: 0 }).format(share);
}

/**
 * A number as the Console's language writes it (`1,234.5`, `1 234,5`), with at most `decimals` decimals.
 * @example formatNumber(1234) // '1,234' in English
 */
export function formatNumber(n: number, decimals = 0): string {
  const key = `${consoleLocale()}/${decimals}`;
  let format = numbers.get(key);
  if (!format) {
    format = new Intl.NumberFormat(consoleLocale(), { maximumFractionDigits: decimals });
    numbers.set(key, format);
  }
  return format.format(n);
}

const pluralRules = new Map<string, Intl.PluralRules>();

/**
 * The words of `one` or `other` for the count `n`, as the Console's language chooses (French says
 * "0 fichier", English "0 files"); `{n}` is the count written through Intl.
 * @example formatCount('files.one', 'files.other', 3) // '3 files' in English
 */
export function formatCount(
  one: MessageKey,
  other: MessageKey,
  n: number,
  values: Record<string, string | number> = {},
): string {
  const locale = consoleLocale();
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return t(rules.select(n) === 'one' ? one : other, { ...values, n: formatNumber(n) });
}
