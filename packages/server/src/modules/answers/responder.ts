import { MAX_QUERY_BYTES } from '@parley/protocol';
import { type Logger, silentLogger } from '../../logger.js';
import type { KnowledgeResponder, Reply, ReplyRequest, ReplyStream } from '../chat/contract.js';
import type { FilesContext, FilesService } from '../files/service.js';
import type { PassagesService } from '../knowledge/contract.js';
import type { QaService } from '../qa/contract.js';
import { linkedSources, sourcesOf } from './answer-sources.js';
import { type ChatModel, modelCallFailed } from './chat-model.js';
import {
  asksBackByWords,
  type ChoicePick,
  clarifyReply,
  pickedPassage,
  pickedQuestion,
  pickedQuote,
  pickOf,
  unsureness,
} from './clarify.js';
import { entryAnswers, entryFor, type PassageDeps, passagesFor } from './entries.js';
import {
  type AnswerSource,
  citedSources,
  generatedAnswer,
  NOT_FOUND_TEXT,
  notFoundPayload,
  passagesAnswer,
  sourcesMetadata,
} from './format.js';
import { answerLanguage, questionLanguage } from './language.js';
import { buildChatPrompt } from './prompt.js';
import { questionOf, truncateBytes } from './question.js';
import {
  type AnswerMode,
  type AnswerWords,
  answerWords,
  type BuiltIn,
  builtInFor,
  earlyReply,
  searchFailedReply,
  spokenIn,
  unsupportedReply,
} from './reply-words.js';
import { encoderApplies, retrievalDebug } from './retrieval.js';
import { botContext } from './scope.js';
import { MIN_COVERAGE, type Selection } from './selection.js';
import { modelAnswerReply, modelQuotes } from './unsure.js';

/** What the knowledge responder is built from (search, knowledge bases and units: see {@link PassageDeps}). */
export interface KnowledgeResponderDeps extends PassageDeps {
  files: Pick<FilesService, 'get'>;
  /** A file's passages, for the title of a source without a metadata title (its first heading). */
  passages?: Pick<PassagesService, 'list'> | undefined;
  /**
   * The bot's Q&A entries: a question close to an entry's wordings is answered with its answer, before any
   * passage search (absent: none).
   */
  entries?: Pick<QaService, 'match'> | undefined;
  /** The chat model that writes answers from the passages; without it the bot quotes them. */
  chatModel?: ChatModel | undefined;
  /** Milliseconds for latencies (default `performance.now`). */
  now?: () => number;
  /**
   * The service's public URL (PARLEY_PUBLIC_URL): with it, a reply to a request carrying `messageId` links
   * its sources through the Chat API's permanent source links instead of download URLs.
   */
  publicUrl?: string | undefined;
  /** Where failures the reply gets over (a semantic search, an unreadable source) are logged (default: nowhere). */
  logger?: Logger | undefined;
}

export type { AnswerMode } from './reply-words.js';

/**
 * The bot's built-in knowledge answers (the {@link KnowledgeResponder} of the chat reply port).
 *
 * The bot acts as itself (a principal of kind bot, which reads every file of its own bot). Search is hybrid
 * (lexical alone without an embedder), SEARCH_LIMIT passages with their headings (retrieval.ts), scoped to the
 * files linked to the bot's knowledge bases; a bot without any knowledge base searches all its indexed files,
 * so a fresh install with files but no knowledge base still answers. (A bot whose knowledge bases are all
 * empty finds nothing: its operator chose to scope it.) The answer is extractive (extract.ts): the sentence, or
 * two or three adjacent sentences, of the best passages that hold the question's words (weighted by rarity),
 * at most one more from another document when it adds what the first does not say; a quote must pass the
 * calibrated "not found" gate (selection.ts: its coverage of the question plus its passage's similarity, or
 * words alone without an embedder), else a passage found by meaning alone close enough is quoted from its
 * start; else, with a chat model, a question in its wider unsure band goes to the model with the best passages
 * (unsure.ts: its answer, or the "not found" reply when it says they do not answer; the offline reply below when
 * it fails); else, when search is unsure rather than empty-handed (clarify.ts), the bot asks back with 2–3 choices
 * named after the best candidates' headings, and a choice picked is answered from its passage; else the bot
 * answers its "not found" reply ({@link NOT_FOUND_TEXT} unless the bot has its own), never silence. The bot's
 * own words (`request.replies`, per language) replace the intro before quotes, the "not found" reply and the
 * question asked back, in one language with the reply, chosen once (issue #38, item 3): the intro and the
 * question asked back in the language the passages were read and quoted in; the "not found" reply in the
 * question's, else that; else the conversation's (`request.language`); the reply's `language` says it.
 *
 * Without a chat model the reply quotes those sentences under their headings, each with a link to its source
 * (titled by its metadata title, first heading or file name; a PDF opens at the page). With one, the model
 * answers from the same selection (the quoted passages, whole, numbered), citing them, streamed through
 * `stream.delta` when a stream is given; the reply is its answer with a "Sources" list. If the model fails
 * (error status, time-out, unreachable, empty answer) the reply quotes the passages and `debug.model.error`
 * says why. Links follow the bot's `sourceLinks` setting (`request.sourceLinks`, `public` when absent; see
 * sourceTarget in sources.ts): a source it does not link is named by its title, without a URL. When the
 * request carries the `messageId` the reply will be posted with (the chat reply job) and `publicUrl` is set,
 * each linked source links to `{publicUrl}/v1/chat/{botId}/messages/{messageId}/sources/{n}` (n: its index in
 * the reply's `metadata.sources`), which redirects, as the bot's setting then allows, for as long as the answer
 * and its source exist (sources.ts). Otherwise a linked source carries its target itself: a `sourceUrl`, a
 * public file's permanent URL, or (`all`) a signed download URL that expires after
 * PARLEY_DOWNLOAD_URL_TTL_SECONDS (default 10 minutes).
 *
 * @example
 * const responder = knowledgeResponder({ search, knowledgeBases, files, chatModel: chatModelFromConfig(config.chatModel) });
 * const reply = await responder.answer({ workspaceId, botId, conversationId, message, history });
 */
export function knowledgeResponder(deps: KnowledgeResponderDeps): KnowledgeResponder {
  const now = deps.now ?? (() => performance.now());
  const logger = deps.logger ?? silentLogger;

  return {
    async answer(request: ReplyRequest, stream?: ReplyStream): Promise<Reply> {
      const question = questionOf(request.message.payload);
      // The question's language (issue #38): what the reply reads it in, and its words' when nothing else tells.
      const language = question.kind === 'text' ? questionLanguage(request, question.text) : undefined;
      const reply = spokenIn(
        await answerIn(language, request, stream),
        answerWords(request, language).language,
      );
      // Kept with the message (its details): the bot's later words in the conversation (handoff) follow it.
      const told = { ...(reply.debug?.language as object | undefined), words: reply.language ?? null };
      return reply.debug ? { ...reply, debug: { ...reply.debug, language: told } } : reply;
    },
  };

  async function answerIn(
    language: string | undefined,
    request: ReplyRequest,
    stream: ReplyStream | undefined,
  ): Promise<Reply> {
    const question = questionOf(request.message.payload);
    const words = builtInFor(request, language, question.kind === 'text' ? question.text : undefined);
    if (question.kind === 'unsupported') return unsupportedReply(question.type, words);
    const early = earlyReply(question.text, words);
    if (early) return early;
    const query = truncateBytes(question.text, MAX_QUERY_BYTES);
    const ctx = botContext(request.workspaceId, request.botId);
    const log = logger.child({
      botId: request.botId,
      conversationId: request.conversationId,
      messageId: request.message.id,
    });

    const pick = pickOf(query);
    if (pick) return pickedReply(deps, now, { request, stream, ctx, log, pick, words, language });

    // An entry found by its answer alone (not its wordings) answers only when the passages do not answer
    // the question surely with other sentences (see passagesFirst).
    const entry = await entryFor(deps, log, request.botId, query, now);
    if (entry && !entry.byAnswer) return entry.reply;
    request.signal?.throwIfAborted();

    let passages: Awaited<ReturnType<typeof passagesFor>>;
    try {
      passages = await passagesFor(deps, log, ctx, query, now, language);
    } catch (error) {
      request.signal?.throwIfAborted();
      if (entry && entryAnswers(entry, undefined)) return entry.reply;
      log.warn({ err: error }, 'Searching the bot knowledge failed; the reply says so');
      return searchFailedReply(words, query, error);
    }
    const { retrieved, selection, searchMs, readIn, unitsDebug } = passages;
    request.signal?.throwIfAborted();
    if (entry && entryAnswers(entry, selection)) return entry.reply;
    const debug = {
      ...(entry
        ? { qa: { ...(entry.reply.debug?.qa as Record<string, unknown>), yielded: 'passages' } }
        : {}),
      ...retrievalDebug(deps, {
        query,
        searchMs,
        selection,
        minCoverage: MIN_COVERAGE,
        language: readIn,
        ...retrieved,
      }),
      ...unitsDebug,
      language: { question: language ?? null, readIn: readIn ?? null },
    };
    // The gate's similarity scale holds only where the embedder read the question (retrieval.ts).
    const scaled = deps.semanticMinSimilarity !== undefined && encoderApplies(deps, readIn);
    const links = request.sourceLinks ?? 'public';
    const sure = selection.quotes.length > 0;
    // The bot's words, in one language with the reply (issue #38): around quotes, the one they were read in; a
    // "not found", the question's (its own, the visitor's earlier messages', the locale the webchat sent), else
    // the same (a question too short to tell: its passages').
    const around = answerWords(request, readIn);
    const missing = answerWords(request, language ?? readIn);
    const notFound = (extra: Record<string, unknown>) => notFoundReply(missing, { ...debug, ...extra });
    const quoted = async (extra: Record<string, unknown>) => {
      const sources = await sourcesOf(deps, log, ctx, selection.quotes, links);
      return quotedReply({ request, sources, debug, publicUrl: deps.publicUrl, words: around }, extra);
    };
    // By words alone, a question in a language of its own is not asked back (clarify.ts asksBackByWords).
    const asksBack = scaled || asksBackByWords(readIn);
    const offline = async (extra: Record<string, unknown>) =>
      sure
        ? quoted(extra)
        : ((asksBack
            ? clarifyReply(retrieved, selection, scaled, around.texts.clarify, { ...debug, ...extra })
            : undefined) ?? notFound(extra));
    const quotes = deps.chatModel && modelQuotes(retrieved, selection, scaled);
    if (!deps.chatModel || !quotes)
      return spokenIn(await offline(sure ? { model: null } : {}), around.language);
    const answered = await modelAnswerReply(deps.chatModel, {
      request,
      stream,
      query,
      sources: await sourcesOf(deps, log, ctx, quotes, links),
      debug,
      ...(sure ? {} : { measures: unsureness(selection, scaled ? retrieved.semantic : [], scaled) }),
      link: (list) => linkedSources({ request, publicUrl: deps.publicUrl }, list),
      notFound,
      offline,
      now,
      log,
    });
    return spokenIn(answered, around.language);
  }
}

/** The "not found" reply: the bot's own text (`replies.notFound`) or the default, with no source. */
function notFoundReply(words: AnswerWords, debug: Record<string, unknown>): Reply {
  return {
    messages: [{ payload: notFoundPayload(words.texts.notFound), metadata: { sources: [] } }],
    debug: { mode: 'not_found' satisfies AnswerMode, ...debug },
    ...(words.language ? { language: words.language } : {}),
  };
}

/**
 * The answer to a choice the bot offered (clarify.ts): quoted from the picked passage directly, without the
 * gate, for the question asked before the choices (the label when the history does not hold it). A pick of a
 * passage outside the bot's knowledge, or gone since, gets the "not found" reply.
 */
async function pickedReply(
  deps: KnowledgeResponderDeps,
  now: () => number,
  input: {
    request: ReplyRequest;
    stream: ReplyStream | undefined;
    ctx: FilesContext;
    log: Logger;
    pick: ChoicePick;
    /** The bot's built-in words in the reply's language (its "search failed" reply). */
    words: BuiltIn;
    /** The language the question is read in (AskedLanguage.read). */
    language: string | undefined;
  },
): Promise<Reply> {
  const { request, ctx, log, pick } = input;
  const value = questionOf(request.message.payload);
  const asked = pickedQuestion(request.history, value.kind === 'text' ? value.text : '');
  const query = asked ?? pick.label;
  const started = now();
  let passage: Awaited<ReturnType<typeof pickedPassage>>;
  try {
    passage = await pickedPassage(deps, ctx, pick, asked);
  } catch (error) {
    request.signal?.throwIfAborted();
    log.warn({ err: error }, 'Searching the picked passage failed; the reply says so');
    return searchFailedReply(input.words, query, error);
  }
  request.signal?.throwIfAborted();
  const debug = {
    query,
    searchMs: Math.round(now() - started),
    picked: { fileId: pick.fileId, position: pick.position, label: pick.label, found: passage !== undefined },
  };
  if (!passage) return notFoundReply(answerWords(request, input.language), debug);
  const quote = pickedQuote(passage, asked);
  const selection: Selection = { quotes: [quote], by: 'words', best: quote };
  const sources = await sourcesOf(deps, log, ctx, selection.quotes, request.sourceLinks ?? 'public');
  return pickedModelReply(deps.chatModel, now, {
    request,
    stream: input.stream,
    query,
    sources,
    debug,
    publicUrl: deps.publicUrl,
    log,
    // Its words in the language of the passage it quotes (issue #38).
    words: answerWords(request, answerLanguage(input.language, [passage])),
  });
}

/** What a reply from relevant passages is made of. */
interface ReplyInput {
  request: ReplyRequest;
  stream: ReplyStream | undefined;
  query: string;
  sources: AnswerSource[];
  debug: Record<string, unknown>;
  publicUrl: string | undefined;
  /** The logger of this reply (its lines carry the bot, conversation and message ids). */
  log: Logger;
  /** The bot's words of the reply and their language. */
  words: AnswerWords;
}

/** The quotes of the sources under the bot's intro, each linked as the bot's setting allows (answer mode `passages`). */
function quotedReply(
  input: Pick<ReplyInput, 'request' | 'sources' | 'debug' | 'publicUrl' | 'words'>,
  extra: Record<string, unknown>,
): Reply {
  const linked = linkedSources(input, input.sources);
  const reply: Reply = {
    messages: [
      { payload: passagesAnswer(linked, input.words.texts.intro), metadata: sourcesMetadata(linked) },
    ],
    debug: { mode: 'passages' satisfies AnswerMode, ...input.debug, ...extra },
  };
  return spokenIn(reply, input.words.language);
}

/**
 * The answer to a picked choice: the model's cited answer from the picked passage; its quote without a model, or
 * when the model fails (`debug.model.error`).
 */
async function pickedModelReply(
  model: ChatModel | undefined,
  now: () => number,
  input: ReplyInput,
): Promise<Reply> {
  const { request, stream, sources, debug } = input;
  const passagesReply = (extra: Record<string, unknown>): Reply => quotedReply(input, extra);
  if (!model) return passagesReply({ model: null });
  const started = now();
  const streamed = stream !== undefined;
  const prompt = buildChatPrompt({
    question: input.query,
    sources,
    history: request.history,
    messageId: request.message.id,
  });
  try {
    const text = await model.complete(prompt, {
      signal: request.signal,
      log: input.log,
      ...(stream ? { onDelta: (piece: string) => stream.delta(piece) } : {}),
    });
    const cited = linkedSources(input, citedSources(text, sources));
    const reply: Reply = {
      messages: [{ payload: generatedAnswer(text, cited), metadata: sourcesMetadata(cited) }],
      debug: {
        mode: 'generated' satisfies AnswerMode,
        ...debug,
        model: { name: model.model, latencyMs: Math.round(now() - started), streamed },
      },
    };
    return spokenIn(reply, input.words.language);
  } catch (error) {
    const call = { name: model.model, latencyMs: Math.round(now() - started), streamed };
    return passagesReply({ model: modelCallFailed(error, call, input, 'the reply quotes the passages') });
  }
}
