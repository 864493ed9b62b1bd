// The question's words as extract.ts weighs them and finds them in sentences: their rarity weights, the share
// of them a set of terms holds, a long sentence cut around them, and how a question in a language of its own
// (not English) reads a passage's sentences. Pure functions, no I/O.
import { holdsByPrefix, textTerms } from '../../search/language/terms.js';
import { tokenLanguage } from '../../search/language/tokens.js';
import { carrierWeight, type Expected, TYPE_WORDS } from './answer-type.js';

/** The question's terms weighted by rarity among the pool's sentences (absent terms weigh the most). */
export function termWeights(terms: readonly string[], pool: readonly Set<string>[]): Map<string, number> {
  const n = pool.length;
  const weights = new Map<string, number>();
  for (const t of terms) {
    let df = 0;
    for (const s of pool) if (s.has(t)) df++;
    weights.set(t, Math.log(1 + (n + 1) / (df + 0.5)));
  }
  return weights;
}

/** Share of the total weight held by the terms `stems` contains, and which. */
export function coverageOf(
  weights: Map<string, number>,
  stems: Set<string>,
): { share: number; matched: string[] } {
  let total = 0;
  let held = 0;
  const matched: string[] = [];
  for (const [t, w] of weights) {
    total += w;
    if (stems.has(t)) {
      held += w;
      matched.push(t);
    }
  }
  return { share: total > 0 ? held / total : 0, matched };
}

/** At most `max` words of a long sentence, around the question's words, cut with `…`. */
export function cutAround(
  sentence: string,
  terms: ReadonlySet<string>,
  max: number,
  language?: string,
): string {
  const words = sentence.split(/\s+/);
  if (words.length <= max) return sentence;
  const hits = words.map((w) => [...textTerms(w, language)].some((s) => terms.has(s)));
  let densest = 0;
  let bestCount = -1;
  for (let start = 0; start + max <= words.length; start++) {
    let count = 0;
    for (let i = start; i < start + max; i++) if (hits[i]) count++;
    if (count > bestCount) {
      densest = start;
      bestCount = count;
    }
  }
  // The densest window, shifted so that its first and last hits sit in its middle.
  const inside = hits.flatMap((hit, i) => (hit && i >= densest && i < densest + max ? [i] : []));
  const middle = ((inside[0] ?? densest) + (inside.at(-1) ?? densest + max - 1)) / 2;
  const best = Math.min(words.length - max, Math.max(0, Math.round(middle - max / 2)));
  const cut = words.slice(best, best + max).join(' ');
  return `${best > 0 ? '…' : ''}${cut}${best + max < words.length ? '…' : ''}`;
}

/** How a question in a language of its own (not English) reads a passage's sentences: see {@link readWith}. */
export interface LanguageReading {
  language: string;
  terms: readonly string[];
  expected: Expected;
  /** The question's terms that are type words ({@link TYPE_WORDS}). */
  typeTerms: string[];
}

/** The reading of a question in a language of its own, undefined for English (tuned without it). */
export function languageReading(
  terms: readonly string[],
  expected: Expected,
  language: string | undefined,
): LanguageReading | undefined {
  if (!language || !tokenLanguage(language)) return undefined;
  const words = expected.map((e) => TYPE_WORDS[language]?.[e.type] ?? '').join(' ');
  const typed = textTerms(words, language);
  return { language, terms, expected, typeTerms: terms.filter((t) => typed.has(t)) };
}

/**
 * The terms a sentence holds for a question in a language of its own: its words' (`held`), the question's
 * terms they begin or that begin them (holdsByPrefix), its section's heading's (the innermost of its passage's
 * `headings`, below the document's title: a question naming the topic names what the sentences under it are
 * about; the words-alone counterpart of units.ts, which compares headings by meaning where the embedder reads
 * the language), and the question's type words when it carries the answer type and holds a subject word of the
 * question too ("was kostet der Versand": a sentence on shipping with a price answers "kostet").
 */
export function readWith(
  reading: LanguageReading,
  headings: readonly string[],
  sentence: string,
  held: Set<string>,
): Set<string> {
  const { language, terms, expected, typeTerms } = reading;
  const out = holdsByPrefix(new Set(held), terms, language);
  if (headings.length >= 2)
    for (const t of holdsByPrefix(textTerms(headings.at(-1) as string, language), terms, language))
      out.add(t);
  // Only beside a subject word of the question: a price alone answers no "can I pay with bitcoin".
  const subject = terms.some((t) => out.has(t) && !typeTerms.includes(t));
  if (subject && typeTerms.length > 0 && carrierWeight(sentence, expected, language) > 0)
    for (const t of typeTerms) out.add(t);
  return out;
}
