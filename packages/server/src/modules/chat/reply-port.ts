import type { BotReplies, ChatMessage, MessagePayload } from '@parley/protocol';

/** What a bot without an answer engine says: an honest notice, never a made-up answer. */
export const NO_ANSWER_ENGINE_TEXT =
  'This bot has no answer engine configured, so it cannot answer messages yet. Please contact the site owner.';

/**
 * The seam between the Chat API (modules/chat) and the bot's built-in answers (modules/answers).
 * When a user posts a message to a bot in `knowledge` reply mode, the chat module runs a durable
 * `chat_reply` job that calls {@link KnowledgeResponder.answer} and posts what it returns as the bot's
 * message. Webhook mode never calls it: the chat module POSTs the event to the bot's URL instead.
 */
export interface ReplyRequest {
  workspaceId: string;
  botId: string;
  conversationId: string;
  /** The user's message to answer. */
  message: ChatMessage;
  /** Recent messages of the conversation, oldest first (at most 20), for a chat model's context. */
  history: ChatMessage[];
  signal?: AbortSignal;
  /**
   * The id the first reply message will be posted with (the chat reply job chooses it before asking), so the
   * reply can link to itself: `GET /v1/chat/{botId}/messages/{messageId}/sources/{n}`. Absent for callers
   * that do not post the reply.
   */
  messageId?: string;
  /**
   * Which sources the reply links (the bot's setting): `none`; `public` (the default when absent): files
   * readable without credentials and files whose metadata names an http(s) `sourceUrl`; `all`: every file.
   * A source not linked is named by its title only.
   */
  sourceLinks?: 'none' | 'public' | 'all';
  /**
   * The bot's own reply texts (its setting: in its default language and per language); a text absent is the
   * language's built-in one. The responder picks them in the language it answers in.
   */
  replies?: BotReplies | undefined;
  /**
   * The conversation's language (BCP 47), the tie-breaker of the bot's own words when the reply cannot tell the
   * question's: the locale the webchat sent, else the webchat's default locale, else the bot's default language.
   * The responder reads the question in the language it detects itself (answers/language.ts) and tells the
   * language its words are in as the reply's `language`.
   */
  language?: string | undefined;
}

/**
 * What a bot says in its own words (Markdown): `notFound` when its knowledge holds nothing relevant, `intro`
 * before the quotes of an answer, `clarify` before the choices when it is unsure which topic is meant.
 */
export interface BotReplyTexts {
  notFound?: string | undefined;
  intro?: string | undefined;
  clarify?: string | undefined;
}

/** A reply: one or more bot messages, plus details for sessions with the webchat adminKey (debug signal). */
export interface Reply {
  messages: Array<{ payload: MessagePayload; metadata?: Record<string, unknown> }>;
  /** Retrieval details (query, passages and scores, model used); sent only as a `debug` signal. */
  debug?: Record<string, unknown>;
  /**
   * The language the reply's own words are in (BCP 47), chosen once by the responder (issue #38): the one it
   * answered in (the question's, or its passages' for a question too short to tell), else the request's
   * `language`; absent: the bot's default. What the caller's words around it (a handoff offer) are in.
   */
  language?: string | undefined;
}

/** Streams a generated answer while it is produced (optional: a responder may answer all at once). */
export interface ReplyStream {
  /** Appends text to the message being generated (a `message_stream_delta` signal). */
  delta(text: string): void;
}

/** Answers a user's message from the bot's knowledge bases. Implemented in modules/answers. */
export interface KnowledgeResponder {
  answer(request: ReplyRequest, stream?: ReplyStream): Promise<Reply>;
}

/**
 * Opens the sources of the bot's answers: what `GET /v1/chat/{botId}/messages/{id}/sources/{n}` redirects
 * to. Implemented in modules/answers.
 */
export interface SourceLinks {
  /**
   * A URL that opens source `n` (its index in the message's `metadata.sources`) of a bot message now, as the
   * bot's current `sourceLinks` setting allows: a freshly signed download URL (`all`), the permanent URL of a
   * public_content file, or the `sourceUrl` its metadata names. 404 when there is no such bot message or
   * source, the source's file is gone or no longer in the bot's knowledge, or the setting does not link it.
   */
  open(botId: string, messageId: string, n: number): Promise<string>;
}
