// Number and table formatting shared by the benchmarks' reports.

/**
 * A Markdown table of `rows` (the first is the header), columns padded to one width: the first column
 * left-aligned, the others right-aligned (figures).
 */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  const line = (r: string[]) =>
    `| ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (c === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(rows[0] ?? []), rule, ...rows.slice(1).map(line)].join('\n');
}

/** `ours ÷ baseline` as `1.23×`; `–` when the baseline is not positive or the ratio is not finite. */
export function ratio(ours: number, baseline: number): string {
  return baseline > 0 && Number.isFinite(ours / baseline) ? `${(ours / baseline).toFixed(2)}×` : '–';
}

/** Bytes in MB (10^6 bytes) with `digits` decimals: `512.0 MB`. */
export function megabytes(bytes: number, digits = 1): string {
  return `${(bytes / 1e6).toFixed(digits)} MB`;
}
