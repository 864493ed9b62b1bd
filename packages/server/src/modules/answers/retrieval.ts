import type { SearchPassage } from '@parley/protocol';
import type { Logger } from '../../logger.js';
import type { FilesContext } from '../files/service.js';
import type { KnowledgeBaseService } from '../knowledge/knowledge-bases.js';
import type { SearchService } from '../knowledge/search.js';
import type { ratePassages } from './relevance.js';
import { type KnowledgeScope, knowledgeScope } from './scope.js';

/** Passages asked from search for one question. */
export const SEARCH_LIMIT = 5;

/** What a question is searched with. */
export interface RetrievalDeps {
  search: Pick<SearchService, 'search'>;
  knowledgeBases: Pick<KnowledgeBaseService, 'list' | 'fileIdsOf'>;
  /**
   * Least cosine similarity at which a passage found by meaning alone, with no word in common with the
   * question, is relevant (a second, semantic search is then made). Depends on the embedder search uses:
   * `semanticMinSimilarityFor(embedder)` (USE_LITE_MIN_SIMILARITY with the shipped USE-lite model);
   * unset, words alone decide. Never set it without an embedder: search then answers with words.
   */
  semanticMinSimilarity?: number | undefined;
}

/** What search found for a question: by words and meaning (`found`), by meaning alone, and in which scope. */
export interface Retrieved {
  found: SearchPassage[];
  semantic: SearchPassage[];
  scoped: KnowledgeScope;
}

/** Searches the bot's knowledge (its knowledge bases' files, or all its files) for the question. */
export async function retrieve(
  deps: RetrievalDeps,
  log: Logger,
  ctx: FilesContext,
  query: string,
): Promise<Retrieved> {
  const scoped = await knowledgeScope(deps.knowledgeBases, ctx);
  const input = { query, limit: SEARCH_LIMIT, ...(scoped.fileIds ? { fileIds: scoped.fileIds } : {}) };
  if (scoped.fileIds?.length === 0) return { found: [], semantic: [], scoped };
  const found = await deps.search.search(ctx, { ...input, mode: 'hybrid' });
  if (deps.semanticMinSimilarity === undefined) return { found, semantic: [], scoped };
  // Meaning alone, for its similarity scores; without a working embedder, words alone decide.
  const semantic = await deps.search.search(ctx, { ...input, mode: 'semantic' }).catch((error: unknown) => {
    log.warn(
      { err: error },
      'Semantic search failed; the words of the passages alone decide what is relevant',
    );
    return [];
  });
  return { found, semantic, scoped };
}

/** The retrieval details of the debug signal: the scope, the passages with their scores, which were used. */
export function retrievalDebug(
  deps: Pick<RetrievalDeps, 'semanticMinSimilarity'>,
  r: Retrieved & {
    query: string;
    searchMs: number;
    rated: ReturnType<typeof ratePassages>;
    relevant: SearchPassage[];
  },
): Record<string, unknown> {
  return {
    query: r.query,
    scope: r.scoped.fileIds
      ? { knowledgeBaseIds: r.scoped.knowledgeBaseIds, files: r.scoped.fileIds.length }
      : 'all_files',
    searchMs: r.searchMs,
    passages: r.rated.map((x) => ({
      fileId: x.passage.file.id,
      key: x.passage.file.key,
      score: x.passage.score,
      ...(x.passage.meta.pageNumber ? { pageNumber: x.passage.meta.pageNumber } : {}),
      matchedTerms: x.matched,
      used: r.relevant.includes(x.passage),
      content: x.passage.content.slice(0, 200),
    })),
    ...(deps.semanticMinSimilarity === undefined
      ? {}
      : {
          semantic: {
            minSimilarity: deps.semanticMinSimilarity,
            passages: r.semantic.map((p) => ({
              fileId: p.file.id,
              key: p.file.key,
              similarity: p.score,
              used: r.relevant.includes(p),
              content: p.content.slice(0, 200),
            })),
          },
        }),
  };
}
