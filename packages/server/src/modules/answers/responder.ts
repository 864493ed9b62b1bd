import { MAX_QUERY_BYTES, type SearchPassage } from '@parley/protocol';
import type { KnowledgeResponder, Reply, ReplyRequest, ReplyStream } from '../chat/reply-port.js';
import type { FilesContext, FilesService } from '../files/service.js';
import type { KnowledgeBaseService } from '../knowledge/knowledge-bases.js';
import type { SearchService } from '../knowledge/search.js';
import type { ChatModel } from './chat-model.js';
import {
  type AnswerSource,
  citedSources,
  EMPTY_TEXT,
  generatedAnswer,
  NOT_FOUND_TEXT,
  passagesAnswer,
  SEARCH_FAILED_TEXT,
  SMALL_TALK_TEXT,
  sourcesMetadata,
  UNSUPPORTED_TEXT,
} from './format.js';
import { buildChatPrompt } from './prompt.js';
import { questionOf, smallTalkOf, truncateBytes } from './question.js';
import { mergeRelevant, ratePassages, type USE_LITE_MIN_SIMILARITY } from './relevance.js';
import { botContext, type KnowledgeScope, knowledgeScope } from './scope.js';
import { sourceLinkUrl } from './sources.js';

/** Passages asked from search for one question. */
export const SEARCH_LIMIT = 5;
/** Most passages an answer rests on (quoted, or given to the chat model). */
export const MAX_SOURCES = 3;

/** What the knowledge responder is built from. */
export interface KnowledgeResponderDeps {
  search: Pick<SearchService, 'search'>;
  knowledgeBases: Pick<KnowledgeBaseService, 'list' | 'fileIdsOf'>;
  files: Pick<FilesService, 'get'>;
  /** The chat model that writes answers from the passages; without it the bot quotes them. */
  chatModel?: ChatModel | undefined;
  /**
   * Least cosine similarity at which a passage found by meaning alone, with no word in common with the
   * question, is relevant (a second, semantic search is then made). Depends on the embedder search uses:
   * `semanticMinSimilarityFor(embedder)` ({@link USE_LITE_MIN_SIMILARITY} with the shipped USE-lite model);
   * unset, words alone decide. Never set it without an embedder: search then answers with words.
   */
  semanticMinSimilarity?: number | undefined;
  /** Milliseconds for latencies (default `performance.now`). */
  now?: () => number;
  /**
   * The service's public URL (PARLEY_PUBLIC_URL): with it, a reply to a request carrying `messageId` links
   * its sources through the Chat API's permanent source links instead of download URLs.
   */
  publicUrl?: string | undefined;
}

/** How a reply was made, as the debug details tell it. */
export type AnswerMode =
  | 'passages'
  | 'generated'
  | 'not_found'
  | 'unsupported'
  | 'small_talk'
  | 'search_failed';

/**
 * The bot's built-in knowledge answers (the {@link KnowledgeResponder} of the chat reply port).
 *
 * The bot acts as itself (a principal of kind bot, which reads every file of its own bot). Search is hybrid
 * (lexical alone without an embedder), {@link SEARCH_LIMIT} passages, scoped to the files linked to the bot's
 * knowledge bases; a bot without any knowledge base searches all its indexed files, so a fresh install with
 * files but no knowledge base still answers. (A bot whose knowledge bases are all empty finds nothing: its
 * operator chose to scope it.) Passages below the relevance bar (relevance.ts) are dropped; nothing relevant
 * answers {@link NOT_FOUND_TEXT}, never silence.
 *
 * Without a chat model the reply quotes the best {@link MAX_SOURCES} passages, each with a link to its
 * source file. With one, the model answers from the numbered passages, citing them, streamed through
 * `stream.delta` when a stream is given; the reply is its answer with a "Sources" list. If the model fails
 * (error status, time-out, unreachable, empty answer) the reply quotes the passages and `debug.model.error`
 * says why. Links: when the request carries the `messageId` the reply will be posted with (the chat reply
 * job) and `publicUrl` is set, each source links to `{publicUrl}/v1/chat/{botId}/messages/{messageId}/sources/{n}`
 * (n: its index in the reply's `metadata.sources`), which redirects to a fresh download URL for as long as
 * the answer and its source exist (sources.ts). Otherwise public files have permanent URLs and private files
 * signed download URLs that expire after PARLEY_DOWNLOAD_URL_TTL_SECONDS (default 10 minutes).
 *
 * @example
 * const responder = knowledgeResponder({ search, knowledgeBases, files, chatModel: chatModelFromConfig(config.chatModel) });
 * const reply = await responder.answer({ workspaceId, botId, conversationId, message, history });
 */
export function knowledgeResponder(deps: KnowledgeResponderDeps): KnowledgeResponder {
  const now = deps.now ?? (() => performance.now());

  /** The answer's sources: each passage with its file's title and a URL a chat user can open. */
  async function sourcesOf(ctx: FilesContext, passages: SearchPassage[]): Promise<AnswerSource[]> {
    const files = new Map<string, { title: string; url: string | undefined; urlExpiresAt?: string }>();
    for (const id of new Set(passages.map((p) => p.file.id))) {
      try {
        const file = await deps.files.get(ctx, id);
        const title =
          typeof file.metadata.title === 'string' && file.metadata.title.trim()
            ? file.metadata.title.trim()
            : file.key;
        const expires = Number(new URL(file.url).searchParams.get('expires') ?? Number.NaN);
        files.set(id, {
          title,
          url: file.url,
          ...(Number.isFinite(expires) ? { urlExpiresAt: new Date(expires).toISOString() } : {}),
        });
      } catch {
        // Deleted since the search: named by its key, without a link.
      }
    }
    return passages.map((p, i) => {
      const file = files.get(p.file.id);
      return {
        n: i + 1,
        fileId: p.file.id,
        key: p.file.key,
        title: file?.title ?? p.file.key,
        url: file?.url,
        ...(file?.urlExpiresAt ? { urlExpiresAt: file.urlExpiresAt } : {}),
        ...(p.meta.pageNumber ? { pageNumber: p.meta.pageNumber } : {}),
        score: p.score,
        content: p.content,
      };
    });
  }

  return {
    async answer(request: ReplyRequest, stream?: ReplyStream): Promise<Reply> {
      const question = questionOf(request.message.payload);
      if (question.kind === 'unsupported') {
        return {
          messages: [{ payload: { type: 'text', text: UNSUPPORTED_TEXT } }],
          debug: { mode: 'unsupported' satisfies AnswerMode, payloadType: question.type },
        };
      }
      if (!question.text) {
        return {
          messages: [{ payload: { type: 'text', text: EMPTY_TEXT } }],
          debug: { mode: 'unsupported' satisfies AnswerMode, query: '' },
        };
      }
      const smallTalk = smallTalkOf(question.text);
      if (smallTalk) {
        return {
          messages: [{ payload: { type: 'text', text: SMALL_TALK_TEXT[smallTalk] } }],
          debug: { mode: 'small_talk' satisfies AnswerMode, query: question.text, smallTalk },
        };
      }
      const query = truncateBytes(question.text, MAX_QUERY_BYTES);
      const ctx = botContext(request.workspaceId, request.botId);

      const searchStarted = now();
      let found: SearchPassage[];
      let semantic: SearchPassage[] = [];
      let scoped: KnowledgeScope;
      try {
        scoped = await knowledgeScope(deps.knowledgeBases, ctx);
        const input = { query, limit: SEARCH_LIMIT, ...(scoped.fileIds ? { fileIds: scoped.fileIds } : {}) };
        const none = scoped.fileIds?.length === 0;
        found = none ? [] : await deps.search.search(ctx, { ...input, mode: 'hybrid' });
        if (!none && deps.semanticMinSimilarity !== undefined) {
          // Meaning alone, for its similarity scores; without a working embedder, words alone decide.
          semantic = await deps.search.search(ctx, { ...input, mode: 'semantic' }).catch(() => []);
        }
      } catch (error) {
        request.signal?.throwIfAborted();
        return {
          messages: [{ payload: { type: 'text', text: SEARCH_FAILED_TEXT } }],
          debug: { mode: 'search_failed' satisfies AnswerMode, query, error: messageOf(error) },
        };
      }
      const searchMs = Math.round(now() - searchStarted);
      request.signal?.throwIfAborted();

      const rated = ratePassages(query, found);
      const byWords = rated.filter((r) => r.relevant).map((r) => r.passage);
      const relevant =
        deps.semanticMinSimilarity === undefined
          ? byWords.slice(0, MAX_SOURCES)
          : mergeRelevant(byWords, semantic, deps.semanticMinSimilarity, MAX_SOURCES);
      const debug: Record<string, unknown> = {
        query,
        scope: scoped.fileIds
          ? { knowledgeBaseIds: scoped.knowledgeBaseIds, files: scoped.fileIds.length }
          : 'all_files',
        searchMs,
        passages: rated.map((r) => ({
          fileId: r.passage.file.id,
          key: r.passage.file.key,
          score: r.passage.score,
          ...(r.passage.meta.pageNumber ? { pageNumber: r.passage.meta.pageNumber } : {}),
          matchedTerms: r.matched,
          used: relevant.includes(r.passage),
          content: r.passage.content.slice(0, 200),
        })),
        ...(deps.semanticMinSimilarity === undefined
          ? {}
          : {
              semantic: {
                minSimilarity: deps.semanticMinSimilarity,
                passages: semantic.map((p) => ({
                  fileId: p.file.id,
                  key: p.file.key,
                  similarity: p.score,
                  used: relevant.includes(p),
                  content: p.content.slice(0, 200),
                })),
              },
            }),
      };
      if (relevant.length === 0) {
        return {
          messages: [{ payload: { type: 'text', text: NOT_FOUND_TEXT }, metadata: { sources: [] } }],
          debug: { mode: 'not_found' satisfies AnswerMode, ...debug },
        };
      }

      const sources = await sourcesOf(ctx, relevant);
      // The sources as the reply lists them, in the order of its metadata.sources, linked for good when it can.
      const { messageId } = request;
      const publicUrl = deps.publicUrl;
      const linked = (list: AnswerSource[]): AnswerSource[] =>
        messageId && publicUrl
          ? list.map(({ urlExpiresAt: _expires, ...s }, i) =>
              s.url === undefined ? s : { ...s, url: sourceLinkUrl(publicUrl, request.botId, messageId, i) },
            )
          : list;
      const passagesReply = (extra: Record<string, unknown>): Reply => ({
        messages: [{ payload: passagesAnswer(linked(sources)), metadata: sourcesMetadata(linked(sources)) }],
        debug: { mode: 'passages' satisfies AnswerMode, ...debug, ...extra },
      });
      const model = deps.chatModel;
      if (!model) return passagesReply({ model: null });

      const started = now();
      const streamed = stream !== undefined;
      try {
        const text = await model.complete(
          buildChatPrompt({
            question: query,
            sources,
            history: request.history,
            messageId: request.message.id,
          }),
          {
            signal: request.signal,
            ...(stream ? { onDelta: (piece: string) => stream.delta(piece) } : {}),
          },
        );
        const cited = linked(citedSources(text, sources));
        return {
          messages: [{ payload: generatedAnswer(text, cited), metadata: sourcesMetadata(cited) }],
          debug: {
            mode: 'generated' satisfies AnswerMode,
            ...debug,
            model: { name: model.model, latencyMs: Math.round(now() - started), streamed },
          },
        };
      } catch (error) {
        request.signal?.throwIfAborted();
        return passagesReply({
          model: {
            name: model.model,
            latencyMs: Math.round(now() - started),
            streamed,
            error: messageOf(error),
          },
        });
      }
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
