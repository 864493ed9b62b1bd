import Type, { type Static } from 'typebox';
import { HandoffState, MessageFeedback } from './chat.js';
import { ListMeta, PageQuery, Timestamp } from './common.js';

/**
 * The answer mode a bot reply records (how the chat reply job made it): `not_found` when the knowledge base
 * had nothing relevant (the "Not answered" filter), `passages`, `generated`, `small_talk`, `unsupported`,
 * `search_failed`, `no_engine`, `failed`. Absent on users' messages and on messages a bot posted itself
 * (webhook bots).
 */
export const AnswerMode = Type.String({
  description:
    "How a bot reply was made: not_found, qa (a Q&A entry of the bot), passages, generated, small_talk, unsupported, search_failed, no_engine or failed; handoff (the bot telling who answers now) and human (a person's message)",
});

/**
 * The visitor of a conversation as the desk shows them: the chat user's name, the e-mail address they gave, and
 * the page they wrote from and their browser's language (what the webchat sent with their latest message).
 */
export const InboxVisitor = Type.Object({
  userId: Type.String(),
  name: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  page: Type.Optional(Type.String({ description: 'The address of the page the visitor last wrote from' })),
  language: Type.Optional(
    Type.String({ description: "The visitor's browser language (BCP 47, e.g. fr-CA)" }),
  ),
});
/** Inbox visitor type. */
export type InboxVisitor = Static<typeof InboxVisitor>;

/** A conversation of a bot as its owners see it in the inbox (Admin API). */
export const InboxConversation = Type.Object(
  {
    id: Type.String(),
    createdAt: Timestamp,
    /** The time of its last activity (its latest message). */
    updatedAt: Timestamp,
    messageCount: Type.Integer({ minimum: 0 }),
    /** The latest message, as text (empty when there is none). */
    lastMessage: Type.Optional(
      Type.Object({
        text: Type.String({ description: 'The message as plain text (cut to 200 characters)' }),
        isBot: Type.Boolean(),
        createdAt: Timestamp,
      }),
    ),
    /** The latest message of a visitor (what was last asked), as text cut to 200 characters. */
    lastQuestion: Type.Optional(Type.String()),
    /** Some bot reply got negative feedback. */
    negativeFeedback: Type.Boolean(),
    /** Some bot reply said it could not find an answer (answer mode `not_found`). */
    unanswered: Type.Boolean(),
    /**
     * A correction: a question of the conversation that went unanswered (or got a thumbs down) is answered now by
     * an enabled Q&A entry saved after it was asked.
     */
    answeredByEntry: Type.Optional(
      Type.Object({
        entryId: Type.String(),
        /** When the entry was saved (created, changed or switched on). */
        since: Timestamp,
        question: Type.String({ description: 'The question the entry answers now, as the visitor wrote it' }),
      }),
    ),
    /** Who answers it (human handoff): bot, pending, assigned or resolved. */
    state: HandoffState,
    /** Since when the visitor waits for a person (state pending). */
    waitingSince: Type.Optional(Timestamp),
    /** The person answering (state assigned): their account id and the name the visitor sees. */
    assignedTo: Type.Optional(Type.Object({ accountId: Type.String(), name: Type.String() })),
    /** What is known of the visitor who started it. */
    visitor: Type.Optional(InboxVisitor),
  },
  { $id: 'InboxConversation' },
);
/** Inbox conversation type. */
export type InboxConversation = Static<typeof InboxConversation>;

/** Query of `GET /v1/admin/bots/{id}/conversations`. */
export const ListBotConversationsQuery = Type.Object({
  ...PageQuery,
  feedback: Type.Optional(
    Type.Literal('negative', { description: 'Only conversations with negative feedback on a bot reply' }),
  ),
  unanswered: Type.Optional(
    Type.Boolean({ description: 'true: only conversations where the bot could not find an answer' }),
  ),
  /** Only conversations in this handoff state; `pending` lists the oldest waiting first (the Waiting tab). */
  state: Type.Optional(HandoffState),
  assignedTo: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: '`me` (the caller) or an account id: only conversations assigned to that person',
    }),
  ),
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        "Words to find: in the conversation's messages, or the visitor's name or e-mail address (case-insensitive)",
    }),
  ),
});
/** Query type of listBotConversations. */
export type ListBotConversationsQuery = Static<typeof ListBotConversationsQuery>;

/** The desk's tabs: conversations waiting for a person, assigned to the caller, all, and resolved. */
export const InboxCounts = Type.Object({
  waiting: Type.Integer({ minimum: 0 }),
  mine: Type.Integer({ minimum: 0 }),
  all: Type.Integer({ minimum: 0 }),
  resolved: Type.Integer({ minimum: 0 }),
});
/** Inbox counts type. */
export type InboxCounts = Static<typeof InboxCounts>;

/** Answer of `GET /v1/admin/bots/{id}/conversations/counts`. */
export const BotConversationCountsResponse = Type.Object({ counts: InboxCounts });
/** getBotConversationCounts answer type. */
export type BotConversationCountsResponse = Static<typeof BotConversationCountsResponse>;

/** Answer of listBotConversations: most recent activity first. */
export const ListBotConversationsResponse = Type.Object({
  conversations: Type.Array(InboxConversation),
  meta: ListMeta,
});
/** listBotConversations answer type. */
export type ListBotConversationsResponse = Static<typeof ListBotConversationsResponse>;

/** `{conversation}` envelope of getBotConversation. */
export const BotConversationResponse = Type.Object({ conversation: InboxConversation });
/** getBotConversation answer type. */
export type BotConversationResponse = Static<typeof BotConversationResponse>;

/** A source a bot reply rests on: a file of the bot's knowledge and the page of the passage. */
export const InboxSource = Type.Object({
  fileId: Type.String(),
  key: Type.String(),
  pageNumber: Type.Optional(Type.Integer()),
  score: Type.Optional(Type.Number()),
});
/** Inbox source type. */
export type InboxSource = Static<typeof InboxSource>;

/** One message of a transcript (Admin API). */
export const InboxMessage = Type.Object(
  {
    id: Type.String(),
    createdAt: Timestamp,
    author: Type.Union([Type.Literal('visitor'), Type.Literal('bot'), Type.Literal('agent')], {
      description: 'visitor, bot, or agent (a person of the workspace, human handoff)',
    }),
    userId: Type.String(),
    /** The chat user's name, when it has one. */
    userName: Type.Optional(Type.String()),
    /** The message as plain text (a card's title, an image's URL…). */
    text: Type.String(),
    payload: Type.Record(Type.String(), Type.Unknown(), { description: 'The message payload as sent' }),
    /** The sources of a bot reply (its `metadata.sources`). */
    sources: Type.Optional(Type.Array(InboxSource)),
    answer: Type.Optional(AnswerMode),
    /** The retrieval details behind a bot reply (what its `debug` signal carried). */
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    feedback: Type.Optional(MessageFeedback),
  },
  { $id: 'InboxMessage' },
);
/** Transcript message type. */
export type InboxMessage = Static<typeof InboxMessage>;

/** Answer of listBotConversationMessages: oldest first. */
export const ListBotConversationMessagesResponse = Type.Object({
  messages: Type.Array(InboxMessage),
  meta: ListMeta,
});
/** listBotConversationMessages answer type. */
export type ListBotConversationMessagesResponse = Static<typeof ListBotConversationMessagesResponse>;

/** An internal note of the inbox desk beside a conversation: read by the workspace, never by the visitor. */
export const ConversationNote = Type.Object(
  {
    id: Type.String(),
    conversationId: Type.String(),
    /** Who wrote it: their account and their name then. */
    author: Type.Object({ accountId: Type.String(), name: Type.String() }),
    text: Type.String(),
    createdAt: Timestamp,
  },
  { $id: 'ConversationNote' },
);
/** Conversation note type. */
export type ConversationNote = Static<typeof ConversationNote>;

/** Body of `POST /v1/admin/bots/{id}/conversations/{conversationId}/notes`. */
export const CreateConversationNoteBody = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: 4000, description: 'The note, as plain text' }) },
  { additionalProperties: false },
);
/** Create conversation note body type. */
export type CreateConversationNoteBody = Static<typeof CreateConversationNoteBody>;

/** `{notes}` of a conversation, oldest first (the 500 latest). */
export const ConversationNotesResponse = Type.Object({ notes: Type.Array(ConversationNote) });
/** listConversationNotes answer type. */
export type ConversationNotesResponse = Static<typeof ConversationNotesResponse>;

/** `{note}` envelope of createConversationNote. */
export const ConversationNoteResponse = Type.Object({ note: ConversationNote });
/** createConversationNote answer type. */
export type ConversationNoteResponse = Static<typeof ConversationNoteResponse>;
