import { MAX_SEARCH_LIMIT, type PassageScope } from './passage-index.js';

/** A vector search scoped to at most this many files scans only their passages, exactly. */
export const NARROW_FILE_COUNT = 50;

/** Whether a scope names at most NARROW_FILE_COUNT files (searched exactly, without the ANN index). */
export const isNarrowScope = (scope: PassageScope): boolean =>
  scope.fileIds !== undefined && scope.fileIds.length <= NARROW_FILE_COUNT;

/** Whether a scope is every searchable file of the bot (no visibility rule, tags or file ids narrowing it). */
export const isWholeBot = (scope: PassageScope): boolean =>
  scope.visibility.kind === 'all' && !scope.tags && scope.fileIds === undefined;

/**
 * How many nearest vectors of the bot an ANN search asks for, to find the `n` nearest in `scope`: a few
 * more than n for all the bot's files (only those still indexing drop out), 4n (at least 64) for a
 * narrower scope (an integration's files, tags, many file ids). When fewer than n of them are in scope,
 * the caller asks again or scans exactly.
 */
export function candidateCount(scope: PassageScope, n: number): number {
  return Math.min(
    MAX_SEARCH_LIMIT,
    isWholeBot(scope) ? n + Math.max(16, Math.ceil(n / 4)) : Math.max(4 * n, 64),
  );
}
