import { RTL_LOCALES, WEBCHAT_LOCALES, webchatLocaleOf } from '@parley/protocol';
import { WebchatError } from './config.js';
import EN from './locales/en.json' with { type: 'json' };

/**
 * Every text the webchat shows or announces, one JSON catalog a language in `locales/` (`{botName}`,
 * `{count}` and `{name}` are replaced). English ships inside webchat.js; every other catalog is a file of
 * its own (`locale-<tag>.json` beside webchat.js), fetched only by a visitor who needs it.
 * Errors are shown as these sentences; the `error` event keeps the technical message.
 */
export const ENGLISH: Strings = EN;

/** The keys of the UI texts. */
export type StringKey = keyof typeof EN;
/** The UI texts of one locale. */
export type Strings = Record<StringKey, string>;

/** The shipped locale of a language tag by the chain `fr-CA → fr` (undefined when not shipped). */
export const shippedLocale = (locale: string): string | undefined => webchatLocaleOf(locale);

/**
 * The UI language: the first candidate that is shipped (the page's `locale`, then the bot's
 * `defaultLocale`, then the browser's `navigator.languages` in order), else `en`.
 * @example pickLocale([undefined, '', 'ko-KR', 'de-DE']) // 'de'
 */
export function pickLocale(candidates: readonly (string | undefined)[]): string {
  return shippedLocale(pickLocaleTag(candidates)) ?? 'en';
}

/**
 * The tag the UI language was chosen by, as given (with its region: the locale hint each message carries):
 * the first candidate whose language is shipped, else `en`.
 * @example pickLocaleTag([undefined, 'ko-KR', 'fr-CA']) // 'fr-CA'
 */
export function pickLocaleTag(candidates: readonly (string | undefined)[]): string {
  return candidates.find((candidate) => candidate && shippedLocale(candidate)) ?? 'en';
}

/** Whether a shipped locale is written right to left (Arabic, Hebrew). */
export const isRightToLeft = (locale: string): boolean => RTL_LOCALES.includes(locale);

const catalogs = new Map<string, Strings>([['en', ENGLISH]]);
const loading = new Map<string, Promise<Strings>>();

/** Whether a locale's catalog is at hand (English always is). */
export const catalogLoaded = (locale: string): boolean => catalogs.has(locale);

/** The texts of a locale already loaded (English until its catalog has arrived). */
export function catalogOf(locale: string): Strings {
  return catalogs.get(locale) ?? ENGLISH;
}

/** A fetched catalog over English: a missing or non-string text falls back to the English one. */
function overEnglish(json: unknown): Strings {
  const texts: Strings = { ...ENGLISH };
  if (typeof json !== 'object' || json === null) return texts;
  for (const key of Object.keys(texts) as StringKey[]) {
    const value = (json as Record<string, unknown>)[key];
    if (typeof value === 'string' && value !== '') texts[key] = value;
  }
  return texts;
}

/**
 * Loads a shipped locale's catalog once (from `scriptBase`, the folder of webchat.js); English is built in.
 * Rejects with a WebchatError when the file cannot be fetched; a later call tries again.
 */
export function loadCatalog(locale: string, scriptBase: string): Promise<Strings> {
  const ready = catalogs.get(locale);
  if (ready) return Promise.resolve(ready);
  let promise = loading.get(locale);
  if (!promise) {
    const url = `${scriptBase}locale-${locale}.json`;
    promise = fetch(url, { headers: { accept: 'application/json' } })
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const texts = overEnglish(await res.json());
        catalogs.set(locale, texts);
        return texts;
      })
      .catch((error: unknown) => {
        throw new WebchatError(
          `Could not load the ${locale} texts from ${url} (${(error as Error).message}); showing English`,
          [{ field: 'locale', message: 'catalog could not be loaded' }],
        );
      })
      .finally(() => loading.delete(locale));
    loading.set(locale, promise);
  }
  return promise;
}

/** Checks `{locale?, strings?}` given to init or config: an error names the bad key; nothing applies then. */
export function checkLocale(locale: unknown, strings: unknown): WebchatError | undefined {
  if (locale !== undefined && (typeof locale !== 'string' || !shippedLocale(locale))) {
    return new WebchatError(
      `locale ${JSON.stringify(locale)} is not shipped (${WEBCHAT_LOCALES.join(', ')}); translate with strings`,
      [{ field: 'locale', message: 'is not a shipped locale' }],
    );
  }
  if (strings === undefined) return undefined;
  if (typeof strings !== 'object' || strings === null || Array.isArray(strings))
    return new WebchatError('strings must be an object of UI texts', [
      { field: 'strings', message: 'must be an object' },
    ]);
  for (const [key, value] of Object.entries(strings)) {
    if (!Object.hasOwn(ENGLISH, key))
      return new WebchatError(`strings.${key} is not a webchat string`, [
        { field: `strings.${key}`, message: 'is not a webchat string' },
      ]);
    if (typeof value !== 'string')
      return new WebchatError(`strings.${key} must be a string`, [
        { field: `strings.${key}`, message: 'must be a string' },
      ]);
  }
  return undefined;
}

/** The texts of a loaded catalog with the page's overrides (later ones winning). */
export function resolveStrings(texts: Strings, ...overrides: Partial<Strings>[]): Strings {
  return Object.assign({}, texts, ...overrides);
}

/** Fills `{name}` placeholders. */
export function format(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (all, key: string) => (key in values ? String(values[key]) : all));
}
