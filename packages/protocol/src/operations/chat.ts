import type { EmptyResponse, IdInput, NoInput, PageInput } from './io/admin.js';
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
} from './io/chat.js';
import { lists, operations, sends } from './operation.js';

/** The rule of the chat operations under `/conversations/{id}`: the input names that id `conversationId`. */
const CONVERSATION_IN_PATH = { from: { id: 'conversationId' } } as const;

/** The Chat API of one bot (`/v1/chat/{botId}`; the chat client fills `botId`): one entry per method of `ChatClient`. */
export const CHAT_OPERATIONS = /* @__PURE__ */ operations('chat', {
  /** Creates an anonymous chat user (no key needed); answers it with its `key`. */
  createUser: sends<ChatUserInput | undefined, CreateChatUserResult>('POST /v1/chat/{botId}/users', {
    auth: 'none',
  }),
  /**
   * Verified identity: with a `userKey` your backend signed (`signUserKey`) for its own user id, the user is
   * created on first use and found after. `input` applies on creation only.
   */
  getOrCreateUser: sends<ChatUserInput | undefined, ChatUserResult>(
    'POST /v1/chat/{botId}/users/get-or-create',
    { auth: 'none' },
  ),
  /** The caller. */
  getUser: sends<NoInput | undefined, ChatUserResult>('GET /v1/chat/{botId}/users/me'),
  /** Updates the caller (`null` clears a field). */
  updateUser: sends<ChatUserInput, ChatUserResult>('PUT /v1/chat/{botId}/users/me'),
  /** Deletes the caller with its messages, events and participations. */
  deleteUser: sends<NoInput | undefined, EmptyResponse>('DELETE /v1/chat/{botId}/users/me'),
  /** Creates a conversation with the caller as participant. */
  createConversation: sends<CreateConversationInput | undefined, ConversationResult>(
    'POST /v1/chat/{botId}/conversations',
  ),
  /** The conversation with this id if the caller takes part in it, else a new one with that id. */
  getOrCreateConversation: sends<CreateConversationInput, ConversationResult>(
    'POST /v1/chat/{botId}/conversations/get-or-create',
  ),
  /** The caller's conversations, most recently active first (the bot: all of them). */
  listConversations: lists<PageInput | undefined, ListConversationsResult>(
    'GET /v1/chat/{botId}/conversations',
    'conversations',
  ),
  /** A conversation the caller takes part in. */
  getConversation: sends<IdInput, ConversationResult>('GET /v1/chat/{botId}/conversations/{id}'),
  /** Deletes a conversation with its messages, events and participants. */
  deleteConversation: sends<IdInput, EmptyResponse>('DELETE /v1/chat/{botId}/conversations/{id}'),
  /** Messages of a conversation, newest first: await for a page, `for await` for every message. */
  listMessages: lists<ConversationPageInput, ListMessagesResult>(
    'GET /v1/chat/{botId}/conversations/{id}/messages',
    'messages',
    CONVERSATION_IN_PATH,
  ),
  /** Posts a message (payload at most 128 KB as JSON). */
  createMessage: sends<CreateMessageInput, MessageResult>('POST /v1/chat/{botId}/messages'),
  /** A message of a conversation the caller may read. */
  getMessage: sends<IdInput, MessageResult>('GET /v1/chat/{botId}/messages/{id}'),
  /** Deletes a message (its author or the bot). */
  deleteMessage: sends<IdInput, EmptyResponse>('DELETE /v1/chat/{botId}/messages/{id}'),
  /** Feedback on a bot message (when the bot's webchat configuration has `feedbackEnabled`). */
  setMessageFeedback: sends<MessageFeedbackInput, MessageResult>(
    'PUT /v1/chat/{botId}/messages/{id}/feedback',
  ),
  /** Sends a custom event into a conversation. */
  createEvent: sends<CreateEventInput, EventResult>('POST /v1/chat/{botId}/events'),
  /** An event of a conversation the caller may read. */
  getEvent: sends<IdInput, EventResult>('GET /v1/chat/{botId}/events/{id}'),
  /** Participants of a conversation, in the order they joined. */
  listParticipants: lists<ConversationPageInput, ListParticipantsResult>(
    'GET /v1/chat/{botId}/conversations/{id}/participants',
    'participants',
    CONVERSATION_IN_PATH,
  ),
  /** Adds a user of the bot to a conversation. */
  addParticipant: sends<AddParticipantInput, ParticipantResult>(
    'POST /v1/chat/{botId}/conversations/{id}/participants',
    CONVERSATION_IN_PATH,
  ),
  /** One participant of a conversation. */
  getParticipant: sends<ParticipantInput, ParticipantResult>(
    'GET /v1/chat/{botId}/conversations/{id}/participants/{userId}',
    CONVERSATION_IN_PATH,
  ),
  /** Removes a participant: oneself, or anyone for the conversation's creator and the bot. */
  removeParticipant: sends<ParticipantInput, EmptyResponse>(
    'DELETE /v1/chat/{botId}/conversations/{id}/participants/{userId}',
    CONVERSATION_IN_PATH,
  ),
  /**
   * Starts a chat file upload (when the bot's webchat configuration has `allowFileUpload`): PUT the bytes to
   * `file.uploadUrl`, then send a `file` or `image` message with `file.url`. `uploadFile` does both.
   */
  createFile: sends<CreateChatFileInput, ChatFileResult>('POST /v1/chat/{botId}/files'),
  listen: {
    method: 'GET',
    path: '/v1/chat/{botId}/conversations/{id}/listen',
    operationId: 'chat.listenConversation',
  },
});

/** The links bot answers carry for people to open in a browser; no client method sends them. */
export const CHAT_LINK_OPERATIONS = /* @__PURE__ */ operations('chat', {
  openMessageSource: {
    method: 'GET',
    path: '/v1/chat/{botId}/messages/{id}/sources/{n}',
    auth: 'none',
  },
});

/** The webchat script's own API, read by browsers embedding the chat. */
export const WEBCHAT_OPERATIONS = /* @__PURE__ */ operations('webchat', {
  getConfiguration: 'GET /webchat/v1/bots/{botId}/config',
});
