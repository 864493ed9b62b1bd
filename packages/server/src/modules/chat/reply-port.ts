import type { ChatMessage, MessagePayload } from '@parley/protocol';

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
}

/** A reply: one or more bot messages, plus details for sessions with the webchat adminKey (debug signal). */
export interface Reply {
  messages: Array<{ payload: MessagePayload; metadata?: Record<string, unknown> }>;
  /** Retrieval details (query, passages and scores, model used); sent only as a `debug` signal. */
  debug?: Record<string, unknown>;
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
