import EN from './locales/en.json' with { type: 'json' };

/**
 * The Console's words, one JSON catalog a language in `locales/`. English is in the first load; another
 * language is a chunk of its own, loaded before the first render by a member who reads it (`loadLanguage`).
 */
export type MessageKey = keyof typeof EN;
type Catalog = Record<MessageKey, string>;

/** The Console's languages, each named in its own words. */
export const CONSOLE_LANGUAGES = { en: 'English', fr: 'Français' } as const;
export type ConsoleLanguage = keyof typeof CONSOLE_LANGUAGES;

const isConsoleLanguage = (tag: string): tag is ConsoleLanguage => Object.hasOwn(CONSOLE_LANGUAGES, tag);

const current: { language: ConsoleLanguage; locale: string; texts: Catalog } = {
  language: 'en',
  locale: 'en',
  texts: EN,
};
const listeners = new Set<() => void>();

/**
 * The language to show: the member's choice on this browser, else the first of the browser's languages the
 * Console has (`fr-CA → fr`), else English.
 * @example pickConsoleLanguage(undefined, ['de-DE', 'fr-BE']) // 'fr'
 */
export function pickConsoleLanguage(choice: string | undefined, browser: readonly string[]): ConsoleLanguage {
  if (choice && isConsoleLanguage(choice)) return choice;
  for (const tag of browser) {
    const language = (tag.split('-')[0] ?? '').toLowerCase();
    if (isConsoleLanguage(language)) return language;
  }
  return 'en';
}

/** The language the Console shows now. */
export const consoleLanguage = (): ConsoleLanguage => current.language;

/** The tag dates and numbers are written by: the browser's own when in the same language (`en-GB`), else the language. */
export const consoleLocale = (): string => current.locale;

/** The words of `key` in the current language, `{name}` placeholders filled from `values`. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  const text = current.texts[key] ?? EN[key];
  return text.replace(/\{(\w+)\}/g, (all, name: string) => (name in values ? String(values[name]) : all));
}

/** Catalogs past English, each its own chunk of the build. */
const LOADERS: Record<Exclude<ConsoleLanguage, 'en'>, () => Promise<Catalog>> = {
  fr: () => import('./locales/fr.json', { with: { type: 'json' } }).then((m) => m.default),
};

/**
 * Shows the Console in `language` from now on: loads its catalog (once), sets the page's `lang` and tells
 * the listeners (the App re-renders). A catalog that cannot be loaded leaves the language as it was and rejects.
 */
export async function loadLanguage(language: ConsoleLanguage): Promise<void> {
  const texts = language === 'en' ? EN : await LOADERS[language]();
  current.language = language;
  current.locale =
    navigator.languages.find((tag) => tag.split('-')[0]?.toLowerCase() === language) ?? language;
  current.texts = { ...EN, ...texts };
  document.documentElement.lang = language;
  for (const listener of listeners) listener();
}

/** Calls `listener` after each change of language; answers the unsubscribe. */
export function onLanguageChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * A code of Parley's (an answer mode, a reason, a state) in words: the words of its key in `keys`, else the code
 * as it is.
 * @example wordsOf({ daily: 'site.daily' }, 'daily') // 'chaque jour' in French
 */
export function wordsOf(keys: Readonly<Record<string, MessageKey>>, code: string): string {
  const key = Object.hasOwn(keys, code) ? keys[code] : undefined;
  return key ? t(key) : code;
}
