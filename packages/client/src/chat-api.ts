import type { ChatConversation, ChatMessage, ChatUser } from '@parley/protocol';
import type { EmptyResponse, IdInput, NoInput, PageInput } from './admin-types.js';
import { apiClass } from './api-class.js';
import type {
  AddParticipantInput,
  ChatFileResult,
  ChatUserInput,
  ChatUserResult,
  ConversationPageInput,
  ConversationResult,
  CreateChatFileInput,
  CreateChatUserResult,
  CreateConversationInput,
  CreateEventInput,
  CreateMessageInput,
  EventResult,
  ListConversationsResult,
  ListMessagesResult,
  ListParticipantsResult,
  MessageFeedbackInput,
  MessageResult,
  ParticipantInput,
  ParticipantResult,
} from './chat-types.js';
import type { PagePromise, RequestOptions } from './core.js';
import { CHAT_OPERATIONS } from './operations.js';

/** The operations `ChatClient` sends as its methods; `listen` (the live stream) is its own. */
const { listen: _listen, ...SENT } = CHAT_OPERATIONS;

/** The operations of the Chat API of one bot, as the methods of `ChatClient`. */
export interface ChatApi {
  // ---- users ----

  /** Creates an anonymous chat user (no key needed); answers it with its `key`. */
  createUser(input?: ChatUserInput, options?: RequestOptions): Promise<CreateChatUserResult>;
  /**
   * Verified identity: with a `userKey` your backend signed (`signUserKey`) for its own user id, the user is
   * created on first use and found after. `input` applies on creation only.
   */
  getOrCreateUser(input?: ChatUserInput, options?: RequestOptions): Promise<ChatUserResult>;
  /** The caller. */
  getUser(input?: NoInput, options?: RequestOptions): Promise<ChatUserResult>;
  /** Updates the caller (`null` clears a field). */
  updateUser(input: ChatUserInput, options?: RequestOptions): Promise<ChatUserResult>;
  /** Deletes the caller with its messages, events and participations. */
  deleteUser(input?: NoInput, options?: RequestOptions): Promise<EmptyResponse>;

  // ---- conversations ----

  /** Creates a conversation with the caller as participant. */
  createConversation(input?: CreateConversationInput, options?: RequestOptions): Promise<ConversationResult>;
  /** The conversation with this id if the caller takes part in it, else a new one with that id. */
  getOrCreateConversation(
    input: CreateConversationInput,
    options?: RequestOptions,
  ): Promise<ConversationResult>;
  /** The caller's conversations, most recently active first (the bot: all of them). */
  listConversations(
    input?: PageInput,
    options?: RequestOptions,
  ): PagePromise<ListConversationsResult, ChatConversation>;
  /** A conversation the caller takes part in. */
  getConversation(input: IdInput, options?: RequestOptions): Promise<ConversationResult>;
  /** Deletes a conversation with its messages, events and participants. */
  deleteConversation(input: IdInput, options?: RequestOptions): Promise<EmptyResponse>;

  // ---- messages ----

  /** Messages of a conversation, newest first: await for a page, `for await` for every message. */
  listMessages(
    input: ConversationPageInput,
    options?: RequestOptions,
  ): PagePromise<ListMessagesResult, ChatMessage>;
  /** Posts a message (payload at most 128 KB as JSON). */
  createMessage(input: CreateMessageInput, options?: RequestOptions): Promise<MessageResult>;
  /** A message of a conversation the caller may read. */
  getMessage(input: IdInput, options?: RequestOptions): Promise<MessageResult>;
  /** Deletes a message (its author or the bot). */
  deleteMessage(input: IdInput, options?: RequestOptions): Promise<EmptyResponse>;
  /** Feedback on a bot message (when the bot's webchat configuration has `feedbackEnabled`). */
  setMessageFeedback(input: MessageFeedbackInput, options?: RequestOptions): Promise<MessageResult>;

  // ---- events ----

  /** Sends a custom event into a conversation. */
  createEvent(input: CreateEventInput, options?: RequestOptions): Promise<EventResult>;
  /** An event of a conversation the caller may read. */
  getEvent(input: IdInput, options?: RequestOptions): Promise<EventResult>;

  // ---- participants ----

  /** Participants of a conversation, in the order they joined. */
  listParticipants(
    input: ConversationPageInput,
    options?: RequestOptions,
  ): PagePromise<ListParticipantsResult, ChatUser>;
  /** Adds a user of the bot to a conversation. */
  addParticipant(input: AddParticipantInput, options?: RequestOptions): Promise<ParticipantResult>;
  /** One participant of a conversation. */
  getParticipant(input: ParticipantInput, options?: RequestOptions): Promise<ParticipantResult>;
  /** Removes a participant: oneself, or anyone for the conversation's creator and the bot. */
  removeParticipant(input: ParticipantInput, options?: RequestOptions): Promise<EmptyResponse>;

  // ---- files ----

  /**
   * Starts a chat file upload (when the bot's webchat configuration has `allowFileUpload`): PUT the bytes to
   * `file.uploadUrl`, then send a `file` or `image` message with `file.url`. `uploadFile` does both.
   */
  createFile(input: CreateChatFileInput, options?: RequestOptions): Promise<ChatFileResult>;
}

/** Sends each method of `ChatApi` as its entry of `CHAT_OPERATIONS`, `botId` filled by the chat client. */
export const ChatApi = apiClass(SENT).implementing<ChatApi, 'botId'>({
  listConversations: 'conversations',
  listMessages: 'messages',
  listParticipants: 'participants',
});
