import Type, { type Static } from 'typebox';
import { ListMeta, PageQuery, SortDirection, Tags, Timestamp } from './common.js';
import { BotHandoff } from './handoff-settings.js';
import { WebchatConfiguration } from './webchat-config.js';

/* Admin API shapes of bots: a bot, its settings and reply texts, its webchat configuration and answer preview. */

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

/**
 * Longest operator reply texts (characters): the "not found" reply, the intro before quotes, the clarification,
 * and the handoff messages.
 */
export const BOT_REPLY_LIMITS = {
  notFound: 1000,
  intro: 300,
  clarify: 300,
  handoffWaiting: 500,
  handoffJoined: 500,
  handoffLeft: 500,
  handoffClosed: 500,
  handoffTimeout: 500,
} as const;
/** The bot's own texts an operator may set, per language. */
export const BOT_REPLY_FIELDS = Object.keys(BOT_REPLY_LIMITS) as Array<keyof typeof BOT_REPLY_LIMITS>;
/** The texts of the handoff messages that name the person (`{name}`, filled when said). */
export const BOT_REPLY_NAMED: ReadonlyArray<keyof typeof BOT_REPLY_LIMITS> = ['handoffJoined', 'handoffLeft'];
/** Most languages a bot sets its own texts for beside its default one. */
export const BOT_REPLY_MAX_LOCALES = 20;

const replyText = (field: keyof typeof BOT_REPLY_LIMITS) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: BOT_REPLY_LIMITS[field] }));

const BOT_REPLY_TEXTS = {
  notFound: replyText('notFound'),
  intro: replyText('intro'),
  clarify: replyText('clarify'),
  handoffWaiting: replyText('handoffWaiting'),
  handoffJoined: replyText('handoffJoined'),
  handoffLeft: replyText('handoffLeft'),
  handoffClosed: replyText('handoffClosed'),
  handoffTimeout: replyText('handoffTimeout'),
};

/**
 * The bot's own words in one language (Markdown for the knowledge answers' texts; links and images only to
 * http(s), mailto: and tel: addresses): `notFound`, the reply when its knowledge holds nothing relevant (e.g.
 * with a contact line or link); `intro`, the line before the quotes of an answer; `clarify`, the question before
 * the choices when it is unsure which topic is meant; the handoff messages (plain text): `handoffWaiting` (a
 * person was asked for), `handoffJoined` and `handoffLeft` (`{name}` is the person's name), `handoffClosed`
 * (asked for outside the opening hours) and `handoffTimeout` (nobody came; both above the e-mail form). A text
 * left out is the language's built-in one.
 */
export const BotReplyTexts = Type.Object(BOT_REPLY_TEXTS, { additionalProperties: false });
/** The bot's own texts in one language. */
export type BotReplyTexts = Static<typeof BotReplyTexts>;

/**
 * The bot's own words: the texts of its default language (`language`, a BCP-47 tag of a shipped language,
 * `en` when absent) at the top level, as before languages, and other languages' texts under `locales`
 * (`{"fr": {...}, "fr-CA": {...}}`). A reply is in the question's language: its texts by the chain
 * `fr-CA → fr`, else that language's built-in words; in a language without built-in words, the default
 * language's.
 */
export const BotReplies = Type.Object(
  {
    ...BOT_REPLY_TEXTS,
    language: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: 35,
        description:
          'The language of the top-level texts and of replies to questions of no known language (BCP-47 tag of a shipped language; default en)',
      }),
    ),
    locales: Type.Optional(
      Type.Record(Type.String({ minLength: 2, maxLength: 35 }), BotReplyTexts, {
        description:
          'The texts of other languages, by BCP-47 tag of a shipped language (e.g. fr, fr-CA, de), each like the top-level ones',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "The bot's own reply texts (Markdown, links to http(s)/mailto/tel only): notFound, intro (before quotes), clarify (the question before choices), handoffWaiting, handoffJoined and handoffLeft ({name}: the person), handoffClosed, handoffTimeout; a text left out is the language's default. language: the default language of these texts (default en); locales: other languages' texts by tag. On update the object replaces the bot's whole set",
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
