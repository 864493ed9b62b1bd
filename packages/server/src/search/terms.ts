import { stemmer } from 'stemmer';
import { foldText, isStopword } from './index/index.js';

// The content words of a text as the lexical index sees them: folded (lower case, no diacritics), stopwords and
// one-letter words dropped, Porter-stemmed (the stemmer SQLite FTS5 indexes with). Used to tell whether a
// passage holds every content word of a query (search fusion) and how many (the answers' relevance bar).

/** The Porter stem of a folded word (the stemmer SQLite FTS5 indexes with), possessive `'s` removed. */
export function stem(word: string): string {
  return stemmer(word.replace(/['’]s$/u, ''));
}

/** The words of a text, folded, apostrophes at their ends removed. */
export function words(text: string): string[] {
  return foldText(text)
    .split(/[^\p{L}\p{N}'’]+/u)
    .map((w) => w.replace(/^['’]+|['’]+$/gu, ''))
    .filter(Boolean);
}

/**
 * Words that make a question's form, not its subject ("how many", "how much", "how long", "how often", "how
 * soon", "do I get"): the answer holds a number, a date or a thing, not the word. Left out of a question's
 * content words.
 */
const QUESTION_FORM = new Set(['many', 'much', 'long', 'often', 'soon', 'get']);

/**
 * The stems of a question's content words: stopwords, question-form words and one-letter words dropped,
 * duplicates dropped.
 * @example contentTerms('How long do refunds take?') // ['refund', 'take']
 */
export function contentTerms(question: string): string[] {
  const out = new Set<string>();
  for (const w of words(question)) {
    if (w.length < 2 || isStopword(w) || QUESTION_FORM.has(w)) continue;
    out.add(stem(w));
  }
  return [...out];
}

/** The stems of every word of `text` (for checking which query terms a passage holds). */
export function stemsOf(text: string): Set<string> {
  return new Set(words(text).map(stem));
}
