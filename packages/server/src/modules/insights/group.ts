import type { UnansweredQuestion } from '@parley/protocol';
import { cosine, type QuestionVectors } from './semantic.js';

/** Words that carry no topic: a question's wording, not what it is about. */
const STOP_WORDS = new Set(
  (
    'a an the and or but if of to in on at by for with from about into over under as is are was were be been ' +
    'being am do does did done have has had having can could would should will shall may might must i me my ' +
    'mine we us our you your he him his she her it its they them their what which who whom whose when where ' +
    'why how this that these those there here any some all no not nor so than too very just also please tell ' +
    'know want need get find show give let make there s t'
  ).split(' '),
);

/** Two questions whose content words overlap at least this much (Jaccard, words matching by sameWord) are one question. */
export const SIMILARITY = 0.5;
/** Most groups answered. */
export const MAX_GROUPS = 20;
/** Most other wordings kept per group. */
const MAX_VARIANTS = 5;
/** Characters of a question kept for grouping and in the answer (a longer one is cut). */
export const MAX_QUESTION_CHARS = 300;
/** Content words of a question compared (its first ones): similarity costs their product. */
const MAX_WORDS = 32;
/** Longest run of grouping between two yields to the event loop (ms). */
const SLICE_MS = 10;

/** A word without its plural or verb ending, so "refunds" and "refund", "shipping" and "ship" meet. */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/**
 * The content words of a question: lower case, accents and punctuation dropped, stop words left out, stemmed.
 * @example contentWords('How do I get a REFUND?') // Set { 'refund' }
 */
export function contentWords(text: string): Set<string> {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !STOP_WORDS.has(w))
    .map(stem);
  return new Set([...new Set(words)].slice(0, MAX_WORDS));
}

/** Words shorter than this match only themselves; longer ones also match words they begin (deliver, delivery). */
const PREFIX_MIN = 4;

/** Whether two content words are the same word: equal, or one begins the other ("deliver" and "delivery"). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.min(a.length, b.length) < PREFIX_MIN) return false;
  return a.startsWith(b) || b.startsWith(a);
}

/** The index key of a word: what every word it may match (sameWord) begins with. */
const wordKey = (word: string) => word.slice(0, PREFIX_MIN);

/** Jaccard similarity of two sets of words, words matching by sameWord. */
function similarity(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const w of a) {
    for (const v of b) {
      if (sameWord(w, v)) {
        shared++;
        break;
      }
    }
  }
  const union = a.size + b.size - shared;
  return union <= 0 ? 1 : shared / union;
}

interface Group {
  words: Set<string>;
  count: number;
  lastAskedAt: string;
  /** Wordings by their lower-case form (trimmed, spaces squeezed): the latest as typed, count, latest time. */
  wordings: Map<string, { text: string; count: number; at: string }>;
  /** The embedding of the question that opened the group, when questions are grouped by meaning too. */
  vector: Float32Array | undefined;
}

/**
 * A question as it is grouped and answered: its first MAX_QUESTION_CHARS characters (a surrogate pair never
 * split), spaces squeezed, trimmed (its lower case keys its vector).
 */
export function wordingOf(text: string): string {
  const start = text.length > MAX_QUESTION_CHARS * 2 ? text.slice(0, MAX_QUESTION_CHARS * 2) : text;
  const squeezed = start.replace(/\s+/g, ' ').trim();
  if (squeezed.length <= MAX_QUESTION_CHARS) return squeezed;
  return Array.from(squeezed).slice(0, MAX_QUESTION_CHARS).join('').trim();
}

/** Resolves on the event loop's next turn (after pending I/O), so a long computation lets requests through. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The group closest in meaning to `vector` at or above the bar, if any. */
function closestByMeaning(vector: Float32Array, groups: Group[], minSimilarity: number): Group | undefined {
  let best: Group | undefined;
  let bestScore = minSimilarity;
  for (const g of groups) {
    if (!g.vector) continue;
    const score = cosine(vector, g.vector);
    if (score >= bestScore) {
      best = g;
      bestScore = score;
    }
  }
  return best;
}

/** The group `words` belongs to among those sharing a word with it (the most similar at or above SIMILARITY). */
function closest(words: Set<string>, groups: Group[], byWord: Map<string, Group[]>): Group | undefined {
  const candidates = new Set<Group>();
  for (const w of words) for (const g of byWord.get(wordKey(w)) ?? []) candidates.add(g);
  let best: Group | undefined;
  let bestScore = SIMILARITY;
  for (const g of candidates) {
    const score = similarity(words, g.words);
    if (score >= bestScore) {
      best = g;
      bestScore = score;
    }
  }
  if (best || words.size > 0) return best;
  return groups.find((g) => g.words.size === 0);
}

/** The group of a question: by its words first, else by its meaning (when vectors are given). */
function groupOf(
  words: Set<string>,
  vector: Float32Array | undefined,
  groups: Group[],
  byWord: Map<string, Group[]>,
  semantic: QuestionVectors | undefined,
): Group | undefined {
  const byWords = closest(words, groups, byWord);
  if (byWords || !vector || !semantic) return byWords;
  return closestByMeaning(vector, groups, semantic.minSimilarity);
}

/** A group as the API answers it: its most asked wording (the latest among equals), then the others. */
function toQuestion(g: Group): UnansweredQuestion {
  const wordings = [...g.wordings.values()].sort((a, b) => b.count - a.count || b.at.localeCompare(a.at));
  const [first, ...others] = wordings.map((w) => w.text);
  return {
    question: first ?? '',
    count: g.count,
    lastAskedAt: g.lastAskedAt,
    variants: others.slice(0, MAX_VARIANTS),
  };
}

/**
 * Groups questions by similar wording (lexical: their content words, a word matching the words it begins or
 * that begin it, overlap by at least {@link SIMILARITY}) and, when `semantic` vectors are given, by meaning
 * (cosine similarity of their embeddings at or above its bar), most asked first (then most recently asked),
 * at most {@link MAX_GROUPS}. Each question joins the group of the first question it resembles, so a group
 * keeps the words and meaning of the question that opened it. Questions are cut to MAX_QUESTION_CHARS, and
 * the work yields to the event loop every SLICE_MS, so thousands of long questions never stall the process.
 * @example await groupQuestions([{ text: 'Refund?', at }, { text: 'How do I get a refund', at }]) // one group of 2
 */
export async function groupQuestions(
  questions: Array<{ text: string; at: string }>,
  semantic?: QuestionVectors,
): Promise<UnansweredQuestion[]> {
  const groups: Group[] = [];
  const byWord = new Map<string, Group[]>();
  let sliceStart = performance.now();
  for (const q of questions) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
    const wording = wordingOf(q.text);
    if (!wording) continue;
    const key = wording.toLowerCase();
    const words = contentWords(wording);
    const vector = semantic?.vectors.get(key);
    let group = groupOf(words, vector, groups, byWord, semantic);
    if (!group) {
      group = { words, count: 0, lastAskedAt: q.at, wordings: new Map(), vector };
      groups.push(group);
      for (const key of new Set([...words].map(wordKey)))
        byWord.set(key, [...(byWord.get(key) ?? []), group]);
    }
    group.count++;
    if (q.at > group.lastAskedAt) group.lastAskedAt = q.at;
    const seen = group.wordings.get(key);
    const latest = !seen || q.at > seen.at;
    group.wordings.set(key, {
      text: latest ? wording : seen.text,
      count: (seen?.count ?? 0) + 1,
      at: latest ? q.at : seen.at,
    });
  }
  return groups
    .sort((a, b) => b.count - a.count || b.lastAskedAt.localeCompare(a.lastAskedAt))
    .slice(0, MAX_GROUPS)
    .map(toQuestion);
}
