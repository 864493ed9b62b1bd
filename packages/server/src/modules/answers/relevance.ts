import { isUseLiteId } from '../../search/embed/index.js';

// The similarity scale of the embedder, for answers by meaning (the gate itself is in selection.ts, the
// quotes in extract.ts).

/**
 * The least cosine similarity at which a passage found by meaning alone (no word of the question to quote it
 * by) may answer a question, with the shipped USE-lite model: measured on 9 paraphrased questions, their own
 * passage scored 0.46–0.67, off-topic passages up to 0.47. The bar alone is not enough on a large knowledge
 * base: on the answers benchmark's tuning split, 29 % of the questions whose answer is in no document found a
 * passage this close (nearest passages on neighbouring topics), so the passage must also stand out from the
 * next one by {@link MEANING_MARGIN} (selection.ts). Other embedders have other similarity scales, so none is
 * assumed for them.
 */
export const USE_LITE_MIN_SIMILARITY = 0.5;

/**
 * How much more similar than the next passage a passage found by meaning alone must be to answer. On the
 * answers benchmark's tuning split, with the 0.5 bar: 1 % of the questions without an answer passed (29 %
 * without the margin); in a support knowledge base a paraphrased question's own passage stands out so.
 */
export const MEANING_MARGIN = 0.08;

/**
 * The similarity bar for passages found by meaning alone with this embedder: {@link USE_LITE_MIN_SIMILARITY}
 * for the shipped USE-lite model, undefined (words alone decide) for other embedders and without one (then
 * search answers semantic queries with words, whose bm25 scores are no similarity).
 * @example semanticMinSimilarityFor(services.embedder) // 0.5 with use-lite
 */
export function semanticMinSimilarityFor(embedder: { id: string } | null | undefined): number | undefined {
  return isUseLiteId(embedder?.id) ? USE_LITE_MIN_SIMILARITY : undefined;
}
