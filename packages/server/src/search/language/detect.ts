import { detectAll } from 'tinyld';

/**
 * The language of a text (issue #38): of a document's extracted text at indexing, of a visitor's message when
 * the bot answers. tinyld's guess, as an ISO 639-1 code; a short or unclear message falls back to the
 * locale the conversation or webchat gave (`hint`), else undefined (callers then treat it as English).
 */

/** Guesses below this accuracy are not trusted alone (tinyld answers ~1 for a clear sentence). */
export const DETECT_MIN_ACCURACY = 0.5;
/** Messages with fewer letters than this take the hint when there is one. */
export const DETECT_SHORT_LETTERS = 12;
/** Characters of a document read for its language (its beginning; enough for tinyld, cheap for a big file). */
export const DETECT_SAMPLE_CHARS = 4000;

/** The base language of a BCP-47 tag: `fr-CA` → `fr`; undefined for none. */
export function baseLanguage(tag: string | undefined): string | undefined {
  const base = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return base && /^[a-z]{2,3}$/.test(base) ? base : undefined;
}

/**
 * The language of `text`: the detector's best guess when it is sure; else `hint` (the conversation's or the
 * webchat's locale) when given, else the guess if any.
 * @example detectLanguage('Wie lange dauert die Rückgabe?') // 'de'
 * @example detectLanguage('ok', 'fr-FR') // 'fr'
 */
export function detectLanguage(text: string, hint?: string): string | undefined {
  const sample = text.slice(0, DETECT_SAMPLE_CHARS);
  const hinted = baseLanguage(hint);
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  // CJK characters carry a word each: a few are enough.
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(sample);
  const best = letters === 0 ? undefined : detectAll(sample)[0];
  const sure = best && best.accuracy >= DETECT_MIN_ACCURACY && (cjk || letters >= DETECT_SHORT_LETTERS);
  if (sure) return best.lang;
  return hinted ?? best?.lang;
}
