import type { SearchPassage } from '@parley/protocol';
import { questionTerms, textTerms } from '../../search/language/terms.js';
import { carrierWeight, type Expected, expectedAnswer, GUESSED_TYPES } from './answer-type.js';
import { coverageOf, cutAround, languageReading, readWith, termWeights } from './extract-terms.js';
import { sentencesOf, wordsIn } from './sentences.js';
import { tableRows } from './table-rows.js';

// Extractive answers: the sentence (or the two or three adjacent sentences) of the best passages that answer
// the question, instead of whole passages. Pure functions, no I/O.
//
// Every content word of the question is weighted by how rare it is among the sentences of the passages search
// found (an inverse document frequency over that pool; a word found in none of them weighs the most, so a
// question about something the knowledge does not hold covers little of its weight). A quote's coverage is
// the share of the question's weight its words hold. The best quote is the window of adjacent sentences with
// the most coverage, helped a little by the coverage of its whole passage (the sentences around an answer
// often hold the question's other words) and by the passage's search rank; a window grows only when the
// sentence it adds brings words of the question the window lacks, or when it ends on a question (an FAQ's
// question line, whose answer follows). See `bench/answers.ts` for the figures the
// weights were tuned on (SQuAD v1.1 dev articles, a tuning split apart from the reported one).
// The words' weights and coverage, and a language's reading of the sentences, are extract-terms.ts's.

/** Knobs of the extraction; the defaults were tuned on the benchmark's tuning split. */
export interface ExtractOptions {
  /** Passages (best first) whose sentences are quoted from. */
  passages: number;
  /** Passages (best first) whose sentences weigh the question's words (the rarity pool). */
  poolPassages: number;
  /** Weight of the whole passage's coverage beside the quote's own. */
  passageWeight: number;
  /** Score taken off per search rank below the first. */
  rankPenalty: number;
  /** Most sentences in one quote. */
  maxSentences: number;
  /** Most words in one quote; a longer sentence is cut around the question's words. */
  maxWords: number;
  /** Least coverage gain for a window to take one more sentence. */
  growGain: number;
  /** A second source is quoted only at this share of the best quote's score, or more… */
  secondShare: number;
  /** …and when the two quotes together cover this much more of the question's weight than the first alone. */
  secondGain: number;
  /**
   * Added to the rank of a window carrying the answer type the question expects (answer-type.ts: a duration for
   * "how long", a price for "how much is", times for "what hours"…), times how well it carries it.
   */
  numberBonus: number;
  /**
   * Within the quoted passage, a sentence carrying the expected type replaces a best window that carries none
   * when it holds at least this share of the window's coverage…
   */
  typedShare: number;
  /** …and another sentence carrying the type is quoted beside it at this share of its coverage or more. */
  alsoShare: number;
  /**
   * The language the question and the passages are read in (ISO 639-1: its stems or segmented words, its
   * sentence rules and question forms; absent: English). See answerLanguage in language.ts.
   */
  language?: string | undefined;
}

export const EXTRACT_DEFAULTS: ExtractOptions = {
  passages: 3,
  poolPassages: 8,
  passageWeight: 0.35,
  rankPenalty: 0.04,
  maxSentences: 3,
  maxWords: 60,
  growGain: 0.12,
  secondShare: 0.5,
  secondGain: 0.25,
  numberBonus: 0.1,
  typedShare: 0.34,
  alsoShare: 0.75,
};

/** A sentence that is a question (an FAQ's question line). */
const QUESTION_END = /[?？]["'”’)」]*$/u;
/** Sentences of an FAQ's answer a quote may take beyond `maxSentences` (within `maxWords`). */
const FAQ_ANSWER_SENTENCES = 2;

/** A quote chosen for the answer. */
export interface Quote {
  passage: SearchPassage;
  /** The passage's place in the search results (0: first). */
  rank: number;
  /** The quoted sentences, as the passage has them (wrapped lines joined), cut with `…` when too long. */
  text: string;
  /** The headings above the passage, outermost first (its context), when search gave them. */
  heading: string[];
  /** Share of the question's word weight the quote holds (0 to 1). */
  coverage: number;
  /** Share of the question's word weight the whole passage holds. */
  passageCoverage: number;
  /** What ranked it: coverage, passage coverage and rank together. */
  score: number;
  /** Stems of the question's words the quote holds. */
  matched: string[];
}

/** Passage subtypes that are only a heading: never quoted. */
const HEADINGS = new Set(['title', 'subtitle']);

interface PassageSentences {
  passage: SearchPassage;
  rank: number;
  sentences: string[];
  /** The sentences are a table's rows: quoted one per line. */
  rows: boolean;
  /** Each sentence's terms as the question reads it (with its heading's and type words, not English). */
  stems: Set<string>[];
  /** Each sentence's own terms. */
  own: Set<string>[];
  all: Set<string>;
}

/** The best window of adjacent sentences of one passage. */
function bestWindow(
  p: PassageSentences,
  weights: Map<string, number>,
  options: ExtractOptions & { expected: Expected },
): Omit<Quote, 'heading'> | undefined {
  const passageCoverage = coverageOf(weights, p.all).share;
  const prior = options.passageWeight * passageCoverage - options.rankPenalty * p.rank;
  const carried = p.sentences.map((s) => carrierWeight(s, options.expected, options.language));
  // Only types with exact carriers (a duration, a price…) move one passage above another; a place or a person
  // (any capitalised word after "in", any "team") only chooses among a passage's sentences.
  const exact = options.expected.filter((e) => !GUESSED_TYPES.has(e.type));
  const ranked = p.sentences.map((s) => carrierWeight(s, exact, options.language));
  const bonus = (start: number, end: number, of: readonly number[] = carried) =>
    options.numberBonus * Math.max(0, ...of.slice(start, end));
  let best:
    | {
        start: number;
        end: number;
        share: number;
        matched: string[];
        words: number;
        value: number;
        rankValue: number;
      }
    | undefined;
  for (let start = 0; start < p.sentences.length; start++) {
    let window = coverageOf(weights, p.stems[start] as Set<string>);
    let end = start + 1;
    let words = wordsIn(p.sentences[start] as string);
    // Once the window holds an FAQ's question line, it takes the answer after it, up to the next question.
    let answering = false;
    // Grow while the next sentence brings enough of the question's weight and the quote stays short.
    while (
      end < p.sentences.length &&
      end - start < options.maxSentences + (answering ? FAQ_ANSWER_SENTENCES : 0)
    ) {
      const union = new Set([...(p.stems.slice(start, end + 1).flatMap((s) => [...s]) as string[])]);
      const grown = coverageOf(weights, union);
      const more = wordsIn(p.sentences[end] as string);
      if (QUESTION_END.test(p.sentences[end - 1] as string)) answering = true;
      else if (answering && QUESTION_END.test(p.sentences[end] as string)) break;
      if (!answering && grown.share - window.share < options.growGain) break;
      if (words + more > options.maxWords) break;
      window = grown;
      words += more;
      end++;
    }
    // The most coverage (and the expected answer type when the question expects one); on a tie, the fewer
    // sentences (the first window of them: a passage's opening sentence usually says what it is about).
    const value = window.share + (window.share > 0 ? bonus(start, end) : 0);
    const rankValue = window.share + (window.share > 0 ? bonus(start, end, ranked) : 0);
    if (!best || value > best.value || (value === best.value && end - start < best.end - best.start))
      best = { start, end, words, value, rankValue, ...window };
  }
  if (!best || best.share === 0) return undefined;
  const terms = new Set(weights.keys());
  const picked = typedSentences(p, weights, carried, best, options);
  const gap = (i: number, k: number) => !p.rows && k > 0 && i !== (picked[k - 1] as number) + 1;
  const text =
    picked.length === 1
      ? cutAround(p.sentences[picked[0] as number] as string, terms, options.maxWords, options.language)
      : picked.map((i, k) => `${gap(i, k) ? '… ' : ''}${p.sentences[i]}`).join(p.rows ? '\n' : ' ');
  return {
    passage: p.passage,
    rank: p.rank,
    text,
    coverage: best.share,
    passageCoverage,
    score: best.rankValue + prior,
    matched: best.matched,
  };
}

/**
 * The sentences of a passage a quote takes (indices, in order): the best window's, unless the question expects
 * an answer type (answer-type.ts) that the window does not carry and a sentence of the passage does while
 * sharing enough of the question's words ({@link ExtractOptions.typedShare}): then that sentence ("What are your
 * support hours?": the hours, not "Outside these hours, leave a message"). When another sentence of the passage
 * carries the type as well and shares about as many of the question's words, it is quoted too (the 14 days and
 * the 30 days of one returns passage), within `maxWords`. The quote's coverage stays the window's: the gate
 * judges the passage by the words it found there.
 */
function typedSentences(
  p: PassageSentences,
  weights: Map<string, number>,
  carried: readonly number[],
  best: { start: number; end: number; share: number; words: number },
  options: ExtractOptions,
): number[] {
  const window = Array.from({ length: best.end - best.start }, (_, k) => best.start + k);
  const top = Math.max(0, ...carried);
  if (top === 0) return window;
  const share = (i: number) => coverageOf(weights, p.stems[i] as Set<string>).share;
  // Sentences carrying the best-carried type and a word of the question: the most shared first, then in order.
  const carriers = carried
    .flatMap((w, i) => (w === top && share(i) > 0 ? [{ i, share: share(i) }] : []))
    .sort((a, b) => b.share - a.share || a.i - b.i);
  const inWindow = carriers.filter((c) => c.i >= best.start && c.i < best.end);
  let picked = window;
  let words = best.words;
  let anchor = inWindow[0];
  if (!anchor) {
    anchor = carriers.find((c) => c.share >= options.typedShare * best.share);
    if (!anchor) return window;
    picked = [anchor.i];
    words = wordsIn(p.sentences[anchor.i] as string);
  }
  const also = carriers.find(
    (c) =>
      !picked.includes(c.i) &&
      c.share >= options.alsoShare * (anchor?.share ?? 0) &&
      words + wordsIn(p.sentences[c.i] as string) <= options.maxWords,
  );
  return also ? [...picked, also.i].sort((a, b) => a - b) : picked;
}

/** The headings above a passage, from the breadcrumb search gave with it. */
export function headingOf(passage: SearchPassage): string[] {
  const crumb = passage.context?.find((c) => c.type === 'breadcrumb')?.text;
  return crumb ? crumb.split(' › ').filter(Boolean) : [];
}

/**
 * A quote of a passage's leading `sentences`: the first always, then more while they keep within `maxWords`
 * (counted by `count`) and `stop` does not end it. For a passage chosen without a question's words to find the
 * answer by (found by meaning, picked from choices, matched by its heading): it matches none of them.
 */
export function leadingQuote(
  passage: SearchPassage,
  sentences: readonly string[],
  options: {
    maxWords: number;
    score: number;
    count?: (sentence: string) => number;
    stop?: (sentence: string, index: number) => boolean;
  },
): Quote {
  const count = options.count ?? ((sentence: string) => sentence.split(/\s+/).length);
  const picked: string[] = [];
  let words = 0;
  for (const [i, sentence] of sentences.entries()) {
    const n = count(sentence);
    if (picked.length > 0 && (words + n > options.maxWords || options.stop?.(sentence, i))) break;
    picked.push(sentence);
    words += n;
  }
  return {
    passage,
    rank: 0,
    text: picked.join(' '),
    heading: headingOf(passage),
    coverage: 0,
    passageCoverage: 0,
    score: options.score,
    matched: [],
  };
}

/**
 * The quotes that answer the question from the passages search found (best first): the best window of
 * sentences, then at most one more from another document when it scores at least half as well, holds two words
 * of the question or more, and words the first does not (a quarter of the question's weight or more: it says
 * something else). Empty when no sentence shares a content word with the question.
 * @example extractQuotes('How long do refunds take?', passages)[0]?.text // 'Refunds are paid within 5 days.'
 */
export function extractQuotes(
  question: string,
  passages: readonly SearchPassage[],
  options: ExtractOptions = EXTRACT_DEFAULTS,
): Quote[] {
  const { language } = options;
  const terms = questionTerms(question, language);
  if (terms.length === 0) return [];
  const expected = expectedAnswer(question, language);
  const ownTerms = languageReading(terms, expected, language);
  const split: PassageSentences[] = passages
    .map((passage, rank) => ({ passage, rank }))
    .filter(({ passage }) => !HEADINGS.has(passage.meta.subtype ?? ''))
    .slice(0, Math.max(options.passages, options.poolPassages))
    .map(({ passage, rank }) => {
      const headings = headingOf(passage);
      const rows = tableRows(passage);
      const sentences = rows ?? sentencesOf(passage.content, language);
      const own = sentences.map((s) => textTerms(s, language));
      const stems = ownTerms
        ? own.map((held, i) => readWith(ownTerms, headings, sentences[i] as string, held))
        : own;
      return {
        passage,
        rank,
        sentences,
        rows: rows !== undefined,
        stems,
        own,
        all: new Set(stems.flatMap((s) => [...s])),
      };
    });
  // The rarity of a word is its sentences' own (a heading's words held by every sentence under it weigh as
  // the heading's).
  const weights = termWeights(
    terms,
    split.slice(0, options.poolPassages).flatMap((p) => p.own),
  );
  const windows = split
    .slice(0, options.passages)
    .map((p) => bestWindow(p, weights, { ...options, expected }))
    .filter((w): w is Omit<Quote, 'heading'> => w !== undefined)
    .sort((a, b) => b.score - a.score || a.rank - b.rank);
  const first = windows[0];
  if (!first) return [];
  const quotes: Quote[] = [{ ...first, heading: headingOf(first.passage) }];
  // The gain is a share of the weight of the words some passage holds (a word found nowhere cannot be added).
  const pool = new Set(split.slice(0, options.poolPassages).flatMap((p) => [...p.all]));
  const present = new Map([...weights].filter(([t]) => pool.has(t)));
  const gainOf = (w: Omit<Quote, 'heading'>) =>
    coverageOf(present, new Set([...first.matched, ...w.matched])).share -
    coverageOf(present, new Set(first.matched)).share;
  const second = windows.find(
    (w) =>
      w.passage.file.id !== first.passage.file.id &&
      w.score >= options.secondShare * first.score &&
      w.matched.length >= 2 &&
      gainOf(w) >= options.secondGain,
  );
  if (second) quotes.push({ ...second, heading: headingOf(second.passage) });
  return quotes;
}
