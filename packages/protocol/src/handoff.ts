import Type, { type Static } from 'typebox';
import { HandoffState, MessagePayload } from './chat.js';
import { Timestamp } from './common.js';
import { InboxMessage } from './inbox.js';

/** The states in which the bot answers a visitor's message. */
export const BOT_ANSWERS_IN: readonly HandoffState[] = ['bot', 'resolved'];

/** A conversation's owner as the Admin API shows it. */
export const ConversationHandoff = Type.Object(
  {
    conversationId: Type.String(),
    state: HandoffState,
    /** Since when the visitor waits for a person (state pending). */
    waitingSince: Type.Optional(Timestamp),
    /** The person answering (state assigned): their account id and the name the visitor sees. */
    assignedTo: Type.Optional(Type.Object({ accountId: Type.String(), name: Type.String() })),
    /** When a person first replied in the conversation. */
    firstHumanReplyAt: Type.Optional(Timestamp),
    /** When a person last resolved it. */
    resolvedAt: Type.Optional(Timestamp),
    /** The e-mail address the visitor left when nobody came (the webchat's form). */
    visitorEmail: Type.Optional(Type.String()),
  },
  { $id: 'ConversationHandoff' },
);
/** Conversation handoff type. */
export type ConversationHandoff = Static<typeof ConversationHandoff>;

/** The change a `POST …/handoff` asks for. */
export const HandoffAction = Type.Union(
  [
    Type.Literal('request'),
    Type.Literal('take'),
    Type.Literal('assign'),
    Type.Literal('hand_back'),
    Type.Literal('resolve'),
  ],
  {
    description:
      'request (bot → pending), take (→ assigned to you), assign (→ assigned to memberId), hand_back (→ bot), resolve (→ resolved: the bot answers again)',
  },
);
/** Handoff action type. */
export type HandoffAction = Static<typeof HandoffAction>;

/** Body of `POST /v1/admin/bots/{id}/conversations/{conversationId}/handoff`. */
export const HandoffBody = Type.Object(
  {
    action: HandoffAction,
    memberId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'The member to assign to (action assign only)',
      }),
    ),
  },
  { additionalProperties: false },
);
/** Handoff body type. */
export type HandoffBody = Static<typeof HandoffBody>;

/** `{handoff}` envelope. */
export const HandoffResponse = Type.Object({ handoff: ConversationHandoff });
/** Handoff answer type. */
export type HandoffResponse = Static<typeof HandoffResponse>;

/** Body of an agent's message (`POST /v1/admin/bots/{id}/conversations/{conversationId}/messages`). */
export const AgentMessageBody = Type.Object(
  {
    payload: MessagePayload,
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);
/** Agent message body type. */
export type AgentMessageBody = Static<typeof AgentMessageBody>;

/** Body of `POST /v1/admin/bots/{id}/conversations/{conversationId}/typing`: whether the person types a reply now. */
export const AgentTypingBody = Type.Object(
  { typing: Type.Boolean({ description: 'true while the person types a reply, false once they stopped' }) },
  { additionalProperties: false },
);
/** Agent typing body type. */
export type AgentTypingBody = Static<typeof AgentTypingBody>;

/** `{message}` envelope of an agent's message, as the transcript shows it. */
export const AgentMessageResponse = Type.Object({ message: InboxMessage });
/** Agent message answer type. */
export type AgentMessageResponse = Static<typeof AgentMessageResponse>;

/** Words a visitor asks for a person with, when a bot's webchat configuration names none (`handoffKeywords`). */
export const DEFAULT_HANDOFF_KEYWORDS: readonly string[] = [
  'human',
  'agent',
  'real person',
  'talk to a person',
  'speak to a person',
  'operator',
];

/**
 * Whether a visitor's text asks for a person: one of `keywords` appears in it as whole words, whatever the
 * case and spacing (`agent` matches "an agent please", not "user-agents").
 * @example asksForPerson('Can I talk to a REAL person?', DEFAULT_HANDOFF_KEYWORDS) // true
 */
export function asksForPerson(text: string, keywords: readonly string[]): boolean {
  const words = ` ${text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ')} `;
  return keywords.some((k) => {
    const key = k
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .join(' ');
    return key !== '' && words.includes(` ${key} `);
  });
}

/** Query of the conversation exports (`GET /v1/admin/bots/{id}/conversations/export`, and of one conversation). */
export const ConversationExportQuery = Type.Object({
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('csv')], {
      description:
        'json (default): {botId, from?, to?, conversations: [{id, createdAt, updatedAt, handoff, messages}]}; csv: one row per message',
    }),
  ),
  from: Type.Optional(
    Type.String({
      maxLength: 40,
      description: 'Conversations created at or after this date or time (ISO 8601)',
    }),
  ),
  to: Type.Optional(
    Type.String({ maxLength: 40, description: 'Conversations created before this date or time (ISO 8601)' }),
  ),
});
/** Conversation export query type. */
export type ConversationExportQuery = Static<typeof ConversationExportQuery>;
