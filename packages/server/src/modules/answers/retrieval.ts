import type { SearchPassage } from '@parley/protocol';
import type { Logger } from '../../logger.js';
import { questionTerms, textTerms } from '../../search/language/terms.js';
import { stem, words } from '../../search/terms.js';
import type { FilesContext } from '../files/service.js';
import type { KnowledgeBaseService, SearchService } from '../knowledge/contract.js';
import { type KnowledgeScope, knowledgeScope } from './scope.js';
import type { Selection } from './selection.js';

/** Passages asked from search for one question (the extraction reads the sentences of the best five). */
export const SEARCH_LIMIT = 8;

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
  /**
   * The embedder reads every language (an operator's own multilingual model): questions in any language are
   * searched by meaning too. Absent or false: only English questions (and those of unknown language) are; the
   * others by words alone, as the shipped USE-lite model reads English only.
   */
  multilingualEmbedder?: boolean | undefined;
}

/**
 * Whether the embedder applies to a question in `language` (ISO 639-1; undefined: unknown, read as English).
 * @example encoderApplies({}, 'de') // false
 */
export function encoderApplies(
  deps: Pick<RetrievalDeps, 'multilingualEmbedder'>,
  language: string | undefined,
): boolean {
  return deps.multilingualEmbedder === true || language === undefined || language === 'en';
}

/** What search found for a question: by words and meaning (`found`), by meaning alone, and in which scope. */
export interface Retrieved {
  found: SearchPassage[];
  semantic: SearchPassage[];
  scoped: KnowledgeScope;
}

/**
 * Searches the bot's knowledge (its knowledge bases' files, or all its files) for the question: hybrid, and
 * by meaning alone for the gate, when the embedder applies to the question's `language` ({@link encoderApplies});
 * by words alone otherwise.
 */
export async function retrieve(
  deps: RetrievalDeps,
  log: Logger,
  ctx: FilesContext,
  query: string,
  language?: string,
): Promise<Retrieved> {
  const scoped = await knowledgeScope(deps.knowledgeBases, ctx);
  const input = {
    query,
    limit: SEARCH_LIMIT,
    // The breadcrumb of each passage (its headings) comes in `context`: the quote's context in the reply.
    withContext: true,
    ...(scoped.fileIds ? { fileIds: scoped.fileIds } : {}),
    // The question's language (its conversation's, its webchat's locale) breaks the tie for words too short to tell.
    ...(language ? { language } : {}),
  };
  if (scoped.fileIds?.length === 0) return { found: [], semantic: [], scoped };
  const byMeaning = encoderApplies(deps, language);
  const found = await deps.search.search(ctx, { ...input, mode: byMeaning ? 'hybrid' : 'lexical' });
  if (deps.semanticMinSimilarity === undefined || !byMeaning) return { found, semantic: [], scoped };
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

/**
 * The retrieval details of the debug signal: the scope, the passages with their scores and the question's
 * words they hold, which were quoted, and the quotes with their coverage of the question.
 */
export function retrievalDebug(
  deps: Pick<RetrievalDeps, 'semanticMinSimilarity'>,
  r: Retrieved & {
    query: string;
    searchMs: number;
    selection: Selection;
    minCoverage: number;
    /** The language the question was read in (answerLanguage; absent: English). */
    language?: string | undefined;
  },
): Record<string, unknown> {
  const quoted = new Set(r.selection.quotes.map((q) => q.passage));
  const terms = questionTerms(r.query, r.language);
  return {
    query: r.query,
    scope: r.scoped.fileIds
      ? { knowledgeBaseIds: r.scoped.knowledgeBaseIds, files: r.scoped.fileIds.length }
      : 'all_files',
    searchMs: r.searchMs,
    passages: r.found.map((p) => {
      const stems = textTerms(p.content, r.language);
      return {
        fileId: p.file.id,
        key: p.file.key,
        score: p.score,
        ...(p.meta.pageNumber ? { pageNumber: p.meta.pageNumber } : {}),
        matchedTerms: terms.filter((t) => stems.has(t)),
        matchedWords: wordsInCommon(p.content, terms, r.language),
        used: quoted.has(p),
        content: p.content.slice(0, 200),
      };
    }),
    answeredBy: r.selection.by,
    ...(r.selection.missingNames ? { missingNames: r.selection.missingNames } : {}),
    minCoverage: r.minCoverage,
    quotes: r.selection.quotes.map((q) => ({
      fileId: q.passage.file.id,
      coverage: round(q.coverage),
      passageCoverage: round(q.passageCoverage),
      matchedTerms: q.matched,
      text: q.text.slice(0, 300),
    })),
    ...(r.selection.best && r.selection.by !== 'words'
      ? {
          bestByWords: {
            coverage: round(r.selection.best.coverage),
            text: r.selection.best.text.slice(0, 300),
          },
        }
      : {}),
    ...(deps.semanticMinSimilarity === undefined
      ? {}
      : {
          semantic: {
            minSimilarity: deps.semanticMinSimilarity,
            passages: r.semantic.map((p) => ({
              fileId: p.file.id,
              key: p.file.key,
              similarity: p.score,
              used: quoted.has(p),
              content: p.content.slice(0, 200),
            })),
          },
        }),
  };
}

/**
 * The words of a passage, as written there, whose stem is one of the question's terms: what the Console marks
 * in the passage, so a marked word and the terms in common never disagree.
 * In a `language` of its own, a written word whose terms in that language hold one of them.
 * @example wordsInCommon('Refunds take 30 days.', ['refund']) // ['Refunds']
 * @example wordsInCommon('Die Rückgabefrist beträgt 30 Tage.', ['ruckgabefrist'], 'de') // ['Rückgabefrist']
 */
export function wordsInCommon(content: string, terms: readonly string[], language?: string): string[] {
  const wanted = new Set(terms);
  const out = new Set<string>();
  for (const written of content.split(/[^\p{L}\p{N}'’]+/u)) {
    const folded = words(written)[0];
    if (folded === undefined) continue;
    const held = language
      ? [...textTerms(written, language)].some((t) => wanted.has(t))
      : wanted.has(stem(folded));
    if (held) out.add(written.replace(/^['’]+|['’]+$/gu, ''));
  }
  return [...out];
}

const round = (x: number) => Math.round(x * 1000) / 1000;
