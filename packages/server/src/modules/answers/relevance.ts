import type { SearchPassage } from '@parley/protocol';
import { USE_LITE_ID } from '../../search/embed/index.js';
import { contentTerms, stem, stemsOf } from '../../search/terms.js';

export { contentTerms, stem };

/**
 * The relevance bar. Search scores cannot serve as one: hybrid scores are z-scores relative to the other
 * candidates of the same query, and lexical bm25 values are not comparable across queries, so a fixed score
 * threshold would mean nothing. And search always answers something once dense vectors take part (the
 * nearest passages of any question). So a passage is relevant when it shares at least one content word
 * with the question (stopwords and one-letter words aside; words compared folded, lower-case, with the
 * Porter stemmer the lexical index uses, so `refunds` meets `refunded`), and it covers at least half as many of the
 * question's content words as the best passage does (the tail of weak one-word matches is dropped). Passages
 * found by meaning alone, with no word in common, are left out: quoting them answers a question the user did
 * not ask — unless the operator's embedder has a known similarity scale and the passage reaches it
 * ({@link mergeRelevant}, {@link USE_LITE_MIN_SIMILARITY}). Headings alone (passages of subtype title or subtitle) are never quoted: they say nothing by
 * themselves, and the section under them is its own passage. A question made only of stopwords finds
 * nothing relevant.
 */

/** Passage subtypes that are only a heading. */
const HEADINGS = new Set(['title', 'subtitle']);

/** A passage with the question's content words it contains. */
export interface RatedPassage {
  passage: SearchPassage;
  /** Stems of the question's content words found in the passage. */
  matched: string[];
  relevant: boolean;
}

/**
 * Rates each passage against the question (see the relevance bar above), keeping search order.
 * @example ratePassages('refund deadline', passages).filter((r) => r.relevant)
 */
export function ratePassages(question: string, passages: readonly SearchPassage[]): RatedPassage[] {
  const terms = contentTerms(question);
  const rated = passages.map((passage) => {
    const stems = stemsOf(passage.content);
    return { passage, matched: terms.filter((t) => stems.has(t)), relevant: false };
  });
  const candidates = rated.filter((r) => !HEADINGS.has(r.passage.meta.subtype ?? ''));
  const best = Math.max(0, ...candidates.map((r) => r.matched.length));
  for (const r of candidates) r.relevant = r.matched.length > 0 && r.matched.length * 2 >= best;
  return rated;
}

/** The relevant passages, best first as search ranked them, at most `max`. */
export function relevantPassages(
  question: string,
  passages: readonly SearchPassage[],
  max = 3,
): SearchPassage[] {
  return ratePassages(question, passages)
    .filter((r) => r.relevant)
    .slice(0, max)
    .map((r) => r.passage);
}

/**
 * The least cosine similarity at which a passage found by meaning alone counts as relevant with the shipped
 * USE-lite model. Measured on 9 paraphrased questions (no word in common with their passage): their own
 * passage scored 0.46–0.67, the best other topic's 0.20–0.41, and six off-topic questions 0.09–0.47 (0.47:
 * a pasta recipe question against a bread baking passage). 0.5 admits two thirds of the paraphrases with no
 * off-topic passage. Other embedders have other similarity scales, so none is assumed for them.
 */
export const USE_LITE_MIN_SIMILARITY = 0.5;

/**
 * The similarity bar for passages found by meaning alone with this embedder: {@link USE_LITE_MIN_SIMILARITY}
 * for the shipped USE-lite model, undefined (words alone decide) for other embedders and without one (then
 * search answers semantic queries with words, whose bm25 scores are no similarity).
 * @example semanticMinSimilarityFor(services.embedder) // 0.5 with use-lite
 */
export function semanticMinSimilarityFor(embedder: { id: string } | null | undefined): number | undefined {
  return embedder?.id === USE_LITE_ID ? USE_LITE_MIN_SIMILARITY : undefined;
}

/** A passage's identity across two searches. */
const passageKey = (p: SearchPassage) => `${p.file.id}#${p.meta.position ?? p.content}`;

/**
 * The passages an answer rests on: those sharing words with the question (in search order), then those
 * found by meaning alone whose similarity reaches `minSimilarity` (best first), without duplicates, at most
 * `max`.
 * @example mergeRelevant(relevantByWords, semanticPassages, USE_LITE_MIN_SIMILARITY, 3)
 */
export function mergeRelevant(
  byWords: readonly SearchPassage[],
  semantic: readonly SearchPassage[],
  minSimilarity: number,
  max = 3,
): SearchPassage[] {
  const seen = new Set(byWords.map(passageKey));
  const close = [...semantic]
    .filter(
      (p) => p.score >= minSimilarity && !HEADINGS.has(p.meta.subtype ?? '') && !seen.has(passageKey(p)),
    )
    .sort((a, b) => b.score - a.score);
  return [...byWords, ...close].slice(0, max);
}
