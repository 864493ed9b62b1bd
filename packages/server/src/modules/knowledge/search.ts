import { MAX_QUERY_BYTES, MAX_SEARCH_RESULTS, type SearchMode, type SearchPassage } from '@parley/protocol';
import { fileRule } from '../../access/file-policy.js';
import { ApiError, errors } from '../../errors/errors.js';
import type { TagFilter } from '../../http/tag-filter.js';
import type { PassageHit, PassageIndex, PassageScope, StoredPassage } from '../../search/index/index.js';
import { fuse } from '../../search/rank.js';
import type { Embedder } from '../../search/types.js';
import type { FilesContext, FilesService } from '../files/service.js';

/** What searchFiles takes, parsed. */
export interface SearchInput {
  query: string;
  limit?: number | undefined;
  tags?: TagFilter | undefined;
  contextDepth?: number | undefined;
  consolidate?: boolean | undefined;
  includeBreadcrumb?: boolean | undefined;
  withContext?: boolean | undefined;
  /** Resolved from knowledgeBaseIds by the caller: only these files (an empty list matches nothing). */
  fileIds?: string[] | undefined;
  mode?: SearchMode | undefined;
}

/** How many candidates each list contributes before fusion, per result asked. */
const CANDIDATES_PER_RESULT = 4;

/**
 * searchFiles: lexical and dense candidates from the passage index, restricted to the files the caller
 * may read, fused (hybrid by default), then shaped as the wire format's passages.
 */
export function searchService(deps: {
  index: PassageIndex;
  embedder: Embedder | undefined;
  files: FilesService;
  denseWeight: number;
}) {
  return {
    async search(ctx: FilesContext, input: SearchInput): Promise<SearchPassage[]> {
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
        throw errors.invalidPayload(
          `limit is ${limit}; at most ${MAX_SEARCH_RESULTS} passages are answered`,
          [{ field: 'limit', message: `must be at most ${MAX_SEARCH_RESULTS}` }],
        );
      }
      const scope: PassageScope = {
        botId: ctx.botId,
        visibility: deps.files.visibility(ctx),
        ...(input.tags ? { tags: input.tags } : {}),
        ...(input.fileIds ? { fileIds: input.fileIds } : {}),
      };
      const mode: SearchMode = deps.embedder ? (input.mode ?? 'hybrid') : 'lexical';
      const k = Math.max(50, limit * CANDIDATES_PER_RESULT);
      const lexical: PassageHit[] =
        mode === 'semantic' ? [] : await deps.index.lexicalSearch(input.query, scope, k);
      let dense: PassageHit[] = [];
      if (mode !== 'lexical' && deps.embedder) {
        let vector: Float32Array | undefined;
        try {
          [vector] = await deps.embedder.embed([input.query]);
        } catch (error) {
          // The embedder is down: hybrid search still answers from words alone; meaning-only search cannot.
          if (mode === 'semantic') {
            const reason = error instanceof Error ? error.message : String(error);
            throw new ApiError(
              'Internal',
              `Semantic search is unavailable: the embedding model failed (${reason}); try mode=hybrid or mode=lexical`,
            );
          }
        }
        if (vector) dense = await deps.index.vectorSearch(vector, scope, k);
      }
      const ranked = fuse(lexical, dense, {
        mode,
        denseWeight: deps.denseWeight,
        limit: input.consolidate ? k : limit,
      });
      if (ranked.length === 0) return [];
      const stored = new Map(
        (await deps.index.getPassages(ranked.map((h) => h.passageId))).map((p) => [p.id, p]),
      );
      const files = await deps.files.summaries([...new Set(ranked.map((h) => h.fileId))]);
      const hits = ranked.filter((h) => stored.has(h.passageId) && files.has(h.fileId));

      if (input.consolidate) {
        // One result per file, its hits merged in document order, scored by its best hit.
        const byFile = new Map<string, typeof hits>();
        for (const h of hits) byFile.set(h.fileId, [...(byFile.get(h.fileId) ?? []), h]);
        return [...byFile.entries()].slice(0, limit).map(([fileId, fileHits]) => {
          const passages = fileHits
            .map((h) => stored.get(h.passageId) as StoredPassage)
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
            file: files.get(fileId) as SearchPassage['file'],
          };
        });
      }

      const depth = input.contextDepth ?? 0;
      return Promise.all(
        hits.map(async (h) => {
          const p = stored.get(h.passageId) as StoredPassage;
          const neighbours = depth > 0 ? await deps.index.neighbours(p.fileId, p.position, depth) : [];
          const before = neighbours.filter((n) => n.position < p.position);
          const after = neighbours.filter((n) => n.position > p.position);
          const breadcrumb = p.breadcrumb.join(' › ');
          let content = p.content;
          if (!input.withContext && depth > 0)
            content = [...before, p, ...after].map((n) => n.content).join('\n\n');
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
            file: files.get(h.fileId) as SearchPassage['file'],
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
        }),
      );
    },
  };
}
/** The search service. */
export type SearchService = ReturnType<typeof searchService>;
