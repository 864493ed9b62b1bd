import type { BotSummary, ListBotsResponse as ListBotsPage, LogEntry } from '@parley/protocol';
import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type {
  BotAnswerPreview,
  BotChatSecretsResponse,
  BotResponse,
  BotWebchat,
  CreateBotAccessKeyInput,
  CreateBotInput,
  CreateKeyResponse,
  EmptyResponse,
  GetBotInsightsInput,
  GetBotInsightsResponse,
  GetBotLogsInput,
  GetBotLogsResponse,
  IdInput,
  ListBotsInput,
  ListBotUsagesResponse,
  ListKeysResponse,
  PreviewBotAnswerInput,
  RevokeBotAccessKeyInput,
  UpdateBotInput,
  UpdateBotWebchatInput,
} from './admin-types.js';
import { apiClass, type Lists, type Sends } from './api-class.js';
import type {
  BotConversation,
  BotConversationCounts,
  BotConversationInput,
  BotConversationMessage,
  ChangeConversationHandoffInput,
  ConversationHandoffResponse,
  CreateAgentMessageInput,
  CreateAgentMessageResponse,
  CreateConversationNoteInput,
  CreateConversationNoteResponse,
  GetBotConversationResponse,
  ListBotConversationMessagesInput,
  ListBotConversationMessagesPage,
  ListBotConversationsInput,
  ListBotConversationsPage,
  ListConversationNotesResponse,
  SetAgentTypingInput,
} from './inbox-types.js';
import type {
  BotQaEntry,
  CreateQaEntryInput,
  ListQaEntriesInput,
  ListQaEntriesPage,
  QaEntryAnswer,
  QaEntryInput,
  UpdateQaEntryInput,
} from './qa-types.js';

/** The bots of a workspace (`/v1/admin/bots`): bots, their access keys, webchat, chat secrets, logs, usage. */
export type BotsApi = {
  /** Lists the workspace's bots (`GET /v1/admin/bots`): await for a page, `for await` for every bot. */
  listBots: Lists<ListBotsInput | undefined, ListBotsPage, BotSummary>;
  /** Creates a bot (`POST /v1/admin/bots`). */
  createBot: Sends<CreateBotInput | undefined, BotResponse>;
  /** Gets a bot with every field. */
  getBot: Sends<IdInput, BotResponse>;
  /** Changes a bot's fields; a `null` tag value removes that tag. */
  updateBot: Sends<UpdateBotInput, BotResponse>;
  /** Deletes a bot. */
  deleteBot: Sends<IdInput, EmptyResponse>;
  /** Lists a bot's access keys (never their values). */
  listBotAccessKeys: Sends<IdInput, ListKeysResponse>;
  /** Creates a bot access key (`bak_…`); `key.value` is shown only in this answer. */
  createBotAccessKey: Sends<CreateBotAccessKeyInput, CreateKeyResponse>;
  /** Revokes a bot access key. */
  revokeBotAccessKey: Sends<RevokeBotAccessKeyInput, EmptyResponse>;
  /** Gets a bot's dashboard webchat configuration. */
  getBotWebchat: Sends<IdInput, BotWebchat>;
  /** Replaces a bot's dashboard webchat configuration (every field is checked; bad ones are named). */
  updateBotWebchat: Sends<UpdateBotWebchatInput, BotWebchat>;
  /** The bot's Chat API secrets: the user key secret (verified identity) and the webhook secret. */
  getBotChat: Sends<IdInput, BotChatSecretsResponse>;
  /** Replaces both chat secrets of a bot: every user key signed with the old one stops working. */
  rotateBotChatSecrets: Sends<IdInput, BotChatSecretsResponse>;
  /** A bot's request log, newest first: await for a page, `for await` for every line. */
  getBotLogs: Lists<GetBotLogsInput, GetBotLogsResponse, LogEntry>;
  /** A bot's usage figures: its File Storage bytes (`storage_count`) against the per-bot quota. */
  listBotUsages: Sends<IdInput, ListBotUsagesResponse>;
  /**
   * A bot's conversations, most recent activity first (`GET /v1/admin/bots/{id}/conversations`), each with
   * its latest message and flags; `feedback: 'negative'` and `unanswered: true` filter. Await for a page,
   * `for await` for every conversation.
   */
  listBotConversations: Lists<ListBotConversationsInput, ListBotConversationsPage, BotConversation>;
  /**
   * How many conversations each tab of the inbox desk holds: `waiting` (for a person), `mine` (assigned to
   * you), `all` and `resolved`.
   */
  getBotConversationCounts: Sends<IdInput, BotConversationCounts>;
  /** One conversation of a bot, as the inbox lists it. */
  getBotConversation: Sends<BotConversationInput, GetBotConversationResponse>;
  /**
   * A conversation's transcript, oldest first: authors, texts, and for the bot's replies their sources,
   * answer mode, retrieval details and feedback. Await for a page, `for await` for every message.
   */
  listBotConversationMessages: Lists<
    ListBotConversationMessagesInput,
    ListBotConversationMessagesPage,
    BotConversationMessage
  >;
  /**
   * Who answers a conversation (human handoff): `bot`, `pending` (waiting for a person), `assigned` (to a
   * person) or `resolved` (the bot answers again).
   */
  getConversationHandoff: Sends<BotConversationInput, ConversationHandoffResponse>;
  /**
   * Changes who answers a conversation: `request`, `take` (yourself), `assign` (`memberId`), `hand_back` or
   * `resolve`; the visitor is told, the bot is silent while pending or assigned. 409 when the action does not
   * apply to the conversation's state.
   */
  changeConversationHandoff: Sends<ChangeConversationHandoffInput, ConversationHandoffResponse>;
  /**
   * A person's message in a conversation, under their name; the conversation is theirs from then on (taken
   * over unless already assigned to them; 409 when another person has it).
   */
  createAgentMessage: Sends<CreateAgentMessageInput, CreateAgentMessageResponse>;
  /**
   * Tells the visitor whether you type a reply in a conversation assigned to you (the webchat shows "<your
   * name> is typing"); 409 when it is not assigned to you. Send it at most every few seconds.
   */
  setAgentTyping: Sends<SetAgentTypingInput, EmptyResponse>;
  /** A conversation's internal notes, oldest first: for the workspace's people, never shown to the visitor. */
  listConversationNotes: Sends<BotConversationInput, ListConversationNotesResponse>;
  /** Writes an internal note beside a conversation, under your name (roles that answer conversations). */
  createConversationNote: Sends<CreateConversationNoteInput, CreateConversationNoteResponse>;
  /**
   * What a bot's conversations say over the last 7, 30 or 90 days (`GET /v1/admin/bots/{id}/insights`):
   * conversations, messages, answered vs not-found replies, feedback, a per-day series and the top
   * unanswered questions grouped by similar wording or meaning.
   */
  getBotInsights: Sends<GetBotInsightsInput, GetBotInsightsResponse>;
  /**
   * The reply the bot would give to `question` in a conversation (`POST /v1/admin/bots/{id}/answer-preview`):
   * its knowledge answers' text, sources and retrieval details; nothing is stored.
   */
  previewBotAnswer: Sends<PreviewBotAnswerInput, BotAnswerPreview>;
  /**
   * A bot's Q&A entries, oldest first (`GET /v1/admin/bots/{id}/qa`); `search` narrows to entries whose
   * wordings, answer or tags hold the text. Await for a page, `for await` for every entry.
   */
  listQaEntries: Lists<ListQaEntriesInput, ListQaEntriesPage, BotQaEntry>;
  /**
   * Adds a Q&A entry (`POST /v1/admin/bots/{id}/qa`): a visitor question close to one of its wordings is
   * answered with its answer (Markdown; links only to http(s), mailto: and tel:) before any passage search.
   */
  createQaEntry: Sends<CreateQaEntryInput, QaEntryAnswer>;
  /** One Q&A entry of a bot. */
  getQaEntry: Sends<QaEntryInput, QaEntryAnswer>;
  /** Replaces a Q&A entry's wordings and answer (absent `tags`, `enabled`, `knowledgeBaseId` are kept). */
  updateQaEntry: Sends<UpdateQaEntryInput, QaEntryAnswer>;
  /** Deletes a Q&A entry. */
  deleteQaEntry: Sends<QaEntryInput, EmptyResponse>;
};

/**
 * The operations `BotsApi` sends as its methods; `listenBotConversations` (a live stream) and the conversation
 * exports (streamed JSON or CSV) are `Client`'s own.
 */
const {
  listenBotConversations: _listen,
  exportBotConversations: _export,
  exportBotConversation: _exportOne,
  ...SENT
} = BOT_OPERATIONS;

/** Sends each method of `BotsApi` as its entry of `BOT_OPERATIONS`. */
export const BotsApi = apiClass(SENT).implementing<BotsApi>({
  listBots: 'bots',
  getBotLogs: 'logs',
  listBotConversations: 'conversations',
  listBotConversationMessages: 'messages',
  listQaEntries: 'entries',
});
