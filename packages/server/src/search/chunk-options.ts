// Chunk options: defaults, bounds, and their validation from a file's indexing configuration.
import { type ChunkOptions, DEFAULT_CHUNK_OPTIONS } from './types.js';

/** Bounds of ChunkOptions.maxTokens accepted from a file's configuration. */
export const MAX_TOKENS_RANGE = { min: 16, max: 2000 } as const;

/** A file's chunking configuration is not valid; the message names the field and the rule. */
export class ChunkOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChunkOptionsError';
  }
}

function integerIn(value: unknown, path: string, min: number, max: number, rule: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ChunkOptionsError(`${path} must be ${rule} (got ${JSON.stringify(value) ?? String(value)}).`);
  }
  return value;
}

function validate(maxTokens: unknown, overlapTokens: unknown, prefix: string): ChunkOptions {
  const max = integerIn(
    maxTokens ?? DEFAULT_CHUNK_OPTIONS.maxTokens,
    `${prefix}maxTokens`,
    MAX_TOKENS_RANGE.min,
    MAX_TOKENS_RANGE.max,
    `an integer from ${MAX_TOKENS_RANGE.min} to ${MAX_TOKENS_RANGE.max}`,
  );
  const highestOverlap = Math.ceil(max / 2) - 1;
  const overlap =
    overlapTokens === undefined || overlapTokens === null
      ? Math.min(DEFAULT_CHUNK_OPTIONS.overlapTokens, highestOverlap)
      : integerIn(
          overlapTokens,
          `${prefix}overlapTokens`,
          0,
          highestOverlap,
          `an integer from 0 to less than half of maxTokens (at most ${highestOverlap} for maxTokens ${max})`,
        );
  return { maxTokens: max, overlapTokens: overlap };
}

/**
 * Complete, validated chunk options: `maxTokens` from 16 to 2000 (default 120), `overlapTokens` from 0 to
 * less than half of it (default 20, lowered to fit a small maxTokens). Throws ChunkOptionsError.
 */
export function resolveChunkOptions(options: Partial<ChunkOptions> = {}): ChunkOptions {
  return validate(options.maxTokens, options.overlapTokens, '');
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Chunk options from a file's `indexing.configuration`: `{ chunking: { maxTokens?, overlapTokens? } }`,
 * defaults for what is absent (other keys of the configuration are left to their owners). Throws
 * ChunkOptionsError naming the field for a configuration that is not an object, unknown `chunking` keys, a
 * maxTokens outside 16–2000 or an overlap of half of maxTokens or more.
 *
 * @example
 * chunkOptionsFrom({ chunking: { maxTokens: 200 } }); // { maxTokens: 200, overlapTokens: 20 }
 */
export function chunkOptionsFrom(configuration: unknown): ChunkOptions {
  const prefix = 'indexing.configuration';
  if (configuration === undefined || configuration === null) return { ...DEFAULT_CHUNK_OPTIONS };
  if (!isObject(configuration)) throw new ChunkOptionsError(`${prefix} must be an object.`);
  const chunking = configuration.chunking;
  if (chunking === undefined || chunking === null) return { ...DEFAULT_CHUNK_OPTIONS };
  if (!isObject(chunking)) throw new ChunkOptionsError(`${prefix}.chunking must be an object.`);
  const unknown = Object.keys(chunking).filter((key) => key !== 'maxTokens' && key !== 'overlapTokens');
  if (unknown.length > 0) {
    throw new ChunkOptionsError(
      `${prefix}.chunking has unknown ${unknown.length === 1 ? 'key' : 'keys'} ${unknown.map((key) => `"${key}"`).join(', ')}; allowed: maxTokens, overlapTokens.`,
    );
  }
  return validate(chunking.maxTokens, chunking.overlapTokens, `${prefix}.chunking.`);
}
