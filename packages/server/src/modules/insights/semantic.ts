import { isUseLiteId } from '../../search/embed/index.js';
import type { Embedder } from '../../search/types.js';

/**
 * Cosine similarity at which two questions embedded by the built-in USE-lite model are the same question.
 * Measured on shop questions: paraphrases scored 0.70 to 0.74 ("How much does shipping cost?" and "What is the
 * price of delivery?" 0.71), the closest unrelated pairs 0.60 ("How much does shipping cost?" and "Can I pay
 * with PayPal?"); weaker paraphrases (0.53) stay apart, and are often joined by their words instead. Other
 * models have no measured value, so their questions are grouped by words alone.
 */
export const USE_LITE_QUESTION_SIMILARITY = 0.68;

/** Most distinct wordings embedded per request (the newest); older ones are grouped by words alone. */
export const MAX_EMBEDDED = 300;
/** How long a request waits for the embedder before grouping by words alone (ms). */
export const EMBED_TIMEOUT_MS = 5000;
/** Vectors kept between requests (a question asked again is not embedded again). */
const CACHE_SIZE = 5000;

/** The similarity at which the embedder's questions are one, if it is a model with a calibrated value. */
export function questionSimilarityFor(embedder: Pick<Embedder, 'id'> | null | undefined): number | undefined {
  return isUseLiteId(embedder?.id) ? USE_LITE_QUESTION_SIMILARITY : undefined;
}

/** What semantic grouping needs: each wording's unit vector (by lower-case wording) and the similarity bar. */
export interface QuestionVectors {
  vectors: Map<string, Float32Array>;
  minSimilarity: number;
}

/** Cosine similarity of two unit vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length && i < b.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}

/**
 * The embedder's vectors for question wordings, cached (least recently added dropped first). Answers
 * undefined when the embedder has no calibrated similarity, fails or is too slow: grouping then goes by words.
 * @example const vectorsOf = questionVectors(embedder); const qv = await vectorsOf(['refund?']);
 */
export function questionVectors(embedder: Embedder | null | undefined) {
  const minSimilarity = questionSimilarityFor(embedder);
  const cache = new Map<string, Float32Array>();
  return async (wordings: string[]): Promise<QuestionVectors | undefined> => {
    if (!embedder || minSimilarity === undefined) return undefined;
    const keys = [...new Set(wordings.map((w) => w.toLowerCase()))].slice(0, MAX_EMBEDDED);
    const missing = keys.filter((k) => !cache.has(k));
    try {
      if (missing.length > 0) {
        const vectors = await embedder.embed(missing, AbortSignal.timeout(EMBED_TIMEOUT_MS));
        missing.forEach((key, i) => {
          const vector = vectors[i];
          if (vector) cache.set(key, vector);
        });
        for (const key of cache.keys()) {
          if (cache.size <= CACHE_SIZE) break;
          cache.delete(key);
        }
      }
    } catch {
      return undefined;
    }
    const vectors = new Map<string, Float32Array>();
    for (const key of keys) {
      const vector = cache.get(key);
      if (vector) vectors.set(key, vector);
    }
    return { vectors, minSimilarity };
  };
}
