/**
 * How strong each of a list of search scores is next to the best one, from 0 to 1 (the best is 1), for a bar a
 * person reads instead of raw scores: hybrid scores are small positive fusions, lexical ones negative BM25
 * figures whose sign tells nothing to a reader. `scores` come best first, as search answers them.
 * @example relativeStrengths([0.032, 0.016]) // [1, 0.5]
 * @example relativeStrengths([-2, -8]) // [1, 0.25] (nearer zero is better)
 */
export function relativeStrengths(scores: readonly number[]): number[] {
  const best = scores[0];
  if (best === undefined) return [];
  if (scores.every((s) => s > 0)) return scores.map((s) => clamp(s / Math.max(...scores)));
  if (scores.every((s) => s < 0)) {
    // Best first: when the first is the nearest to zero, nearer is better; else the more negative is.
    const nearerIsBetter = best >= Math.max(...scores);
    return scores.map((s) => clamp(nearerIsBetter ? best / s : s / best));
  }
  // Mixed signs or zeros: spread between the worst (a sliver) and the best.
  const top = Math.max(...scores);
  const bottom = Math.min(...scores);
  return scores.map((s) => (top === bottom ? 1 : clamp(0.05 + (0.95 * (s - bottom)) / (top - bottom))));
}

const clamp = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** A strength as a whole percentage of the best. */
export const percentOfBest = (strength: number) => `${Math.round(strength * 100)}%`;
