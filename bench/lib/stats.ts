// Statistics and clocks shared by the benchmarks.

/** A high-resolution time mark, for {@link msSince}. */
export const now = (): bigint => process.hrtime.bigint();

/** Milliseconds elapsed since the mark `start` taken with {@link now}. */
export const msSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

/**
 * Nearest-rank percentile: the smallest value with at least `p` % of the values at or below it.
 * @param sorted values in ascending order
 * @param p the percentile, 0 to 100
 * @returns NaN for no values
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** The median (the mean of the two middle values for an even count); 0 for no values. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** Count, nearest-rank p50 and p95, mean and maximum of a sample (see {@link summarize}). */
export interface Summary {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  max: number;
}

/** The {@link Summary} of `values` (any order); for no values the percentiles and max are NaN, the mean 0. */
export function summarize(values: readonly number[]): Summary {
  const s = [...values].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length),
    max: s.at(-1) ?? Number.NaN,
  };
}
