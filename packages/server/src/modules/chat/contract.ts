import type {
  AgentMessageBody,
  AgentTypingBody,
  BotHandoff,
  BotReplies,
  ChatConversation,
  ChatEvent,
  ChatFileResponse,
  ChatMessage,
  ChatSignal,
  ChatUser,
  ChatUserFields,
  ChatWebhookEvent,
  ConversationExportQuery,
  ConversationHandoff,
  ConversationNote,
  CreateChatFileBody,
  CreateConversationNoteBody,
  CreateEventBody,
  CreateMessageBody,
  HandoffBody,
  InboxConversation,
  InboxCounts,
  InboxMessage,
  ListBotConversationsQuery,
  MessageFeedback,
  MessagePayload,
  WebchatConfiguration,
} from '@parley/protocol';
import type { Actor } from '../../access/principal.js';
import type { Page } from '../../http/pagination.js';
import type { SignalRow } from './repo.js';

/** What the Chat API knows of a bot. */
export interface ChatBot {
  id: string;
  workspaceId: string;
  name: string;
  status: 'active' | 'disabled';
  replyMode: 'knowledge' | 'webhook';
  webhookUrl: string | null;
  /** Which sources of the bot's answers are linked: none, public (the default) or all. */
  sourceLinks: 'none' | 'public' | 'all';
  /**
   * The bot's own words (not found, intro, clarification, handoff messages) in its default language and per
   * language; a text left out is the language's built-in one.
   */
  replies?: BotReplies;
  /** The bot's human handoff settings (wait, opening hours, not-found offer, handoff webhook); none: defaults. */
  handoff?: BotHandoff;
  webchat: WebchatConfiguration;
}

/** The authenticated caller of a Chat API request. */
export interface ChatCaller {
  bot: ChatBot;
  /** The chat user it acts as (the bot's own chat user for a bot access key). */
  userId: string;
  isBot: boolean;
  /** Carries the webchat adminKey: reads every conversation, receives `debug` signals. */
  admin: boolean;
}

/** The credentials a Chat API request carries. */
export interface ChatCredentials {
  authorization?: string | undefined;
  userKey?: string | undefined;
  adminKey?: string | undefined;
}

/** Payload of a `chat_reply` job (its kind and schema: job-kinds.ts). */
export interface ChatReplyJob {
  botId: string;
  conversationId: string;
  messageId: string;
}

/** Payload of a `chat_webhook` job (its kind and schema: job-kinds.ts). */
export interface ChatWebhookJob {
  botId: string;
  event: ChatWebhookEvent;
  /** `handoff`: to the bot's handoff webhook URL (else its webhook-mode URL), whatever its reply mode. */
  to?: 'handoff';
}

/** A conversation export as it streams: its content type, a file name for it and its text, piece by piece. */
export interface ConversationExport {
  contentType: string;
  filename: string;
  body: AsyncIterable<string>;
}

/** Payload of a `chat_handoff_wait` job: the end of a visitor's wait for a person that began `waitingSince`. */
export interface ChatHandoffWaitJob {
  botId: string;
  conversationId: string;
  waitingSince: string;
}

/** A page query of the Chat API lists. */
export interface ChatPageQuery {
  nextToken?: string | undefined;
  pageSize?: number | undefined;
}

/** A signal to store and fan out, with whether only adminKey streams may see it. */
export interface PendingSignal {
  conversationId: string;
  signal: ChatSignal;
  adminOnly: boolean;
}

/** A message the bot posts: its id when chosen beforehand, its payload and metadata. */
export interface BotMessageDraft {
  id?: string;
  payload: MessagePayload;
  metadata?: Record<string, unknown> | undefined;
  /** How the reply was made (its answer mode, e.g. `not_found`); shown to the bot's owners only. */
  answer?: string | undefined;
  /** The retrieval details behind the reply (its `debug` signal's data); shown to the bot's owners only. */
  details?: Record<string, unknown> | undefined;
  /**
   * The payload's and metadata's JSON text, when `payload` and `metadata` were parsed from JSON (a request
   * body's: such values round-trip to themselves): stored as given, and the message answered with the values
   * as they are, neither serialised nor parsed again.
   */
  json?: { payload: string; metadata: string | null } | undefined;
}

/** A bot's chat secrets, as the Admin API shows them. */
export interface ChatSecrets {
  userKeySecret: string;
  webhookSecret: string;
}

/** What the reply job answers from: the user's message, the recent history, whether it was answered. */
export interface ReplyContext {
  message: ChatMessage;
  /** The conversation's latest messages (at most the history size asked for), oldest first. */
  history: ChatMessage[];
  /** The message already has a reply of the bot (a retry or a duplicate job). */
  answered: boolean;
  /** The bot answers the conversation now (its handoff state is `bot` or `resolved`). */
  botAnswers: boolean;
}

/** One UTC day of a bot's messages (insights). */
export interface ChatActivityDay {
  date: string;
  visitorMessages: number;
  /** The bot's own messages (a person's are not: humanMessages). */
  botMessages: number;
  /** Messages of people of the workspace (human handoff). */
  humanMessages: number;
  /** Bot messages answering a user's message (reply jobs). */
  replies: number;
  /** Replies saying the knowledge base had nothing (the answers module's not-found text). */
  notFound: number;
  /** Replies whose answer mode is the window's `answerMode` (0 without one). */
  withAnswerMode: number;
  /** Replies that asked back with choices (answer mode `clarify`): neither answered nor not found. */
  clarified: number;
  positive: number;
  negative: number;
}

/** A bot's activity since the start of a UTC day up to now (insights); days without activity are absent. */
export interface ChatActivity {
  from: string;
  to: string;
  days: ChatActivityDay[];
  /** Conversations started per day, and how many of them a person replied in (human handoff). */
  conversations: Array<{ date: string; started: number; byPeople: number }>;
  /** Conversations whose visitor asked for a person, per day of the (first) request. */
  handoffs: Array<{ date: string; requested: number }>;
  /** The wait from the request for a person to a person's first reply, per day of the request. */
  waits: Array<{ date: string; seconds: number }>;
  /** The user questions a not-found reply answered, newest reply first (text messages only, cut to `questionChars`). */
  unanswered: Array<{ text: string; at: string }>;
}

/** The chat user id of a bot itself (its messages carry `isBot: true`). */
export function botUserId(botId: string): string {
  return `bot_${botId}`;
}

/**
 * The Chat API: chat users and their keys, conversations, participants, messages, events, feedback, chat
 * files, the durable signal log behind the live streams, and the hand-off of user messages to the bot
 * (a `chat_reply` job in knowledge mode, a `chat_webhook` job in webhook mode). Every method is a plain
 * function: destructuring one off the service is safe.
 */
export interface ChatService {
  /** The bot of a Chat API root: 404 when unknown, 403 when disabled. */
  bot(botId: string): Promise<ChatBot>;
  /** Authenticates a Chat API request as the bot (bearer access key) or a chat user (x-user-key). */
  authenticate(botId: string, credentials: ChatCredentials): Promise<ChatCaller>;

  /** Creates an anonymous chat user and its key. */
  createUser(botId: string, fields: ChatUserFields): Promise<{ user: ChatUser; key: string }>;
  /** Verified identity: the key a site backend signed names the user; it is created on first use. */
  getOrCreateUser(
    botId: string,
    userKey: string | undefined,
    fields: ChatUserFields,
    adminKey?: string,
  ): Promise<{ user: ChatUser; created: boolean }>;
  /** The caller's chat user. */
  getUser(caller: ChatCaller): Promise<ChatUser>;
  /** Updates the caller's chat user (null clears a field). */
  updateUser(caller: ChatCaller, fields: ChatUserFields): Promise<ChatUser>;
  /** Deletes the caller and its data; the bot's own user cannot be deleted. */
  deleteUser(caller: ChatCaller): Promise<void>;

  /** Creates a conversation with the caller as participant; a chosen id already in use answers 409. */
  createConversation(caller: ChatCaller, body: { id?: string | undefined }): Promise<ChatConversation>;
  /** The conversation with this id if the caller takes part in it, else a new one with this id. */
  getOrCreateConversation(
    caller: ChatCaller,
    body: { id?: string | undefined },
  ): Promise<{ conversation: ChatConversation; created: boolean }>;
  /** The caller's conversations, most recently active first (the bot, or an adminKey session: all of them). */
  listConversations(caller: ChatCaller, query: ChatPageQuery): Promise<Page<ChatConversation>>;
  /** A conversation the caller may read. */
  getConversation(caller: ChatCaller, id: string): Promise<ChatConversation>;
  /** Deletes a conversation with its messages, events and participants (participants or the bot). */
  deleteConversation(caller: ChatCaller, id: string): Promise<void>;

  /** Participants of a conversation, in the order they joined. */
  listParticipants(caller: ChatCaller, conversationId: string, query: ChatPageQuery): Promise<Page<ChatUser>>;
  /** Adds a user of the bot to a conversation the caller takes part in. */
  addParticipant(caller: ChatCaller, conversationId: string, userId: string): Promise<ChatUser>;
  /** One participant of a conversation the caller may read. */
  getParticipant(caller: ChatCaller, conversationId: string, userId: string): Promise<ChatUser>;
  /** Removes a participant: oneself, or anyone when the caller created the conversation or is the bot. */
  removeParticipant(caller: ChatCaller, conversationId: string, userId: string): Promise<void>;

  /** Messages of a conversation, newest first. */
  listMessages(caller: ChatCaller, conversationId: string, query: ChatPageQuery): Promise<Page<ChatMessage>>;
  /** Posts a message (at most 128 KB of payload as JSON); a user's message goes to the bot. */
  createMessage(caller: ChatCaller, body: CreateMessageBody): Promise<ChatMessage>;
  /** A message of a conversation the caller may read. */
  getMessage(caller: ChatCaller, id: string): Promise<ChatMessage>;
  /** Deletes a message: its author, or the bot. */
  deleteMessage(caller: ChatCaller, id: string): Promise<void>;
  /** Records a participant's feedback on a bot message (only when the webchat has feedbackEnabled). */
  setFeedback(caller: ChatCaller, id: string, feedback: MessageFeedback): Promise<ChatMessage>;
  /** Stores messages as the bot (one transaction) with their signals, and any `extra` signals after them. */
  postAsBot(
    bot: ChatBot,
    conversationId: string,
    messages: BotMessageDraft[],
    options?: { replyTo?: string; extra?: PendingSignal[]; botTurn?: boolean },
  ): Promise<ChatMessage[]>;

  /** Sends a custom event into a conversation (at most 128 KB as JSON). */
  createEvent(caller: ChatCaller, body: CreateEventBody): Promise<ChatEvent>;
  /** An event of a conversation the caller may read. */
  getEvent(caller: ChatCaller, id: string): Promise<ChatEvent>;

  /** Starts a chat file upload (only with allowFileUpload in the webchat configuration). */
  createFile(caller: ChatCaller, body: CreateChatFileBody): Promise<ChatFileResponse['file']>;

  /** Checks a conversation may be read and answers the cursor a stream starts after (`after`, else now). */
  openStream(caller: ChatCaller, conversationId: string, after: number | undefined): Promise<number>;
  /** Signals of a conversation after a cursor, in order (debug signals only for adminKey sessions). */
  signalsAfter(
    caller: ChatCaller,
    conversationId: string,
    after: number,
    limit?: number,
  ): Promise<SignalRow[]>;
  /** Stores and fans out signals of a conversation as the bot (typing, stream deltas, debug). */
  emit(
    botId: string,
    conversationId: string,
    signals: Array<{ signal: ChatSignal; adminOnly?: boolean }>,
  ): Promise<void>;
  /** Drops signals older than the retention (a periodic task); answers how many went. */
  pruneSignals(): Promise<number>;

  /** The bot's chat secrets (created on first use). */
  getSecrets(actor: Actor, botId: string): Promise<ChatSecrets>;
  /** Replaces both secrets: every user key signed before stops working, webhooks are signed anew. */
  rotateSecrets(actor: Actor, botId: string): Promise<ChatSecrets>;
  /** The webhook secret of a bot (for the webhook job). */
  webhookSecret(botId: string): Promise<string>;

  /** The bot's conversations for its owners (Admin API), most recent activity first, optionally filtered. */
  listInbox(actor: Actor, botId: string, query: ListBotConversationsQuery): Promise<Page<InboxConversation>>;
  /** A conversation's internal notes (`conversation.read`), oldest first: never shown to its visitor. */
  listNotes(actor: Actor, botId: string, conversationId: string): Promise<ConversationNote[]>;
  /** Writes an internal note beside a conversation (`conversation.handoff`), under the caller's name. */
  createNote(
    actor: Actor,
    botId: string,
    conversationId: string,
    body: CreateConversationNoteBody,
  ): Promise<ConversationNote>;
  /** How many conversations each tab of the desk holds: waiting, assigned to the caller, all, resolved. */
  inboxCounts(actor: Actor, botId: string): Promise<InboxCounts>;
  /** One conversation of the bot for its owners: 404 when the bot or the conversation is unknown. */
  getInboxConversation(actor: Actor, botId: string, id: string): Promise<InboxConversation>;
  /** A conversation's transcript for the bot's owners, oldest first: sources, retrieval details, feedback. */
  listInboxMessages(
    actor: Actor,
    botId: string,
    conversationId: string,
    query: ChatPageQuery,
  ): Promise<Page<InboxMessage>>;

  /** Who answers a conversation of the bot (`conversation.read`): 404 when the bot or the conversation is unknown. */
  getHandoff(actor: Actor, botId: string, conversationId: string): Promise<ConversationHandoff>;
  /**
   * Changes who answers a conversation (`conversation.handoff`): request, take, assign, hand_back, resolve;
   * 409 when the action does not apply to its state. Tells the visitor and writes an audit record.
   */
  changeHandoff(
    actor: Actor,
    botId: string,
    conversationId: string,
    body: HandoffBody,
  ): Promise<ConversationHandoff>;
  /**
   * A person's message in a conversation, posted as them with their name (`conversation.handoff`); the
   * conversation is theirs from then on (taken over unless assigned to them; 409 when someone else has it).
   */
  postAsAgent(
    actor: Actor,
    botId: string,
    conversationId: string,
    body: AgentMessageBody,
  ): Promise<InboxMessage>;
  /**
   * Tells the visitor whether the person a conversation is assigned to types a reply (`typing_started` /
   * `typing_stopped` with their name); `conversation.handoff`, 409 unless the conversation is assigned to them.
   */
  setAgentTyping(actor: Actor, botId: string, conversationId: string, body: AgentTypingBody): Promise<void>;
  /**
   * Ends a visitor's wait for a person begun at `waitingSince` when nobody took the conversation (the
   * `chat_handoff_wait` job): the bot answers again, says so and offers to take an e-mail address. Answers
   * whether it did (false when a person came, or the wait is another one).
   */
  endHandoffWait(job: ChatHandoffWaitJob): Promise<boolean>;
  /**
   * The bot's conversations created in the query's period (or the one `conversationId`) as JSON or CSV, for
   * its owners (`conversation.read`): 404 for an unknown bot or conversation, 400 for a bad period.
   */
  exportConversations(
    actor: Actor,
    botId: string,
    query: ConversationExportQuery,
    conversationId?: string,
  ): Promise<ConversationExport>;
  /** How many "not found" replies the bot gave in a conversation (its offer of a person counts them). */
  missesIn(botId: string, conversationId: string): Promise<number>;
  /** Whether the bot answers a conversation now (its handoff state is `bot` or `resolved`). */
  botMayAnswer(botId: string, conversationId: string): Promise<boolean>;

  /** A message of the bot's own (`isBot`), for its source links; undefined when absent or a user's. */
  botMessage(botId: string, messageId: string): Promise<ChatMessage | undefined>;
  /** Recent messages of a conversation, oldest first, and the message itself (for the reply job). */
  replyContext(botId: string, messageId: string, historySize?: number): Promise<ReplyContext | undefined>;

  /**
   * The bot's activity over its last `days` UTC days, today included (insights); a not-found reply is a bot
   * reply whose text is `notFoundText`. Each unanswered question is cut to its first `questionChars`
   * characters (only a prefix of each message is read), and only the newest MAX_UNANSWERED_READ are read.
   * Replies of `answerMode` (e.g. `qa`) are counted apart too.
   */
  activity(
    botId: string,
    window: { days: number; notFoundText: string; questionChars: number; answerMode?: string },
  ): Promise<ChatActivity>;
}

/** The port the answers module implements for chat replies, and what a bot without one says (reply-port.ts). */
export {
  type BotReplyTexts,
  type KnowledgeResponder,
  NO_ANSWER_ENGINE_TEXT,
  type Reply,
  type ReplyRequest,
  type ReplyStream,
  type SourceLinks,
} from './reply-port.js';
