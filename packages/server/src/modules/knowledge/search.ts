import { MAX_QUERY_BYTES, MAX_SEARCH_RESULTS, type SearchMode, type SearchPassage } from '@parley/protocol';
import { LRUCache } from 'lru-cache';
import { fileRule } from '../../access/file-policy.js';
import { ApiError, errors } from '../../errors/errors.js';
import type { TagFilter } from '../../http/tag-filter.js';
import { type Logger, silentLogger } from '../../logger.js';
import type { PassageHit, PassageIndex, PassageScope, StoredPassage } from '../../search/index/index.js';
import { compareHits, fuse, keepInTop, type RankedHit } from '../../search/rank.js';
import { contentTerms, stemsOf } from '../../search/terms.js';
import type { Embedder } from '../../search/types.js';
import type { FilesContext, FilesService, PassageFileSummary } from '../files/service.js';
import type { EmbeddingModelKeeper } from './embedding-model.js';

/** What searchFiles takes, parsed. */
export interface SearchInput {
  query: string;
  limit?: number | undefined;
  tags?: TagFilter | undefined;
  contextDepth?: number | undefined;
  consolidate?: boolean | undefined;
  includeBreadcrumb?: boolean | undefined;
  withContext?: boolean | undefined;
  /**
   * The query's language as the caller knows it (a visitor's question: its conversation's or webchat's, issue
   * #38): the tie-breaker of the words' language in lexical search (PassageIndex.lexicalSearch).
   */
  language?: string | undefined;
  /** Resolved from knowledgeBaseIds by the caller: only these files (an empty list matches nothing). */
  fileIds?: string[] | undefined;
  mode?: SearchMode | undefined;
}

/** How many candidates each list contributes before fusion, per result asked. */
const CANDIDATES_PER_RESULT = 4;

/** What searchFiles is built from. */
export interface SearchDeps {
  index: PassageIndex;
  embedder: Embedder | undefined;
  files: Pick<FilesService, 'visibility' | 'summaries'>;
  denseWeight: number;
  /** Whether the index's vectors are of the embedder's model (none: taken as so). */
  embeddingModel?: Pick<EmbeddingModelKeeper, 'matches'> | undefined;
  /** Where a failure search gets over is logged when the caller brings no logger of its request. */
  logger?: Logger | undefined;
}

/** searchFiles. */
export interface SearchService {
  /** Passages of the indexed files the caller may read that best match the query. */
  search(ctx: FilesContext, input: SearchInput): Promise<SearchPassage[]>;
}

/** 403 unless the caller may search; 400 for a query too long or blank, or a limit too large. Answers the limit. */
function checkInput(ctx: FilesContext, input: SearchInput): number {
  if (fileRule(ctx.actor, 'search') === false)
    throw errors.forbidden('Permission denied: you may not search the files of this bot');
  const bytes = Buffer.byteLength(input.query, 'utf8');
  if (bytes > MAX_QUERY_BYTES) {
    throw errors.invalidPayload(`query is ${bytes} bytes; the limit is ${MAX_QUERY_BYTES} bytes (1 KB)`, [
      { field: 'query', message: `must be at most ${MAX_QUERY_BYTES} bytes` },
    ]);
  }
  if (input.query.trim() === '')
    throw errors.invalidPayload('query must not be blank', [
      { field: 'query', message: 'must not be blank' },
    ]);
  const limit = input.limit ?? 20;
  if (limit > MAX_SEARCH_RESULTS) {
    throw errors.invalidPayload(`limit is ${limit}; at most ${MAX_SEARCH_RESULTS} passages are answered`, [
      { field: 'limit', message: `must be at most ${MAX_SEARCH_RESULTS}` },
    ]);
  }
  return limit;
}

/** Query vectors kept, most recently used first: a bot's reply searches the same question twice (hybrid, then by meaning). */
const QUERY_VECTORS = 256;

/**
 * The dense candidates: the query embedded (or its vector from `vectors`, the service's recent queries),
 * then its nearest passages. When the embedder is down, hybrid search still answers from words alone (none
 * here); meaning-only search cannot (500).
 */
async function denseCandidates(
  deps: SearchDeps,
  vectors: LRUCache<string, Float32Array>,
  log: Logger,
  input: { mode: SearchMode; query: string; scope: PassageScope; k: number },
): Promise<PassageHit[]> {
  const { mode, query, scope, k } = input;
  if (mode === 'lexical' || !deps.embedder) return [];
  let vector = vectors.get(query);
  try {
    if (!vector) {
      [vector] = await deps.embedder.embed([query]);
      if (vector) vectors.set(query, vector);
    }
  } catch (error) {
    if (mode === 'semantic') {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ApiError(
        'Internal',
        `Semantic search is unavailable: the embedding model failed (${reason}); try mode=hybrid or mode=lexical`,
      );
    }
    log.warn({ err: error }, 'The embedding model failed; the search ranks by words alone');
  }
  if (!vector) return [];
  // Vectors of another model (the index not yet switched to a changed embedder) mean nothing to this query.
  if (deps.embeddingModel && !(await deps.embeddingModel.matches())) return [];
  return deps.index.vectorSearch(vector, scope, k);
}

/** What the hits of a search are shaped with: their stored passages and their files' fields. */
interface Found {
  stored: Map<string, StoredPassage>;
  files: Map<string, PassageFileSummary>;
}

/** One result per file, its hits merged in document order, scored by its best hit. */
function consolidated(hits: PassageHit[], found: Found, limit: number): SearchPassage[] {
  const byFile = new Map<string, PassageHit[]>();
  for (const h of hits) byFile.set(h.fileId, [...(byFile.get(h.fileId) ?? []), h]);
  return [...byFile.entries()].slice(0, limit).map(([fileId, fileHits]) => {
    const passages = fileHits
      .map((h) => found.stored.get(h.passageId) as StoredPassage)
      .sort((a, b) => a.position - b.position);
    const first = passages[0] as StoredPassage;
    return {
      content: passages.map((p) => p.content).join('\n\n'),
      score: Math.max(...fileHits.map((h) => h.score)),
      meta: {
        type: 'consolidated' as const,
        position: first.position,
        ...(first.pageNumber ? { pageNumber: first.pageNumber } : {}),
      },
      file: found.files.get(fileId) as SearchPassage['file'],
    };
  });
}

/** A hit as one passage, with the passages around it (`contextDepth`) joined in or listed as its context. */
async function chunkPassage(
  index: PassageIndex,
  input: SearchInput,
  h: PassageHit,
  found: Found,
): Promise<SearchPassage> {
  const depth = input.contextDepth ?? 0;
  const p = found.stored.get(h.passageId) as StoredPassage;
  const neighbours = depth > 0 ? await index.neighbours(p.fileId, p.position, depth) : [];
  const before = neighbours.filter((n) => n.position < p.position);
  const after = neighbours.filter((n) => n.position > p.position);
  const breadcrumb = p.breadcrumb.join(' › ');
  let content = p.content;
  if (!input.withContext && depth > 0) content = [...before, p, ...after].map((n) => n.content).join('\n\n');
  if (input.includeBreadcrumb && breadcrumb) content = `${breadcrumb}\n\n${content}`;
  const passage: SearchPassage = {
    content,
    score: h.score,
    meta: {
      type: 'chunk',
      subtype: p.subtype,
      position: p.position,
      ...(p.pageNumber ? { pageNumber: p.pageNumber } : {}),
    },
    file: found.files.get(h.fileId) as SearchPassage['file'],
  };
  if (input.withContext) {
    passage.context = [
      ...(breadcrumb ? [{ text: breadcrumb, offset: 0, type: 'breadcrumb' as const }] : []),
      ...before.map((n) => ({
        text: n.content,
        offset: n.position - p.position,
        type: 'preceding' as const,
      })),
      { text: p.content, offset: 0, type: 'current' as const },
      ...after.map((n) => ({
        text: n.content,
        offset: n.position - p.position,
        type: 'subsequent' as const,
      })),
    ];
  }
  return passage;
}

/** How many of the best lexical hits are checked for holding every content word of the query. */
const WORD_MATCH_CANDIDATES = 5;
/** The places a passage holding every content word of the query is kept in, whatever the dense list says. */
const WORD_MATCH_TOP = 3;

/**
 * `fused` with the passages that hold every content word of the query (among the best lexical hits) kept in its
 * first three: z-score fusion gives a one-hit or tied lexical list no weight, so a rare word found in one
 * passage only (a product name, "refund" in the FAQ alone) would otherwise be ranked by the dense list alone. A
 * passage holding only some of the words (one common word of a paraphrase) is left where fusion put it.
 */
async function keepWordMatches(
  index: PassageIndex,
  query: string,
  lexical: readonly PassageHit[],
  fused: RankedHit[],
): Promise<RankedHit[]> {
  const terms = contentTerms(query);
  if (terms.length === 0 || lexical.length === 0) return fused;
  const inTop = new Set(fused.slice(0, WORD_MATCH_TOP).map((h) => h.passageId));
  const candidates = [...lexical]
    .sort(compareHits)
    .slice(0, WORD_MATCH_CANDIDATES)
    .filter((h) => !inTop.has(h.passageId));
  if (candidates.length === 0) return fused;
  const contents = new Map(
    (await index.getPassages(candidates.map((h) => h.passageId))).map((p) => [p.id, p]),
  );
  const byId = new Map(fused.map((h) => [h.passageId, h]));
  const whole = candidates.filter((h) => {
    const stored = contents.get(h.passageId);
    if (!stored) return false;
    const stems = stemsOf(stored.content);
    return terms.every((t) => stems.has(t));
  });
  const keep = whole.map((h) => byId.get(h.passageId) ?? { ...h, lexicalScore: h.score });
  return keepInTop(fused, keep, WORD_MATCH_TOP);
}

/**
 * searchFiles: lexical and dense candidates from the passage index, restricted to the files the caller
 * may read, fused (hybrid by default), then shaped as the wire format's passages.
 */
export function searchService(deps: SearchDeps): SearchService {
  const vectors = new LRUCache<string, Float32Array>({ max: QUERY_VECTORS });
  return {
    async search(ctx, input) {
      const limit = checkInput(ctx, input);
      const scope: PassageScope = {
        botId: ctx.botId,
        visibility: deps.files.visibility(ctx),
        ...(input.tags ? { tags: input.tags } : {}),
        ...(input.fileIds ? { fileIds: input.fileIds } : {}),
      };
      const mode: SearchMode = deps.embedder ? (input.mode ?? 'hybrid') : 'lexical';
      const k = Math.max(50, limit * CANDIDATES_PER_RESULT);
      const log = ctx.log ?? deps.logger ?? silentLogger;
      // Both lists at once: the query's embedding (a worker) and its nearest passages (the HNSW worker) need
      // the main thread only briefly, and a large lexical search runs in reader threads too.
      const [dense, lexical] = await Promise.all([
        denseCandidates(deps, vectors, log, { mode, query: input.query, scope, k }),
        mode === 'semantic' ? [] : deps.index.lexicalSearch(input.query, scope, k, input.language),
      ]);
      const fused = fuse(lexical, dense, { mode, denseWeight: deps.denseWeight, limit: k });
      const kept = mode === 'hybrid' ? await keepWordMatches(deps.index, input.query, lexical, fused) : fused;
      const ranked = kept.slice(0, input.consolidate ? k : limit);
      if (ranked.length === 0) return [];
      const stored = new Map(
        (await deps.index.getPassages(ranked.map((h) => h.passageId))).map((p) => [p.id, p]),
      );
      const files = await deps.files.summaries([...new Set(ranked.map((h) => h.fileId))]);
      const found: Found = { stored, files };
      const hits = ranked.filter((h) => stored.has(h.passageId) && files.has(h.fileId));
      if (input.consolidate) return consolidated(hits, found, limit);
      return Promise.all(hits.map((h) => chunkPassage(deps.index, input, h, found)));
    },
  };
}
