import type { Static } from 'typebox';
import type {
  AddParticipantBody,
  ChatFileResponse,
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
} from '../../index.js';
import type { PageInput } from './admin.js';

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
