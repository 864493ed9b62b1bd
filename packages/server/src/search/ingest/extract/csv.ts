import { parse } from 'csv-parse/sync';
import type { ExtractedDocument } from '../../types.js';
import { type ExtractContext, unreadable } from './options.js';
import { decodeText, tableBlock } from './text-util.js';

const CANDIDATES = [',', ';', '\t', '|'] as const;

/** The delimiter used most on the first line (quoted parts ignored); `,` when none appears. */
export function sniffDelimiter(text: string): string {
  const firstLine = (text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '').replace(/"[^"]*"/g, '');
  let best: string = ',';
  let bestCount = 0;
  for (const candidate of CANDIDATES) {
    const count = firstLine.split(candidate).length - 1;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

/**
 * A CSV (or TSV) file through csv-parse: one `table` block whose lines are the rows (cells separated by
 * ` | `); the first row is the block's `header` when it looks like one (filled, distinct, not numbers), so
 * chunking repeats it on every passage. The delimiter is sniffed unless `delimiter` is given.
 */
export function extractCsv(bytes: Buffer, ctx: ExtractContext, delimiter?: string): ExtractedDocument {
  const text = decodeText(bytes, ctx.key);
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter: delimiter ?? sniffDelimiter(text),
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      trim: true,
      max_record_size: 1_000_000,
    }) as string[][];
  } catch (error) {
    throw unreadable(ctx.key, 'CSV', error);
  }
  const block = tableBlock(rows, 'guess');
  return { blocks: block ? [block] : [] };
}
