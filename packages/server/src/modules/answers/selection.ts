import type { SearchPassage } from '@parley/protocol';
import { questionTerms, textTerms } from '../../search/language/terms.js';
import { EXTRACT_DEFAULTS, type ExtractOptions, extractQuotes, leadingQuote, type Quote } from './extract.js';
import { MEANING_MARGIN } from './relevance.js';
import { passageSentences } from './sentences.js';

// What an answer rests on: the quotes of the extraction (extract.ts) when the best one covers enough of the
// question, else a passage found by meaning alone when the embedder's similarity clears its bar (a paraphrase
// sharing no word with the text), else nothing: the bot says it found nothing.

/**
 * The "not found" gate with an embedder of known similarity scale (the shipped USE-lite): a quote is evidence
 * enough when its coverage of the question's word weight plus its passage's cosine similarity to the question
 * reaches this. Tuned on the answers benchmark's tuning split (bench/answers.ts, SQuAD v1.1 dev articles):
 * the best sum for answer accuracy while ≥ 90 % of questions whose answer is in no document get the honest
 * reply (there: 0.805 answer accuracy, 0.91 of those questions answered honestly; coverage alone at its best
 * bar gave 0.705 accuracy for 0.89). Such questions share
 * their common words with the knowledge but miss their rare ones (names, the subject), which the rarity
 * weighting makes count, and their nearest passages are less similar.
 */
export const MIN_EVIDENCE = 0.86;

/** The gate by words alone (no embedder, or one of unknown scale): least coverage of the best quote. */
export const MIN_COVERAGE = 0.42;

/** Words quoted from a passage found by meaning alone (its first sentences). */
const BRIDGED_WORDS = 45;

/** What the answer rests on, and how it was chosen. */
export interface Selection {
  quotes: Quote[];
  /** `words`: quotes sharing words with the question; `meaning`: a passage found by meaning alone. */
  by: 'words' | 'meaning' | 'none';
  /** The best quote by words, even when it was not enough (for the debug details). */
  best: Quote | undefined;
  /** Names of the question found in none of the passages (then nothing answers). */
  missingNames?: string[];
}

/** A passage found by meaning alone, quoted from its start (no word of the question to find an answer by). */
function bridgedQuote(passage: SearchPassage): Quote {
  return leadingQuote(passage, passageSentences(passage), { maxWords: BRIDGED_WORDS, score: passage.score });
}

/**
 * The names a question asks about: its capitalised words that do not start a sentence (`Aria`, `H2`, `Huguenots`;
 * not the `How` of "How long…", nor `I`, nor stopwords). A question typed in lower case names nothing, and so
 * does one without any lower-case content word (written in capitals or in Title Case: capitals say nothing there).
 * Nor does a question in German (every noun is capitalised) or in a language without capitals (Japanese, Chinese).
 * @example namesOf('Does the Tessera speaker support Dolby Atmos?') // ['Tessera', 'Dolby', 'Atmos']
 */
export function namesOf(question: string, language?: string): string[] {
  if (language && NO_NAMES_BY_CAPITALS.has(language)) return [];
  const contentTerms = (w: string) => questionTerms(w, language);
  const content = question
    .split(/\s+/)
    .map(bare)
    .filter((w) => contentTerms(w).length > 0);
  if (!content.some((w) => /^\p{Ll}/u.test(w))) return [];
  const names: string[] = [];
  for (const sentence of question.split(/[.!?]\s+/)) {
    for (const word of sentence.trim().split(/\s+/).slice(1).map(bare)) {
      if (word.length > 1 && /^\p{Lu}/u.test(word) && contentTerms(word).length > 0) names.push(word);
    }
  }
  return names;
}

/** Languages whose capitals name nothing: German capitalises every noun; Japanese and Chinese have none. */
const NO_NAMES_BY_CAPITALS = new Set(['de', 'ja', 'zh', 'ko']);

/** A token without the punctuation around it. */
const bare = (token: string) => token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/**
 * The names the question asks about that are in none of the passages the answer would be drawn from. A name found
 * in none (a product, a person, a place the knowledge never mentions) means the knowledge does not hold the
 * answer, however many common words match: on the tuning split this turned 0.91 of the questions without an
 * answer honest into 0.95, for 0.015 of answer accuracy.
 */
function missingNames(question: string, passages: readonly SearchPassage[], language?: string): string[] {
  const names = namesOf(question, language);
  if (names.length === 0) return [];
  const held = new Set(passages.flatMap((p) => [...textTerms(p.content, language)]));
  return names.filter((name) => ![...textTerms(name, language)].some((t) => held.has(t)));
}

/** Bars of the gate; the defaults are the tuned ones. */
export interface GateOptions {
  minEvidence: number;
  minCoverage: number;
}

/** The tuned knobs of the extraction and the gate (English; add `language` for a question in another). */
export const SELECT_DEFAULTS: ExtractOptions & GateOptions = {
  ...EXTRACT_DEFAULTS,
  minEvidence: MIN_EVIDENCE,
  minCoverage: MIN_COVERAGE,
};

const passageKey = (p: SearchPassage) => `${p.file.id}#${p.meta.position ?? p.content}`;

/**
 * A quote's passage's cosine similarity to the question, from the search by meaning: its own score when it
 * is among the results, else the lowest score there (it was less similar than all of them); undefined
 * without a search by meaning.
 */
function similarityOf(passage: SearchPassage, semantic: readonly SearchPassage[]): number | undefined {
  if (semantic.length === 0) return undefined;
  const key = passageKey(passage);
  const own = semantic.find((p) => passageKey(p) === key);
  return own ? own.score : Math.min(...semantic.map((p) => p.score));
}

/**
 * The quotes an answer rests on: by words when a quote passes the gate ({@link MIN_EVIDENCE} with a similarity
 * scale, {@link MIN_COVERAGE} by words alone); else the closest passage by meaning when `minSimilarity` is
 * set, it reaches it and it is more similar than the next passage by {@link MEANING_MARGIN}; else none (the
 * bot says it found nothing).
 * @example selectQuotes('refund deadline', found, semantic, USE_LITE_MIN_SIMILARITY).quotes[0]?.text
 */
export function selectQuotes(
  question: string,
  found: readonly SearchPassage[],
  semantic: readonly SearchPassage[],
  minSimilarity: number | undefined,
  options: ExtractOptions & GateOptions = SELECT_DEFAULTS,
): Selection {
  const { language } = options;
  const missing = missingNames(question, found.slice(0, options.passages), language);
  if (missing.length > 0) return { quotes: [], by: 'none', best: undefined, missingNames: missing };
  const quotes = extractQuotes(question, found, options);
  const best = quotes[0];
  const scaled = minSimilarity !== undefined && semantic.length > 0;
  const passes = (q: Quote) => {
    const similarity = scaled ? similarityOf(q.passage, semantic) : undefined;
    return similarity === undefined
      ? q.coverage >= options.minCoverage
      : q.coverage + similarity >= options.minEvidence;
  };
  // A second quote answers another part of the question (extract.ts): the gate judges the answer by its first.
  if (best && passes(best)) return { quotes, by: 'words', best };
  if (minSimilarity !== undefined) {
    const [close, next] = semantic
      .filter((p) => p.meta.subtype !== 'title' && p.meta.subtype !== 'subtitle')
      .sort((a, b) => b.score - a.score);
    if (close && close.score >= minSimilarity && close.score - (next?.score ?? 0) >= MEANING_MARGIN)
      return { quotes: [bridgedQuote(close)], by: 'meaning', best };
  }
  return { quotes: [], by: 'none', best };
}
