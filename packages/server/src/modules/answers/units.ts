import type { SearchPassage } from '@parley/protocol';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../../logger.js';
import { isUseLiteId } from '../../search/embed/index.js';
import type { Embedder } from '../../search/types.js';
import { headingOf, leadingQuote, type Quote } from './extract.js';
import type { Retrieved } from './retrieval.js';
import type { Selection } from './selection.js';
import { sentencesOf } from './sentences.js';

// Short units a visitor's question resembles (issue 33, item 2): the heading a passage sits under and the FAQ
// question lines it holds. USE-lite compares short texts better than a question with a whole passage, so a
// question with no word of its answer ("where do i find receipts for what we paid") may still be close to the
// heading or FAQ line above that answer ("Where do I find my invoices?"). Only the units of the passages search
// already found are compared, embedded at question time (their vectors cached per process): no index to keep,
// the same on SQLite and PostgreSQL and in every process. What was measured, kept and dropped: docs/benchmarks/answers.md.

/**
 * Least cosine similarity (USE-lite) between the question and a heading or FAQ question line for the passage
 * under it to answer when the words gate found nothing. On the visitor set's tune half (bench/answers.ts), the
 * question's own heading or FAQ line scored up to 0.87 and the nearest unit of an unanswerable question up to
 * 0.61; between 0.55 and 0.65, wrong topics outnumbered right ones 4 to 1 ("how long do refunds take" is 0.66
 * from "How long are gift cards valid?").
 */
export const UNIT_MIN_SIMILARITY = 0.65;

/** How much closer than the next unit of another wording the unit must be (tune half: 0.05). */
export const UNIT_MARGIN = 0.05;

/** A question line longer than this many words is a passage's text, not a short unit. */
const MAX_UNIT_WORDS = 16;

/** Words quoted from under the unit. */
const UNIT_QUOTE_WORDS = 45;

/** Vectors of units kept per process (512 floats each: ~2 kB). */
const CACHED_UNITS = 20_000;

/** A heading or an FAQ question line of a passage. */
export interface Unit {
  text: string;
  kind: 'heading' | 'question';
  passage: SearchPassage;
  /** For a question line: its index among the passage's sentences. */
  sentence?: number;
}

/** The unit closest to a question, how close, and by how much more than the next one of another wording. */
export interface UnitMatch {
  unit: Unit;
  similarity: number;
  margin: number;
}

const wordCount = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/**
 * The short units of a passage: the innermost heading above it and its FAQ question lines (sentences ending in
 * `?`, at most {@link MAX_UNIT_WORDS} words). A passage that is only a heading has none (nothing to quote).
 * @example unitsOf(passage).map((u) => u.text) // ['Returning an item', 'Can I return a used grinder?']
 */
export function unitsOf(passage: SearchPassage): Unit[] {
  if (passage.meta.subtype === 'title' || passage.meta.subtype === 'subtitle') return [];
  const units: Unit[] = [];
  const heading = headingOf(passage).at(-1);
  if (heading) units.push({ text: heading, kind: 'heading', passage });
  sentencesOf(passage.content).forEach((s, i) => {
    if (s.endsWith('?') && wordCount(s) <= MAX_UNIT_WORDS)
      units.push({ text: s, kind: 'question', passage, sentence: i });
  });
  return units;
}

/** Whether a match is close enough, and clear enough, to answer from. */
export const unitAnswers = (match: UnitMatch | undefined): match is UnitMatch =>
  match !== undefined && match.similarity >= UNIT_MIN_SIMILARITY && match.margin >= UNIT_MARGIN;

/**
 * The quote of a matched unit: the FAQ question line and the answer after it (up to the next question line),
 * or the first sentences under a heading, {@link UNIT_QUOTE_WORDS} words at most.
 */
export function unitQuote(match: UnitMatch): Quote {
  const { passage, sentence } = match.unit;
  const sentences = sentencesOf(passage.content);
  // The answer ends at the next question line.
  return leadingQuote(passage, sentences.slice(sentence ?? 0), {
    maxWords: UNIT_QUOTE_WORDS,
    score: match.similarity,
    count: wordCount,
    stop: (s, i) => i > 0 && s.endsWith('?'),
  });
}

/** Finds the unit of some passages closest to a question. */
export interface UnitMatcher {
  closest(question: string, passages: readonly SearchPassage[]): Promise<UnitMatch | undefined>;
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
};

/**
 * Compares a question with the units of the passages found, by the embedder's cosine similarity (its vectors
 * are unit length), embedding only the texts it has not embedded before.
 * @example const match = await unitMatcher(embedder).closest('can i get my money back', found)
 */
export function unitMatcher(embedder: Pick<Embedder, 'embed'>, cached = CACHED_UNITS): UnitMatcher {
  const vectors = new LRUCache<string, Float32Array>({ max: cached });
  return {
    async closest(question, passages) {
      const units = passages.flatMap(unitsOf);
      if (units.length === 0) return undefined;
      const texts = [...new Set([question, ...units.map((u) => u.text)])];
      const missing = texts.filter((t) => !vectors.has(t));
      if (missing.length > 0) {
        const embedded = await embedder.embed(missing);
        missing.forEach((t, i) => {
          const v = embedded[i];
          if (v) vectors.set(t, v);
        });
      }
      const q = vectors.get(question);
      if (!q) return undefined;
      const scored = units
        .map((unit) => {
          const v = vectors.get(unit.text);
          return { unit, similarity: v ? dot(q, v) : -1 };
        })
        .sort((a, b) => b.similarity - a.similarity);
      const [best] = scored;
      if (!best) return undefined;
      const next = scored.find((s) => s.unit.text !== best.unit.text)?.similarity ?? 0;
      return { ...best, margin: best.similarity - next };
    },
  };
}

/**
 * The unit matcher for this embedder: only with the shipped USE-lite model, whose similarity scale the bars
 * were measured on (undefined otherwise: headings and FAQ lines then count only through search).
 */
export function unitMatcherFor(embedder: Embedder | null | undefined): UnitMatcher | undefined {
  return embedder && isUseLiteId(embedder.id) ? unitMatcher(embedder) : undefined;
}

const keyOf = (p: SearchPassage) => `${p.file.id}#${p.meta.position ?? p.content}`;

/**
 * The selection, or when it found nothing (and no name of the question is missing from the knowledge) the
 * passage under the heading or FAQ line closest to the question, when {@link unitAnswers}; with what was
 * compared, for the debug details. Without a matcher, or when embedding fails (logged), the selection as it was.
 */
export async function withUnits(
  matcher: UnitMatcher | undefined,
  log: Logger,
  query: string,
  retrieved: Retrieved,
  selection: Selection,
): Promise<{ selection: Selection; debug?: Record<string, unknown> }> {
  if (!matcher || selection.quotes.length > 0 || selection.missingNames?.length) return { selection };
  const seen = new Set<string>();
  const passages = [...retrieved.found, ...retrieved.semantic].filter((p) => {
    const key = keyOf(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  let match: UnitMatch | undefined;
  try {
    match = await matcher.closest(query, passages);
  } catch (error) {
    log.warn({ err: error }, 'Embedding the headings and FAQ lines failed; the words gate alone decides');
    return { selection };
  }
  if (!match) return { selection };
  const used = unitAnswers(match);
  const debug = {
    units: {
      text: match.unit.text,
      kind: match.unit.kind,
      fileId: match.unit.passage.file.id,
      similarity: Math.round(match.similarity * 1000) / 1000,
      margin: Math.round(match.margin * 1000) / 1000,
      used,
    },
  };
  if (!used) return { selection, debug };
  return { selection: { quotes: [unitQuote(match)], by: 'meaning', best: selection.best }, debug };
}
