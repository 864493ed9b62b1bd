import type {
  AddParticipantBody,
  ChatFileResponse,
  ChatSignal,
  ChatUserFields,
  ChatUserResponse,
  ConversationResponse,
  CreateChatFileBody,
  CreateChatUserResponse,
  CreateConversationBody,
  CreateEventBody,
  CreateMessageBody,
  EventResponse,
  ListConversationsResponse,
  ListMessagesResponse,
  ListParticipantsResponse,
  MessageFeedback,
  MessageResponse,
  ParticipantResponse,
} from '@parley/protocol';
import type { Static } from 'typebox';
import type { PageInput } from './admin-types.js';
import type { ConnectionOptions } from './core.js';
import type { UploadProgress, UploadSource } from './transfer.js';

// Inputs and answers of the Chat API (`/v1/chat/{botId}`); every shape comes from @parley/protocol.
// A resource's own id is `id`; the conversation a sub-resource belongs to is `conversationId`.

/** Writable fields of a chat user; `null` clears one. */
export type ChatUserInput = ChatUserFields;
/** Answer of createUser: the user and its key (give it to `ChatClient` as `userKey`). */
export type CreateChatUserResult = CreateChatUserResponse;
/** `{user}`. */
export type ChatUserResult = ChatUserResponse;

/** Input of createConversation and getOrCreateConversation (`id`: choose the id yourself). */
export type CreateConversationInput = Static<typeof CreateConversationBody>;
/** `{conversation}`. */
export type ConversationResult = Static<typeof ConversationResponse>;
/** A page of conversations, most recently active first. */
export type ListConversationsResult = Static<typeof ListConversationsResponse>;

/** Input of the operations on a conversation's messages and participants. */
export type ConversationPageInput = { conversationId: string } & PageInput;
/** A page of messages, newest first. */
export type ListMessagesResult = Static<typeof ListMessagesResponse>;
/** Input of createMessage: the conversation, the payload (`{ type: 'text', text }`, …) and metadata. */
export type CreateMessageInput = CreateMessageBody;
/** `{message}`. */
export type MessageResult = Static<typeof MessageResponse>;
/** Input of setMessageFeedback. */
export type MessageFeedbackInput = { id: string } & MessageFeedback;

/** Input of createEvent. */
export type CreateEventInput = CreateEventBody;
/** `{event}`. */
export type EventResult = Static<typeof EventResponse>;

/** Input of addParticipant. */
export type AddParticipantInput = { conversationId: string } & Static<typeof AddParticipantBody>;
/** Input of getParticipant and removeParticipant. */
export interface ParticipantInput {
  conversationId: string;
  userId: string;
}
/** A page of participants, in the order they joined. */
export type ListParticipantsResult = Static<typeof ListParticipantsResponse>;
/** `{participant}`. */
export type ParticipantResult = Static<typeof ParticipantResponse>;

/** Input of createFile: the name, size, type and conversation of a chat file. */
export type CreateChatFileInput = CreateChatFileBody;
/** Answer of createFile: PUT the bytes to `file.uploadUrl`, then send a message with `file.url`. */
export type ChatFileResult = ChatFileResponse;
/** Input of uploadFile: the chat file's name, conversation and type, its bytes, and progress. */
export type UploadChatFileInput = Omit<CreateChatFileBody, 'size'> &
  UploadSource & { onProgress?: ((progress: UploadProgress) => void) | undefined };

/** A signal of a live stream, with the id of its frame (`eventId`, the cursor to resume after). */
export type ChatStreamSignal = ChatSignal & { eventId: string | undefined };

/** Options of a chat client; besides these, the connection options of `Client` (apiUrl, timeout, retry, …). */
export interface ChatClientOptions extends ConnectionOptions {
  /** The bot whose Chat API this is (`/v1/chat/{botId}`). Env `PARLEY_BOT_ID`. */
  botId?: string | undefined;
  /**
   * The chat user's key, sent as `x-user-key`: the `key` createUser answered, or a key your backend signed
   * (`signUserKey`) for verified identity.
   */
  userKey?: string | undefined;
  /** A bot access key (`bak_…`), sent as `Authorization: Bearer`: the bot itself acting in its chats. */
  token?: string | undefined;
  /** The webchat adminKey, sent as `x-admin-key` (enhanced permissions). */
  adminKey?: string | undefined;
}
