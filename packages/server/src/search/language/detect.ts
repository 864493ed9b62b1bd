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
/**
 * Letters from which a guess is trusted by its lead alone: tinyld spreads its accuracy over related languages for
 * some (a clear Spanish paragraph: es 0.08, fr 0.02, pt 0.02), so a long text whose best guess is
 * {@link DETECT_LEAD} times the next one's is sure too.
 */
export const DETECT_LEAD_LETTERS = 40;
/** How many times the next guess's accuracy the best one needs on a long text (see DETECT_LEAD_LETTERS). */
export const DETECT_LEAD = 2;
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
  const { guess, sure } = guessLanguage(text);
  return sure ? guess : (baseLanguage(hint) ?? guess);
}

/** The language of `text` when the detector is sure of it (see {@link detectLanguage}), else undefined. */
export function sureLanguage(text: string): string | undefined {
  const { guess, sure } = guessLanguage(text);
  return sure ? guess : undefined;
}

/**
 * The detector's best guess for `text`, and whether it is sure of it: its accuracy reaches DETECT_MIN_ACCURACY
 * (on DETECT_SHORT_LETTERS letters or more, or a few CJK characters), or on a long text it leads the next guess
 * DETECT_LEAD times over.
 */
function guessLanguage(text: string): { guess: string | undefined; sure: boolean } {
  // Symbols say nothing of a language and mislead the detector: a table's `|` reads as Devanagari's danda.
  const sample = text
    .slice(0, DETECT_SAMPLE_CHARS)
    .replace(/[^\p{L}\p{M}\p{N}\s'’.,!?¿¡;:。、！？()-]+/gu, ' ');
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  // CJK characters carry a word each: a few are enough.
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(sample);
  const [best, next] = letters === 0 ? [] : detectAll(sample);
  const leads =
    best !== undefined &&
    letters >= DETECT_LEAD_LETTERS &&
    best.accuracy >= DETECT_LEAD * (next?.accuracy ?? 0);
  const sure =
    best !== undefined &&
    ((best.accuracy >= DETECT_MIN_ACCURACY && (cjk || letters >= DETECT_SHORT_LETTERS)) || leads);
  return { guess: best?.lang, sure };
}

/** What tells a visitor message's language besides its own text (issue #38). */
export interface LanguageHints {
  /** The visitor's earlier messages in the conversation, oldest first: their language, detected together. */
  earlier?: readonly string[];
  /** The locale the webchat sent with the message (the visitor's browser or the page's language, BCP 47). */
  locale?: string | undefined;
}

/**
 * The language of a visitor's message: its own when the detector is sure of it (a sentence of a dozen letters
 * or more, a few CJK characters); else the conversation's (the visitor's earlier messages, detected together,
 * each distinct word once, when the detector is sure of them), else the webchat's locale; else undefined (a
 * short message alone says too little: the reply then reads it in the language of the passages it finds).
 * @example messageLanguage('ok merci', { earlier: ['Combien coûte la livraison en Belgique ?'] }) // 'fr'
 * @example messageLanguage('Lieferzeit?', { locale: 'de-AT' }) // 'de'
 * @example messageLanguage('Lieferzeit?') // undefined
 */
export function messageLanguage(text: string, hints: LanguageHints = {}): string | undefined {
  const own = guessLanguage(text);
  if (own.sure) return own.guess;
  // Each distinct word once: a visitor repeating a word says no more of their language than saying it once (forty
  // "Question N?" read together were sure Italian, and the replies turned Italian).
  const earlier = [...new Set(hints.earlier?.join('\n').split(/\s+/u))].join(' ').trim();
  const conversation = earlier ? guessLanguage(earlier) : undefined;
  if (conversation?.sure) return conversation.guess;
  return baseLanguage(hints.locale);
}
