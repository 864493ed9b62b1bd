import Type, { type Static } from 'typebox';
import { ListMeta, Timestamp } from './common.js';

/**
 * Chat API (API-COMPAT.md "Chat API"): what the webchat and a site's backend talk to.
 *
 * Root: `{base}/v1/chat/{botId}`. A chat user authenticates with `x-user-key` (an HS256 JWT whose
 * payload is `{id: <userId>}`, signed with the bot's chat secret). The bot itself may call the same
 * routes with `Authorization: Bearer <bot access key>` (webhook mode replies). Create ops answer 201.
 */

/** Largest message or event payload, JSON-encoded (API-COMPAT.md: 128 KB). */
export const MAX_CHAT_PAYLOAD_BYTES = 128 * 1024;
/** Largest Chat API request body (spec Limits: 1 MB). */
export const MAX_CHAT_BODY_BYTES = 1024 * 1024;
/** Seconds between pings on a live stream (API-COMPAT.md: 30 s). */
export const CHAT_PING_INTERVAL_S = 30;
/** Header carrying the chat user's key. */
export const USER_KEY_HEADER = 'x-user-key';
/** Header carrying the webchat adminKey (enhanced permissions, checked on the server). */
export const ADMIN_KEY_HEADER = 'x-admin-key';

/** An absolute http(s) URL: what the webchat may put into `src` and `href` (never `javascript:` or `data:`). */
const Url = Type.String({
  minLength: 1,
  maxLength: 4096,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$',
  description: 'an absolute http(s) URL',
});
/** A link a person may follow: an http(s) URL, or a mailto: or tel: link. */
const Link = Type.String({
  minLength: 1,
  maxLength: 2000,
  pattern: '^([Hh][Tt][Tt][Pp][Ss]?://|[Mm][Aa][Ii][Ll][Tt][Oo]:|[Tt][Ee][Ll]:)[^\\s]+$',
  description: 'an http(s), mailto: or tel: link',
});
const Str = (max: number) => Type.String({ maxLength: max });

/** A chat user (spec "Webchat user"). `id`, `createdAt`, `updatedAt` are server-generated and read-only. */
export const ChatUser = Type.Object(
  {
    id: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    name: Type.Optional(Type.String()),
    pictureUrl: Type.Optional(Type.String()),
    data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    userKey: Type.Optional(Type.String()),
  },
  { $id: 'ChatUser' },
);
/** Chat user type. */
export type ChatUser = Static<typeof ChatUser>;

/** Writable fields of a chat user (createUser, updateUser). `null` clears a field. */
export const ChatUserFields = Type.Object(
  {
    name: Type.Optional(Type.Union([Str(200), Type.Null()])),
    pictureUrl: Type.Optional(Type.Union([Url, Type.Null()])),
    data: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
    userKey: Type.Optional(Type.Union([Str(500), Type.Null()])),
  },
  { additionalProperties: false },
);
/** Writable user fields type. */
export type ChatUserFields = Static<typeof ChatUserFields>;

/** Answer of createUser: the user and its key (send it as `x-user-key`). */
export const CreateChatUserResponse = Type.Object({ user: ChatUser, key: Type.String() });
/** createUser answer type. */
export type CreateChatUserResponse = Static<typeof CreateChatUserResponse>;
/** `{user}` envelope. */
export const ChatUserResponse = Type.Object({ user: ChatUser });
/** `{user}` envelope type. */
export type ChatUserResponse = Static<typeof ChatUserResponse>;

const CardAction = Type.Union([
  Type.Object({ action: Type.Literal('url'), label: Str(200), value: Link }),
  Type.Object({
    action: Type.Union([Type.Literal('postback'), Type.Literal('say')]),
    label: Str(200),
    value: Str(2000),
  }),
]);
const Card = Type.Object({
  title: Str(500),
  subtitle: Type.Optional(Str(2000)),
  imageUrl: Type.Optional(Url),
  actions: Type.Array(CardAction, { maxItems: 20 }),
});
const ChoiceOption = Type.Object({ label: Str(200), value: Str(2000) });
const typed = <T extends string, P extends Record<string, Type.TSchema>>(type: T, props: P) =>
  Type.Object({ type: Type.Literal(type), ...props });

const TextPayload = typed('text', { text: Type.String({ minLength: 1 }), value: Type.Optional(Str(2000)) });
const MarkdownPayload = typed('markdown', { markdown: Type.String({ minLength: 1 }) });
const ImagePayload = typed('image', { imageUrl: Url });
const AudioPayload = typed('audio', { audioUrl: Url });
const VideoPayload = typed('video', { videoUrl: Url });
const FilePayload = typed('file', { fileUrl: Url, title: Type.Optional(Str(500)) });
const LocationPayload = typed('location', {
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
  address: Type.Optional(Str(1000)),
  title: Type.Optional(Str(500)),
});
const CardPayload = typed('card', Card.properties);
const CarouselPayload = typed('carousel', { items: Type.Array(Card, { minItems: 1, maxItems: 20 }) });
const ChoicePayload = typed('choice', {
  text: Type.String(),
  options: Type.Array(ChoiceOption, { maxItems: 50 }),
});
const DropdownPayload = typed('dropdown', {
  text: Type.String(),
  options: Type.Array(ChoiceOption, { maxItems: 500 }),
});
/** The payloads a bloc may hold: the simple ones, each a message payload of its own as well. */
const BLOC_ITEM_PAYLOADS = [
  TextPayload,
  MarkdownPayload,
  ImagePayload,
  AudioPayload,
  VideoPayload,
  FilePayload,
  LocationPayload,
] as const;
const BlocItem = Type.Union([...BLOC_ITEM_PAYLOADS]);
const BlocPayload = typed('bloc', { items: Type.Array(BlocItem, { minItems: 1, maxItems: 50 }) });

/** Message payload types (API-COMPAT.md). */
export const MESSAGE_TYPES = [
  'text',
  'markdown',
  'image',
  'audio',
  'video',
  'file',
  'location',
  'card',
  'carousel',
  'choice',
  'dropdown',
  'bloc',
] as const;
/** A message payload, by `type`. At most {@link MAX_CHAT_PAYLOAD_BYTES} as JSON. */
export const MessagePayload = Type.Union(
  [...BLOC_ITEM_PAYLOADS, CardPayload, CarouselPayload, ChoicePayload, DropdownPayload, BlocPayload],
  { $id: 'MessagePayload' },
);
/** Message payload type. */
export type MessagePayload = Static<typeof MessagePayload>;

/** Feedback a user gives on a bot message. */
export const MessageFeedback = Type.Object({
  value: Type.Union([Type.Literal('positive'), Type.Literal('negative')]),
  comment: Type.Optional(Str(2000)),
});
/** Message feedback type. */
export type MessageFeedback = Static<typeof MessageFeedback>;

/** What a message and an event both carry: their id and time, their conversation and the user who sent them. */
const SentInConversation = {
  id: Type.String(),
  createdAt: Timestamp,
  conversationId: Type.String(),
  userId: Type.String(),
};

/** A message in a conversation. `isBot` tells the bot's messages from users'. */
export const ChatMessage = Type.Object(
  {
    ...SentInConversation,
    isBot: Type.Boolean(),
    payload: MessagePayload,
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    feedback: Type.Optional(MessageFeedback),
  },
  { $id: 'ChatMessage' },
);
/** Message type. */
export type ChatMessage = Static<typeof ChatMessage>;

/**
 * Who answers a conversation (human handoff): `bot` (the bot, the default), `pending` (the visitor waits for
 * a person; the bot is silent), `assigned` (a person of the workspace answers; the bot is silent) or
 * `resolved` (a person finished; the bot answers again).
 */
export const HandoffState = Type.Union(
  [Type.Literal('bot'), Type.Literal('pending'), Type.Literal('assigned'), Type.Literal('resolved')],
  {
    description:
      'bot | pending (waiting for a person) | assigned (a person answers) | resolved (back to the bot)',
  },
);
/** Handoff state type. */
export type HandoffState = Static<typeof HandoffState>;

/** What the visitor's side knows of a conversation's owner (Chat API: the conversation and the live signal). */
export const VisitorHandoff = Type.Object({
  state: HandoffState,
  /** The name of the person answering (state assigned). */
  agentName: Type.Optional(Type.String()),
});
/** Visitor-side handoff type. */
export type VisitorHandoff = Static<typeof VisitorHandoff>;

/** A conversation; `handoff`: who answers it (Parley), absent while the bot does and no person ever did. */
export const ChatConversation = Type.Object(
  { id: Type.String(), createdAt: Timestamp, updatedAt: Timestamp, handoff: Type.Optional(VisitorHandoff) },
  { $id: 'ChatConversation' },
);
/** Conversation type. */
export type ChatConversation = Static<typeof ChatConversation>;

/** A custom event sent into a conversation (sendEvent). */
export const ChatEvent = Type.Object(
  {
    ...SentInConversation,
    payload: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'ChatEvent' },
);
/** Event type. */
export type ChatEvent = Static<typeof ChatEvent>;

/** Body of createConversation / getOrCreateConversation. `id` lets a client choose its own id (get-or-create). */
export const CreateConversationBody = Type.Object(
  { id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_\\-]+$' })) },
  { additionalProperties: false },
);
/** `{conversation}` envelope. */
export const ConversationResponse = Type.Object({ conversation: ChatConversation });
/** `{conversations, meta}` page. */
export const ListConversationsResponse = Type.Object({
  conversations: Type.Array(ChatConversation),
  meta: ListMeta,
});
/** Body of createMessage. */
export const CreateMessageBody = Type.Object(
  {
    conversationId: Type.String({ minLength: 1 }),
    payload: MessagePayload,
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);
/** createMessage body type. */
export type CreateMessageBody = Static<typeof CreateMessageBody>;
/** `{message}` envelope. */
export const MessageResponse = Type.Object({ message: ChatMessage });
/** `{messages, meta}` page, newest first. */
export const ListMessagesResponse = Type.Object({ messages: Type.Array(ChatMessage), meta: ListMeta });
/** Body of createEvent. */
export const CreateEventBody = Type.Object(
  { conversationId: Type.String({ minLength: 1 }), payload: Type.Record(Type.String(), Type.Unknown()) },
  { additionalProperties: false },
);
/** createEvent body type. */
export type CreateEventBody = Static<typeof CreateEventBody>;
/** `{event}` envelope. */
export const EventResponse = Type.Object({ event: ChatEvent });
/** Body of addParticipant. */
export const AddParticipantBody = Type.Object({ userId: Type.String({ minLength: 1 }) });
/** `{participants, meta}` page. */
export const ListParticipantsResponse = Type.Object({
  participants: Type.Array(ChatUser),
  meta: ListMeta,
});
/** `{participant}` envelope. */
export const ParticipantResponse = Type.Object({ participant: ChatUser });

/** Body of a chat file upload: the Files API upsert, narrowed; the answer's `uploadUrl` takes the bytes. */
export const CreateChatFileBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    size: Type.Integer({ minimum: 0 }),
    contentType: Type.Optional(Type.String({ maxLength: 255 })),
    conversationId: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false },
);
/** createChatFile body type. */
export type CreateChatFileBody = Static<typeof CreateChatFileBody>;
/** Answer of a chat file upload: PUT the bytes to `uploadUrl`, then send a `file` (or `image`) message with `url`. */
export const ChatFileResponse = Type.Object({
  file: Type.Object({
    id: Type.String(),
    key: Type.String(),
    size: Type.Integer(),
    contentType: Type.String(),
    uploadUrl: Type.String(),
    url: Type.String({ description: 'Permanent URL of the content once uploaded' }),
  }),
});
/** Chat file answer type. */
export type ChatFileResponse = Static<typeof ChatFileResponse>;

/** Who types in a conversation (`typing_started`, `typing_stopped`). */
export interface TypingSignalData {
  conversationId: string;
  userId: string;
  isBot: boolean;
  /** Parley: the name of the person of the workspace typing (human handoff); absent for the bot. */
  name?: string;
}

/**
 * Signals on the live stream (`GET /conversations/{id}/listen`, SSE). Each frame is
 * `id: <cursor>` `event: message` `data: {"type": …, "data": …}`; reconnect with `Last-Event-ID`
 * (or `?lastEventId=`) to resume without losing a signal. A `ping` comes every 30 s. The server ends a
 * stream after `conversation_deleted`, and after `participant_removed` naming the listening user.
 */
export type ChatSignal =
  | { type: 'message_created'; data: ChatMessage }
  | { type: 'message_deleted'; data: { id: string; conversationId: string } }
  | { type: 'message_updated'; data: ChatMessage }
  | { type: 'event_created'; data: ChatEvent }
  | { type: 'participant_added'; data: { conversationId: string; participantId: string } }
  | { type: 'participant_removed'; data: { conversationId: string; participantId: string } }
  | { type: 'conversation_deleted'; data: { conversationId: string } }
  /** Parley: who answers the conversation changed (human handoff). */
  | { type: 'handoff_changed'; data: { conversationId: string } & VisitorHandoff }
  | { type: 'typing_started'; data: TypingSignalData }
  | { type: 'typing_stopped'; data: TypingSignalData }
  | { type: 'message_stream_delta'; data: { id: string; conversationId: string; delta: string } }
  | { type: 'message_stream_complete'; data: { id: string; conversationId: string } }
  | { type: 'message_stream_abort'; data: { id: string; conversationId: string; reason: string } }
  | {
      type: 'debug';
      /** `messageId`: the user's message answered; `replyId`: the bot's reply these details explain. */
      data: { conversationId: string; messageId?: string; replyId?: string; [key: string]: unknown };
    }
  | { type: 'ping'; data: Record<string, never> };
/** Signal type names. */
export type ChatSignalType = ChatSignal['type'];

/**
 * What Parley POSTs to a webhook-mode bot's URL for each conversation event, signed with
 * `x-parley-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the bot's webhook secret>`.
 */
export interface ChatWebhookEvent {
  id: string;
  type:
    | 'message_created'
    | 'event_created'
    | 'conversation_created'
    | 'user_created'
    | 'conversation.handoff_requested';
  createdAt: string;
  botId: string;
  conversationId?: string;
  userId?: string;
  message?: ChatMessage;
  event?: ChatEvent;
  /** `conversation.handoff_requested`: the visitor waits for a person since `waitingSince`. */
  handoff?: { state: HandoffState; waitingSince: string };
}

/** Answer of the Admin API's getBotChat and rotateBotChatSecrets: the bot's Chat API secrets. */
export const BotChatSecretsResponse = Type.Object({
  chat: Type.Object({
    userKeySecret: Type.String({ description: 'Signs chat user keys (HS256) for verified identity' }),
    webhookSecret: Type.String({ description: 'Signs webhook requests (x-parley-signature)' }),
  }),
});
/** Chat secrets answer type. */
export type BotChatSecretsResponse = Static<typeof BotChatSecretsResponse>;
