import Type, { type Static } from 'typebox';
import { ListMeta, PageQuery, SortDirection, Tags, Timestamp } from './common.js';
import { BotHandoff } from './handoff-settings.js';
import { WebchatConfiguration } from './webchat-config.js';

/** Roles of a workspace member, from least to most powerful (billing stands apart). */
export const ROLES = ['viewer', 'billing', 'developer', 'manager', 'administrator', 'owner'] as const;
/** A workspace member's role. */
export const Role = Type.Union([
  Type.Literal('viewer'),
  Type.Literal('billing'),
  Type.Literal('developer'),
  Type.Literal('manager'),
  Type.Literal('administrator'),
  Type.Literal('owner'),
]);
/** Role type. */
export type Role = (typeof ROLES)[number];

// ---- bots ----

/**
 * Which sources of its knowledge answers a bot links (the rest are named by their title, without a link):
 * `none`; `public` (the default): files readable without credentials (`public_content`) and files whose
 * metadata names an http(s) `sourceUrl` (that URL is linked instead of the stored copy); `all`: every source
 * file, whole, to anyone who sees the answer.
 */
export const BotSourceLinks = Type.Union(
  [Type.Literal('none'), Type.Literal('public'), Type.Literal('all')],
  {
    description:
      "Which sources of the bot's answers are linked: none; public (default: public_content files, and a file's metadata sourceUrl); all (anyone who sees an answer can download each whole source file)",
  },
);
/** Source links setting type. */
export type BotSourceLinks = Static<typeof BotSourceLinks>;

/** Longest operator reply texts (characters): the "not found" reply, the intro before quotes, the clarification. */
export const BOT_REPLY_LIMITS = { notFound: 1000, intro: 300, clarify: 300 } as const;

/**
 * The bot's own words in its knowledge answers (Markdown; links and images only to http(s), mailto: and tel:
 * addresses): `notFound`, the reply when its knowledge holds nothing relevant (e.g. with a contact line or
 * link); `intro`, the line before the quotes of an answer; `clarify`, the question before the choices when it
 * is unsure which topic is meant. A text left out is the built-in default.
 */
export const BotReplies = Type.Object(
  {
    notFound: Type.Optional(Type.String({ minLength: 1, maxLength: BOT_REPLY_LIMITS.notFound })),
    intro: Type.Optional(Type.String({ minLength: 1, maxLength: BOT_REPLY_LIMITS.intro })),
    clarify: Type.Optional(Type.String({ minLength: 1, maxLength: BOT_REPLY_LIMITS.clarify })),
  },
  {
    additionalProperties: false,
    description:
      "The bot's own reply texts (Markdown, links to http(s)/mailto/tel only): notFound, intro (before quotes), clarify (the question before choices); a text left out is the default. On update the object replaces the bot's whole set",
  },
);
/** Bot reply texts type. */
export type BotReplies = Static<typeof BotReplies>;

/** Item of the list of bots (spec "Bot summary"), with its source links setting. */
export const BotSummary = Type.Object({
  id: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  name: Type.String(),
  deployedAt: Timestamp,
  tags: Tags,
  sourceLinks: BotSourceLinks,
});
/** Bot summary type. */
export type BotSummary = Static<typeof BotSummary>;

/** How a bot answers chat messages. */
export const BotReplyMode = Type.Union([Type.Literal('knowledge'), Type.Literal('webhook')]);

/** A bot with every field. */
export const Bot = Type.Object(
  {
    id: Type.String(),
    workspaceId: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deployedAt: Timestamp,
    name: Type.String(),
    description: Type.String(),
    dev: Type.Boolean(),
    status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
    tags: Tags,
    createdBy: Type.String({ description: 'Account id of the creator' }),
    replyMode: BotReplyMode,
    webhookUrl: Type.Union([Type.String(), Type.Null()]),
    sourceLinks: BotSourceLinks,
    replies: BotReplies,
    handoff: BotHandoff,
  },
  { $id: 'Bot' },
);
/** Bot type. */
export type Bot = Static<typeof Bot>;

const BotName = Type.String({ minLength: 1, maxLength: 200 });
const WebhookUrl = Type.Union([Type.String({ format: 'uri', maxLength: 2048 }), Type.Null()]);
/** The settings of how a bot answers, each optional, as createBot and updateBot take them. */
const BOT_SETTINGS = {
  replyMode: Type.Optional(BotReplyMode),
  webhookUrl: Type.Optional(WebhookUrl),
  sourceLinks: Type.Optional(BotSourceLinks),
  replies: Type.Optional(BotReplies),
  handoff: Type.Optional(BotHandoff),
};

/** Body of createBot. */
export const CreateBotBody = Type.Object({
  name: Type.Optional(BotName),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  dev: Type.Optional(Type.Boolean()),
  tags: Type.Optional(Tags),
  ...BOT_SETTINGS,
});
/** createBot body type. */
export type CreateBotBody = Static<typeof CreateBotBody>;

/** Body of updateBot: every field optional; `null` tag values remove a tag. */
export const UpdateBotBody = Type.Object({
  name: Type.Optional(BotName),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled')])),
  tags: Type.Optional(
    Type.Record(
      Type.String({ minLength: 1, maxLength: 100 }),
      // One schema with a type list, not a union: with coerceTypes, ajv would turn null into "" in a
      // union's string branch, and the tag would be kept as "" instead of removed.
      Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 1000 }),
    ),
  ),
  ...BOT_SETTINGS,
});
/** updateBot body type. */
export type UpdateBotBody = Static<typeof UpdateBotBody>;

/** Query of listBots. */
export const ListBotsQuery = Type.Object({
  ...PageQuery,
  dev: Type.Optional(Type.Boolean()),
  name: Type.Optional(
    Type.String({ maxLength: 200, description: 'Only bots whose name contains this text' }),
  ),
  tags: Type.Optional(Type.Unknown({ description: 'Tag filter: tags.k=v, tags[k]=v, or URL-encoded JSON' })),
  sortField: Type.Optional(
    Type.Union([Type.Literal('createdAt'), Type.Literal('updatedAt'), Type.Literal('name')]),
  ),
  sortDirection: Type.Optional(SortDirection),
});

/** Answer of listBots. */
export const ListBotsResponse = Type.Object({ bots: Type.Array(BotSummary), meta: ListMeta });
/** listBots answer type. */
export type ListBotsResponse = Static<typeof ListBotsResponse>;

// ---- workspaces ----

/** A workspace. */
export const Workspace = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    ownerId: Type.String(),
    about: Type.String(),
    contactEmail: Type.String(),
    website: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    botCount: Type.Integer(),
    role: Type.Optional(Role),
  },
  { $id: 'Workspace' },
);
/** Workspace type. */
export type Workspace = Static<typeof Workspace>;

/** Body of createWorkspace. */
export const CreateWorkspaceBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });
/** Body of updateWorkspace (its settings). */
export const UpdateWorkspaceBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  about: Type.Optional(Type.String({ maxLength: 2000 })),
  contactEmail: Type.Optional(
    Type.Union([Type.Literal(''), Type.String({ format: 'email', maxLength: 320 })]),
  ),
  website: Type.Optional(Type.Union([Type.Literal(''), Type.String({ format: 'uri', maxLength: 2048 })])),
});

/** One usage figure of a workspace. */
export const Usage = Type.Object({
  id: Type.String({ description: 'Workspace id' }),
  period: Type.String({ description: 'YYYY-MM' }),
  type: Type.String(),
  value: Type.Number(),
  quota: Type.Union([Type.Number(), Type.Null()], { description: 'null when unlimited' }),
});
/** Usage type. */
export type Usage = Static<typeof Usage>;

// ---- members and accounts ----

/** A workspace member (or a pending invitation when `userId` is absent). */
export const Member = Type.Object(
  {
    id: Type.String(),
    userId: Type.Optional(Type.String()),
    email: Type.String(),
    displayName: Type.Optional(Type.String()),
    role: Role,
    createdAt: Timestamp,
    status: Type.Union([Type.Literal('active'), Type.Literal('invited')]),
    invitationExpiresAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: "a pending member's: when their invitation link stops working (renew it for a new one)",
      }),
    ),
  },
  { $id: 'Member' },
);
/** Member type. */
export type Member = Static<typeof Member>;

/** A one-time invitation handed out when a member is added by an e-mail with no account yet. */
export const Invitation = Type.Object({ code: Type.String(), expiresAt: Timestamp });

/** Body of addMember. */
export const AddMemberBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 320 }),
  role: Role,
});
/** Body of updateMember. */
export const UpdateMemberBody = Type.Object({ role: Role });

/** An account (a person). */
export const Account = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    displayName: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Account' },
);
/** Account type. */
export type Account = Static<typeof Account>;

/** Body of updateAccount. */
export const UpdateAccountBody = Type.Object({ displayName: Type.String({ minLength: 1, maxLength: 200 }) });

/** A password as the service accepts one: 12 to 256 characters. */
export const Password = Type.String({ minLength: 12, maxLength: 256 });

/** Body of acceptInvitation. */
export const AcceptInvitationBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 200 }),
  displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  password: Type.Optional(
    Type.String({
      minLength: 12,
      maxLength: 256,
      description: "the new account's password, for signing in (an invitation that creates an account)",
    }),
  ),
});

// ---- sign-in (passwords and sessions) ----

/** Body of signIn. */
export const SignInBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

/** Body of changePassword: `current` may be left out only by an account that has no password yet. */
export const ChangePasswordBody = Type.Object({
  current: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  new: Password,
});

/** A signed-in session as listed: never its secret. */
export const Session = Type.Object(
  {
    id: Type.String(),
    createdAt: Timestamp,
    lastSeenAt: Timestamp,
    /** When it ends unless used before: the earlier of the idle and the absolute limit. */
    expiresAt: Timestamp,
    userAgent: Type.String(),
    address: Type.String(),
    current: Type.Boolean({ description: 'the session this request is authenticated by' }),
  },
  { $id: 'Session' },
);
/** Session type. */
export type Session = Static<typeof Session>;

// ---- tokens ----

/** A token as listed: never its value. */
export const TokenInfo = Type.Object({
  id: Type.String(),
  note: Type.String(),
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()]),
  expiresAt: Type.Union([Timestamp, Type.Null()]),
});
/** Token info type. */
export type TokenInfo = Static<typeof TokenInfo>;

/** A token just created: the only time its `value` is shown. */
export const CreatedToken = Type.Object({
  ...TokenInfo.properties,
  value: Type.String({ description: 'The secret; shown once' }),
});
/** Created token type. */
export type CreatedToken = Static<typeof CreatedToken>;

/** Body of the token-creating operations. */
export const CreateTokenBody = Type.Object({
  note: Type.Optional(Type.String({ maxLength: 200 })),
  expiresAt: Type.Optional(Timestamp),
});

// ---- integrations ----

/** An integration of a workspace. */
export const Integration = Type.Object(
  {
    id: Type.String(),
    workspaceId: Type.String(),
    name: Type.String(),
    description: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: Type.String(),
  },
  { $id: 'Integration' },
);
/** Integration type. */
export type Integration = Static<typeof Integration>;

/** Body of createIntegration. */
export const CreateIntegrationBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '^[a-z0-9][a-z0-9-_.]*$' }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
});

/** An integration installed on a bot. */
export const Installation = Type.Object({
  integrationId: Type.String(),
  botId: Type.String(),
  name: Type.String(),
  installedAt: Timestamp,
});

// ---- audit, logs, webchat ----

/** One audit record: who did what to which resource, when. */
export const AuditRecord = Type.Object({
  id: Type.String(),
  recordedAt: Timestamp,
  userId: Type.Union([Type.String(), Type.Null()]),
  userEmail: Type.Optional(Type.String()),
  resourceId: Type.Union([Type.String(), Type.Null()]),
  resourceName: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
  action: Type.String(),
});
/** Audit record type. */
export type AuditRecord = Static<typeof AuditRecord>;

/** One line of a bot's request log. */
export const LogEntry = Type.Object({
  id: Type.String(),
  timestamp: Timestamp,
  level: Type.Union([Type.Literal('info'), Type.Literal('warn'), Type.Literal('error')]),
  message: Type.String(),
  requestId: Type.String(),
  operationId: Type.Union([Type.String(), Type.Null()]),
  method: Type.String(),
  path: Type.String(),
  statusCode: Type.Integer(),
  durationMs: Type.Number(),
});
/** Log entry type. */
export type LogEntry = Static<typeof LogEntry>;

/** Answer of the bot webchat configuration operations. */
export const BotWebchatResponse = Type.Object({ configuration: WebchatConfiguration });

/** Body of the bot answer preview (`POST /v1/admin/bots/{id}/answer-preview`): the question to answer. */
export const AnswerPreviewBody = Type.Object({
  question: Type.String({
    minLength: 1,
    maxLength: 4000,
    description: 'The question, as a visitor would type it in the chat (not blank)',
  }),
});
/** Answer preview body type. */
export type AnswerPreviewBody = Static<typeof AnswerPreviewBody>;

/** A passage an answer preview rests on: its file, page and score (as the reply's `metadata.sources` names it). */
export const AnswerPreviewSource = Type.Object({
  fileId: Type.String(),
  key: Type.String(),
  pageNumber: Type.Optional(Type.Integer()),
  score: Type.Number(),
});

/**
 * The reply a bot would give to a question in a conversation, made by its own knowledge answers: nothing is
 * stored. `found` is false when the reply says nothing relevant was found (or is no answer from the knowledge).
 */
export const AnswerPreviewResponse = Type.Object({
  text: Type.String({ description: "The reply's text (Markdown when `format` is markdown)" }),
  format: Type.Union([Type.Literal('text'), Type.Literal('markdown')]),
  found: Type.Boolean({
    description: 'True when the reply answers from passages of the knowledge or from a Q&A entry',
  }),
  mode: Type.String({
    description:
      'How the reply was made: qa (a Q&A entry of the bot), passages, generated, not_found, small_talk, unsupported, search_failed, no_engine',
  }),
  sources: Type.Array(AnswerPreviewSource),
  replyMode: BotReplyMode,
  debug: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        'The retrieval details (query, scope, passages with scores), as the debug signal gives them',
    }),
  ),
});
/** Answer preview type. */
export type AnswerPreviewResponse = Static<typeof AnswerPreviewResponse>;
