import type {
  AgentMessageBody,
  AgentMessageResponse,
  AgentTypingBody,
  BotConversationCountsResponse,
  BotConversationResponse,
  ConversationNoteResponse,
  ConversationNotesResponse,
  CreateConversationNoteBody,
  HandoffBody,
  HandoffResponse,
  HandoffState,
  InboxConversation,
  InboxMessage,
  ListBotConversationMessagesResponse,
  ListBotConversationsResponse,
} from '../../index.js';
import type { IdInput, PageInput } from './admin.js';

/** Input of listBotConversations: the bot, a page, and the filters. */
export type ListBotConversationsInput = IdInput &
  PageInput & {
    /** `negative`: only conversations where a bot reply got negative feedback. */
    feedback?: 'negative' | undefined;
    /** true: only conversations where the bot could not find an answer (a `not_found` reply). */
    unanswered?: boolean | undefined;
    /** Only conversations in this handoff state; `pending` lists the oldest waiting first. */
    state?: HandoffState | undefined;
    /** `me` or an account id: only conversations assigned to that person. */
    assignedTo?: string | undefined;
    /** Words in a message, or the visitor's name or e-mail address. */
    search?: string | undefined;
  };
/** Answer of getBotConversationCounts: the conversations of each tab of the desk. */
export type BotConversationCounts = BotConversationCountsResponse;
/** A conversation of a bot as the inbox lists it. */
export type BotConversation = InboxConversation;
/** A message of a conversation's transcript. */
export type BotConversationMessage = InboxMessage;
/** Answer of listBotConversations: a page, most recent activity first. */
export type ListBotConversationsPage = ListBotConversationsResponse;
/** Input of getBotConversation and listBotConversationMessages: the bot and the conversation. */
export type BotConversationInput = IdInput & { conversationId: string };
/** Answer of getBotConversation. */
export type GetBotConversationResponse = BotConversationResponse;
/** Input of listBotConversationMessages: the conversation and a page. */
export type ListBotConversationMessagesInput = BotConversationInput & PageInput;
/** Answer of listBotConversationMessages: a page of the transcript, oldest first. */
export type ListBotConversationMessagesPage = ListBotConversationMessagesResponse;
/** Answer of getConversationHandoff and changeConversationHandoff: who answers the conversation. */
export type ConversationHandoffResponse = HandoffResponse;
/** Input of changeConversationHandoff: the conversation, the action and (for `assign`) the member. */
export type ChangeConversationHandoffInput = BotConversationInput & HandoffBody;
/** Input of createAgentMessage: the conversation and the message (a payload as the Chat API's). */
export type CreateAgentMessageInput = BotConversationInput & AgentMessageBody;
/** Answer of createAgentMessage: the message as the transcript shows it (author `agent`). */
export type CreateAgentMessageResponse = AgentMessageResponse;
/** Input of setAgentTyping: the conversation and whether you type a reply now. */
export type SetAgentTypingInput = BotConversationInput & AgentTypingBody;

/**
 * A frame of the inbox desk's live stream (`listenBotConversations`): first the desk's `counts`, then
 * `conversation_changed` for each message or change of owner (`signals` and `handoff` when known), `resync`
 * when changes may have been missed (read the lists again); pings only with `includePings`.
 */
export type BotConversationsSignal = (
  | { type: 'counts'; data: BotConversationCountsResponse['counts'] }
  | {
      type: 'conversation_changed';
      data: { conversationId: string; signals?: string[]; handoff?: { state: HandoffState } };
    }
  | { type: 'resync'; data: Record<string, never> }
  | { type: 'ping'; data: Record<string, never> }
) & { eventId: string | undefined };

/** Input of createConversationNote: the conversation and the note's text. */
export type CreateConversationNoteInput = BotConversationInput & CreateConversationNoteBody;
/** Answer of listConversationNotes: the conversation's internal notes, oldest first. */
export type ListConversationNotesResponse = ConversationNotesResponse;
/** Answer of createConversationNote. */
export type CreateConversationNoteResponse = ConversationNoteResponse;
