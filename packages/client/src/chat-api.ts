import type { ChatConversation, ChatMessage, ChatUser } from '@parley/protocol';
import { CHAT_OPERATIONS } from '@parley/protocol/operations';
import type { EmptyResponse, IdInput, NoInput, PageInput } from './admin-types.js';
import { apiClass, type Lists, type Sends } from './api-class.js';
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

/** The operations `ChatClient` sends as its methods; `listen` (the live stream) is its own. */
const { listen: _listen, ...SENT } = CHAT_OPERATIONS;

/** The operations of the Chat API of one bot, as the methods of `ChatClient`. */
export type ChatApi = {
  // ---- users ----

  /** Creates an anonymous chat user (no key needed); answers it with its `key`. */
  createUser: Sends<ChatUserInput | undefined, CreateChatUserResult>;
  /**
   * Verified identity: with a `userKey` your backend signed (`signUserKey`) for its own user id, the user is
   * created on first use and found after. `input` applies on creation only.
   */
  getOrCreateUser: Sends<ChatUserInput | undefined, ChatUserResult>;
  /** The caller. */
  getUser: Sends<NoInput | undefined, ChatUserResult>;
  /** Updates the caller (`null` clears a field). */
  updateUser: Sends<ChatUserInput, ChatUserResult>;
  /** Deletes the caller with its messages, events and participations. */
  deleteUser: Sends<NoInput | undefined, EmptyResponse>;

  // ---- conversations ----

  /** Creates a conversation with the caller as participant. */
  createConversation: Sends<CreateConversationInput | undefined, ConversationResult>;
  /** The conversation with this id if the caller takes part in it, else a new one with that id. */
  getOrCreateConversation: Sends<CreateConversationInput, ConversationResult>;
  /** The caller's conversations, most recently active first (the bot: all of them). */
  listConversations: Lists<PageInput | undefined, ListConversationsResult, ChatConversation>;
  /** A conversation the caller takes part in. */
  getConversation: Sends<IdInput, ConversationResult>;
  /** Deletes a conversation with its messages, events and participants. */
  deleteConversation: Sends<IdInput, EmptyResponse>;

  // ---- messages ----

  /** Messages of a conversation, newest first: await for a page, `for await` for every message. */
  listMessages: Lists<ConversationPageInput, ListMessagesResult, ChatMessage>;
  /** Posts a message (payload at most 128 KB as JSON). */
  createMessage: Sends<CreateMessageInput, MessageResult>;
  /** A message of a conversation the caller may read. */
  getMessage: Sends<IdInput, MessageResult>;
  /** Deletes a message (its author or the bot). */
  deleteMessage: Sends<IdInput, EmptyResponse>;
  /** Feedback on a bot message (when the bot's webchat configuration has `feedbackEnabled`). */
  setMessageFeedback: Sends<MessageFeedbackInput, MessageResult>;

  // ---- events ----

  /** Sends a custom event into a conversation. */
  createEvent: Sends<CreateEventInput, EventResult>;
  /** An event of a conversation the caller may read. */
  getEvent: Sends<IdInput, EventResult>;

  // ---- participants ----

  /** Participants of a conversation, in the order they joined. */
  listParticipants: Lists<ConversationPageInput, ListParticipantsResult, ChatUser>;
  /** Adds a user of the bot to a conversation. */
  addParticipant: Sends<AddParticipantInput, ParticipantResult>;
  /** One participant of a conversation. */
  getParticipant: Sends<ParticipantInput, ParticipantResult>;
  /** Removes a participant: oneself, or anyone for the conversation's creator and the bot. */
  removeParticipant: Sends<ParticipantInput, EmptyResponse>;

  // ---- files ----

  /**
   * Starts a chat file upload (when the bot's webchat configuration has `allowFileUpload`): PUT the bytes to
   * `file.uploadUrl`, then send a `file` or `image` message with `file.url`. `uploadFile` does both.
   */
  createFile: Sends<CreateChatFileInput, ChatFileResult>;
};

/** Sends each method of `ChatApi` as its entry of `CHAT_OPERATIONS`, `botId` filled by the chat client. */
export const ChatApi = apiClass(SENT).implementing<ChatApi, 'botId'>({
  listConversations: 'conversations',
  listMessages: 'messages',
  listParticipants: 'participants',
});
