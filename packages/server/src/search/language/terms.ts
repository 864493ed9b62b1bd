import { contentTerms, stemsOf } from '../terms.js';
import { withoutForms } from './forms.js';
import { languageTokens, type TokenLanguage, tokenLanguage } from './tokens.js';

/**
 * The content terms of a question and the terms of a text, in the question's language (issue #38): what the
 * extractive answer weighs, matches and gates on. English (or no language of its own): Porter stems of the
 * folded words, as always (search/terms.ts). Other languages: the tokens the lexical index stores for them
 * (tokens.ts: Snowball stems without stop words; Japanese and Chinese words with their bigrams), so a German
 * question meets a German document on the same stems the search found it by. Computed while answering: a German
 * text's compounds are cut only once the noun list is loaded, never holding the thread for it (compounds.ts).
 */

/**
 * The content terms of a question in `language`: English's Porter stems (contentTerms) unless the language has
 * tokens of its own; then its tokens without its question-form words, duplicates dropped.
 * @example questionTerms('Wie lange dauert die Rückgabe?', 'de') // ['dauert', 'ruckgab']
 */
export function questionTerms(question: string, language?: string): string[] {
  const own = tokenLanguage(language);
  if (!own) return contentTerms(question);
  const terms = [...new Set(languageTokens(withoutForms(question, own), own, 'async'))];
  // In Japanese and Chinese a single character is mostly a verb's stem or a counter (使える, 届く, 日): a term
  // only when the question has no longer one.
  if ((own === 'ja' || own === 'zh') && terms.some((t) => [...t].length > 1))
    return terms.filter((t) => [...t].length > 1);
  return terms;
}

/**
 * The terms of a text in `language`, to tell which of a question's terms it holds: English's Porter stems of
 * every word (stemsOf), or the language's tokens.
 */
export function textTerms(text: string, language?: string): Set<string> {
  const own = tokenLanguage(language);
  if (!own) return stemsOf(text);
  const tokens = languageTokens(text, own, 'async');
  if (!COMPOUNDING.has(own)) return new Set(tokens);
  // Compounds: a long word also holds its last part, its head (Versandkosten: …kost, Fahrrad: …rad), so a
  // question word meets the compound a document writes (first parts: see holdsByPrefix).
  const out = new Set(tokens);
  for (const token of tokens) {
    if (token.length < COMPOUND_MIN) continue;
    for (let n = HEAD_MIN; n <= token.length - HEAD_MIN; n++) out.add(token.slice(token.length - n));
  }
  return out;
}

/** Languages that write compounds as one word. */
const COMPOUNDING: ReadonlySet<TokenLanguage> = new Set(['de', 'nl']);
/** Letters of a word read as a compound, and of its head. */
const COMPOUND_MIN = 7;
const HEAD_MIN = 3;
/** Letters two stems share from their start to count as one word (one is the other's beginning). */
const PREFIX_MIN = 4;
/** Letters of an ending: what a question's word may add to a text's stem it begins with (liefert / liefer). */
const ENDING_MAX = 3;

/**
 * `held` (a text's terms) with the question's `terms` it holds by their beginning: a term that begins one of
 * its stems or that one of them begins, both of {@link PREFIX_MIN} letters or more (Snowball leaves `liefert`
 * and `liefern`, `couvert` and `couvr`, `Rückgabe` and `Rückgabefrist` apart). European languages only (a
 * Japanese or Chinese text's bigrams already do it); English (no language) unchanged.
 */
export function holdsByPrefix(held: Set<string>, terms: readonly string[], language?: string): Set<string> {
  const own = tokenLanguage(language);
  if (!own || own === 'ja' || own === 'zh') return held;
  const long = [...held].filter((s) => s.length >= PREFIX_MIN);
  // A compound of the question that only begins with a word of the text is another thing (a Fahrradcodierung is
  // no Fahrrad): in a compounding language the rest must be an ending ({@link ENDING_MAX} letters at most).
  const begins = (t: string, s: string) =>
    t.startsWith(s) && (!COMPOUNDING.has(own) || t.length - s.length <= ENDING_MAX);
  for (const t of terms) {
    if (held.has(t) || t.length < PREFIX_MIN) continue;
    if (long.some((s) => s.startsWith(t) || begins(t, s))) held.add(t);
  }
  return held;
}
