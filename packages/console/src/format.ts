import { consoleLocale } from './i18n.js';

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
  if (!userAgent) return 'Unknown browser';
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
  return system ? `${browser} on ${system}` : browser;
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
  if (unit === 0) return `${value} ${value === 1 ? 'byte' : 'bytes'}`;
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value)} ${BYTE_UNITS[unit]}`;
}
