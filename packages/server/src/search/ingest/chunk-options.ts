// Chunk options: defaults, bounds and their validation (a file's indexing configuration: indexing-options.ts).
import { type ChunkOptions, DEFAULT_CHUNK_OPTIONS } from '../types.js';

/** Bounds of ChunkOptions.maxTokens accepted from a file's configuration. */
export const MAX_TOKENS_RANGE = { min: 16, max: 2000 } as const;
/** Bounds of ChunkOptions.minParagraphChars (0: off). */
export const MIN_PARAGRAPH_CHARS_RANGE = { min: 0, max: 10_000 } as const;

/** One invalid field of an indexing configuration (its full path) and why. */
export interface ChunkOptionsIssue {
  field: string;
  message: string;
}

/**
 * Chunk options (or a file's indexing configuration) are not valid: `issues` names each field and its rule,
 * the message joins them.
 */
export class ChunkOptionsError extends Error {
  readonly issues: ChunkOptionsIssue[];

  constructor(issues: ChunkOptionsIssue[]) {
    super(issues.map((issue) => `${issue.field} ${issue.message}`).join('; '));
    this.name = 'ChunkOptionsError';
    this.issues = issues;
  }
}

/** The rule `value` breaks (`must be …`), or undefined for an integer from `min` to `max`. */
export function integerRule(value: unknown, min: number, max: number, rule: string): string | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return undefined;
  return `must be ${rule} (got ${JSON.stringify(value) ?? String(value)}).`;
}

function integerIn(value: unknown, field: string, min: number, max: number, rule: string): number {
  const broken = integerRule(value, min, max, rule);
  if (broken !== undefined) throw new ChunkOptionsError([{ field, message: broken }]);
  return value as number;
}

/**
 * Validated chunk options from raw values (absent: defaults); `fields` names them in errors.
 * Throws ChunkOptionsError.
 */
export function validChunkOptions(
  raw: { maxTokens?: unknown; overlapTokens?: unknown; minParagraphChars?: unknown },
  fields: { maxTokens: string; overlapTokens: string; minParagraphChars: string },
): ChunkOptions {
  const max = integerIn(
    raw.maxTokens ?? DEFAULT_CHUNK_OPTIONS.maxTokens,
    fields.maxTokens,
    MAX_TOKENS_RANGE.min,
    MAX_TOKENS_RANGE.max,
    `an integer from ${MAX_TOKENS_RANGE.min} to ${MAX_TOKENS_RANGE.max}`,
  );
  const highestOverlap = Math.ceil(max / 2) - 1;
  const overlap =
    raw.overlapTokens === undefined || raw.overlapTokens === null
      ? Math.min(DEFAULT_CHUNK_OPTIONS.overlapTokens, highestOverlap)
      : integerIn(
          raw.overlapTokens,
          fields.overlapTokens,
          0,
          highestOverlap,
          `an integer from 0 to less than half of maxTokens (at most ${highestOverlap} for maxTokens ${max})`,
        );
  const options: ChunkOptions = { maxTokens: max, overlapTokens: overlap };
  if (raw.minParagraphChars !== undefined && raw.minParagraphChars !== null) {
    const { min, max: highest } = MIN_PARAGRAPH_CHARS_RANGE;
    const chars = integerIn(
      raw.minParagraphChars,
      fields.minParagraphChars,
      min,
      highest,
      `an integer from ${min} to ${highest} (characters)`,
    );
    if (chars > 0) options.minParagraphChars = chars;
  }
  return options;
}

/**
 * Complete, validated chunk options: `maxTokens` from 16 to 2000 (default 120), `overlapTokens` from 0 to
 * less than half of it (default 20, lowered to fit a small maxTokens), `minParagraphChars` from 0 to 10000
 * (0 or absent: off). Throws ChunkOptionsError.
 */
export function resolveChunkOptions(options: Partial<ChunkOptions> = {}): ChunkOptions {
  return validChunkOptions(options, {
    maxTokens: 'maxTokens',
    overlapTokens: 'overlapTokens',
    minParagraphChars: 'minParagraphChars',
  });
}
