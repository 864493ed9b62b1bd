import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ADMIN_KEY_HEADER,
  AddParticipantBody,
  BotChatSecretsResponse,
  ChatFileResponse,
  ChatUserFields,
  ChatUserResponse,
  ConversationResponse,
  CreateChatFileBody,
  CreateChatUserResponse,
  CreateConversationBody,
  CreateEventBody,
  CreateMessageBody,
  Empty,
  EventResponse,
  ListConversationsResponse,
  ListMessagesResponse,
  ListParticipantsResponse,
  MessageFeedback,
  MessageResponse,
  ParticipantResponse,
  USER_KEY_HEADER,
} from '@parley/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { errors } from '../../errors/errors.js';
import { type AuthResolver, requireWorkspaceActor } from '../../http/context.js';
import { BEARER, listBody, responses } from '../../http/route-helpers.js';
import type { SignalBus } from './bus.js';
import type { ChatCaller, ChatService } from './contract.js';
import type { SourceLinks } from './reply-port.js';
import { type StreamRegistry, serveStream } from './stream.js';

const tags = ['chat'];
const USER_KEY = [{ userKey: [] }, { bearerAuth: [] }];
const BotParams = Type.Object({ botId: Type.String({ minLength: 1, maxLength: 100 }) });
const Id = Type.String({ minLength: 1, maxLength: 200 });
const IdParams = Type.Object({ botId: BotParams.properties.botId, id: Id });
const ParticipantParams = Type.Object({ botId: BotParams.properties.botId, id: Id, userId: Id });
const SourceParams = Type.Object({
  botId: BotParams.properties.botId,
  id: Id,
  n: Type.Integer({ minimum: 0 }),
});
const PageQuery = Type.Object({
  nextToken: Type.Optional(Type.String()),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
const ListenQuery = Type.Object({ lastEventId: Type.Optional(Type.String({ maxLength: 30 })) });

/** Headers every Chat API answer carries: the webchat runs on other origins and authenticates by header. */
export const CHAT_CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': `authorization, content-type, ${USER_KEY_HEADER}, ${ADMIN_KEY_HEADER}, last-event-id`,
  'access-control-expose-headers':
    'x-request-id, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset',
  'access-control-max-age': '600',
};

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The Chat API (`/v1/chat/{botId}`): what the webchat and a site's backend talk to. Authenticate with
 * `x-user-key` (a chat user) or `Authorization: Bearer <bot access key>` (the bot itself); `x-admin-key`
 * adds the webchat adminKey's enhanced permissions.
 */
export function chatRoutes(
  fastify: FastifyInstance,
  deps: {
    chat: ChatService;
    bus: SignalBus;
    pingIntervalMs: number;
    streams: StreamRegistry;
    sources: SourceLinks;
  },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { chat } = deps;

  app.addHook('onRequest', async (req, reply) => {
    reply.headers(CHAT_CORS_HEADERS);
    if (req.method === 'OPTIONS') return reply.status(204).send();
  });
  // Preflight requests answer before routing: any path under the prefix.
  app.options('/*', { schema: { hide: true } }, async (_req, reply) => reply.status(204).send());

  const caller = async (req: FastifyRequest): Promise<ChatCaller> => {
    const c = await chat.authenticate((req.params as { botId: string }).botId, {
      authorization: header(req, 'authorization'),
      userKey: header(req, USER_KEY_HEADER),
      adminKey: header(req, ADMIN_KEY_HEADER),
    });
    req.parley.botId = c.bot.id;
    return c;
  };
  const schema = <S extends object>(operationId: string, description: string, extra: S) => ({
    operationId,
    tags,
    security: USER_KEY,
    description,
    ...extra,
  });

  app.post(
    '/:botId/users',
    {
      schema: {
        operationId: 'chat.createUser',
        tags,
        description: 'Creates an anonymous chat user; answers it with its key (send it as x-user-key).',
        params: BotParams,
        body: ChatUserFields,
        response: responses(201, CreateChatUserResponse),
      },
    },
    async (req, reply) => {
      const result = await chat.createUser(req.params.botId, req.body);
      req.parley.botId = req.params.botId;
      return reply.status(201).send(result);
    },
  );

  app.post(
    '/:botId/users/get-or-create',
    {
      schema: {
        operationId: 'chat.getOrCreateUser',
        tags,
        security: [{ userKey: [] }],
        description:
          "Verified identity: x-user-key is a key your backend signed for its own user id with the bot's chat user key secret; the user is created on first use (201), found after (200). Fields apply on creation only.",
        params: BotParams,
        body: ChatUserFields,
        response: { ...responses(200, ChatUserResponse), 201: ChatUserResponse },
      },
    },
    async (req, reply) => {
      const { user, created } = await chat.getOrCreateUser(
        req.params.botId,
        header(req, USER_KEY_HEADER),
        req.body,
        header(req, ADMIN_KEY_HEADER),
      );
      req.parley.botId = req.params.botId;
      return reply.status((created ? 201 : 200) as 201).send({ user });
    },
  );

  app.get(
    '/:botId/users/me',
    {
      schema: schema('chat.getUser', 'The caller.', {
        params: BotParams,
        response: responses(200, ChatUserResponse),
      }),
    },
    async (req) => ({ user: await chat.getUser(await caller(req)) }),
  );

  app.put(
    '/:botId/users/me',
    {
      schema: schema('chat.updateUser', 'Updates the caller (null clears a field).', {
        params: BotParams,
        body: ChatUserFields,
        response: responses(200, ChatUserResponse),
      }),
    },
    async (req) => ({ user: await chat.updateUser(await caller(req), req.body) }),
  );

  app.delete(
    '/:botId/users/me',
    {
      schema: schema(
        'chat.deleteUser',
        'Deletes the caller with its messages, events and participations, and the conversations it created that nobody else is in.',
        { params: BotParams, response: responses(200, Empty) },
      ),
    },
    async (req) => {
      await chat.deleteUser(await caller(req));
      return {};
    },
  );

  app.post(
    '/:botId/conversations',
    {
      schema: schema('chat.createConversation', 'Creates a conversation with the caller as participant.', {
        params: BotParams,
        body: CreateConversationBody,
        response: responses(201, ConversationResponse),
      }),
    },
    async (req, reply) =>
      reply.status(201).send({ conversation: await chat.createConversation(await caller(req), req.body) }),
  );

  app.post(
    '/:botId/conversations/get-or-create',
    {
      schema: schema(
        'chat.getOrCreateConversation',
        'The conversation with this id if the caller takes part in it (200), else a new one (201).',
        {
          params: BotParams,
          body: CreateConversationBody,
          response: { ...responses(200, ConversationResponse), 201: ConversationResponse },
        },
      ),
    },
    async (req, reply) => {
      const { conversation, created } = await chat.getOrCreateConversation(await caller(req), req.body);
      return reply.status((created ? 201 : 200) as 201).send({ conversation });
    },
  );

  app.get(
    '/:botId/conversations',
    {
      schema: schema(
        'chat.listConversations',
        "The caller's conversations, most recently active first (the bot and adminKey sessions: all of the bot's).",
        { params: BotParams, querystring: PageQuery, response: responses(200, ListConversationsResponse) },
      ),
    },
    async (req) =>
      listBody('conversations', await chat.listConversations(await caller(req), req.query)) as {
        conversations: never[];
        meta: object;
      },
  );

  app.get(
    '/:botId/conversations/:id',
    {
      schema: schema('chat.getConversation', 'A conversation the caller takes part in.', {
        params: IdParams,
        response: responses(200, ConversationResponse),
      }),
    },
    async (req) => ({ conversation: await chat.getConversation(await caller(req), req.params.id) }),
  );

  app.delete(
    '/:botId/conversations/:id',
    {
      schema: schema(
        'chat.deleteConversation',
        'Deletes a conversation with its messages, events and participants.',
        {
          params: IdParams,
          response: responses(200, Empty),
        },
      ),
    },
    async (req) => {
      await chat.deleteConversation(await caller(req), req.params.id);
      return {};
    },
  );

  app.get(
    '/:botId/conversations/:id/messages',
    {
      schema: schema('chat.listMessages', 'Messages of a conversation, newest first.', {
        params: IdParams,
        querystring: PageQuery,
        response: responses(200, ListMessagesResponse),
      }),
    },
    async (req) =>
      listBody('messages', await chat.listMessages(await caller(req), req.params.id, req.query)) as {
        messages: never[];
        meta: object;
      },
  );

  app.get(
    '/:botId/conversations/:id/listen',
    {
      schema: schema(
        'chat.listenConversation',
        'Live stream of the conversation (Server-Sent Events). Frames: `id: <cursor>`, `event: message`, `data: {"type", "data"}`; a ping every 30 s. Reconnect with Last-Event-ID (or ?lastEventId=) to receive every signal after it, in order.',
        { params: IdParams, querystring: ListenQuery },
      ),
    },
    async (req, reply) => {
      const c = await caller(req);
      const raw = header(req, 'last-event-id') ?? req.query.lastEventId;
      let after: number | undefined;
      if (raw !== undefined && raw.trim() !== '') {
        if (!/^\d{1,15}$/.test(raw.trim()))
          throw errors.invalidQuery(
            'Last-Event-ID must be the id of a frame this stream sent (a whole number)',
            [{ field: 'lastEventId', message: 'not a stream cursor' }],
          );
        after = Number(raw.trim());
      }
      const release = deps.streams.admit(c);
      let start: number;
      try {
        start = await chat.openStream(c, req.params.id, after);
      } catch (error) {
        release();
        throw error;
      }
      reply.hijack();
      await serveStream({
        res: reply.raw,
        headers: { ...CHAT_CORS_HEADERS, 'x-request-id': req.id },
        chat,
        bus: deps.bus,
        caller: c,
        conversationId: req.params.id,
        after: start,
        pingMs: deps.pingIntervalMs,
        registry: deps.streams,
        release,
        reauthenticate: () => caller(req),
        onError: (error) => req.log.warn({ err: error }, 'chat stream read failed'),
      });
    },
  );

  app.get(
    '/:botId/conversations/:id/participants',
    {
      schema: schema('chat.listParticipants', 'Participants of a conversation, in the order they joined.', {
        params: IdParams,
        querystring: PageQuery,
        response: responses(200, ListParticipantsResponse),
      }),
    },
    async (req) =>
      listBody('participants', await chat.listParticipants(await caller(req), req.params.id, req.query)) as {
        participants: never[];
        meta: object;
      },
  );

  app.post(
    '/:botId/conversations/:id/participants',
    {
      schema: schema('chat.addParticipant', 'Adds a user of the bot to the conversation.', {
        params: IdParams,
        body: AddParticipantBody,
        response: responses(201, ParticipantResponse),
      }),
    },
    async (req, reply) =>
      reply
        .status(201)
        .send({ participant: await chat.addParticipant(await caller(req), req.params.id, req.body.userId) }),
  );

  app.get(
    '/:botId/conversations/:id/participants/:userId',
    {
      schema: schema('chat.getParticipant', 'One participant of the conversation.', {
        params: ParticipantParams,
        response: responses(200, ParticipantResponse),
      }),
    },
    async (req) => ({
      participant: await chat.getParticipant(await caller(req), req.params.id, req.params.userId),
    }),
  );

  app.delete(
    '/:botId/conversations/:id/participants/:userId',
    {
      schema: schema(
        'chat.removeParticipant',
        'Removes a participant: oneself, or anyone for the conversation creator and the bot.',
        { params: ParticipantParams, response: responses(200, Empty) },
      ),
    },
    async (req) => {
      await chat.removeParticipant(await caller(req), req.params.id, req.params.userId);
      return {};
    },
  );

  app.post(
    '/:botId/messages',
    {
      schema: schema('chat.createMessage', 'Posts a message (payload at most 128 KB as JSON).', {
        params: BotParams,
        body: CreateMessageBody,
        response: responses(201, MessageResponse),
      }),
    },
    async (req, reply) =>
      reply.status(201).send({ message: await chat.createMessage(await caller(req), req.body) }),
  );

  app.get(
    '/:botId/messages/:id',
    {
      schema: schema('chat.getMessage', 'A message of a conversation the caller may read.', {
        params: IdParams,
        response: responses(200, MessageResponse),
      }),
    },
    async (req) => ({ message: await chat.getMessage(await caller(req), req.params.id) }),
  );

  app.delete(
    '/:botId/messages/:id',
    {
      schema: schema('chat.deleteMessage', 'Deletes a message (its author or the bot).', {
        params: IdParams,
        response: responses(200, Empty),
      }),
    },
    async (req) => {
      await chat.deleteMessage(await caller(req), req.params.id);
      return {};
    },
  );

  app.put(
    '/:botId/messages/:id/feedback',
    {
      schema: schema(
        'chat.setMessageFeedback',
        "Feedback on a bot message (only when the bot's webchat configuration has feedbackEnabled).",
        { params: IdParams, body: MessageFeedback, response: responses(200, MessageResponse) },
      ),
    },
    async (req) => ({ message: await chat.setFeedback(await caller(req), req.params.id, req.body) }),
  );

  app.get(
    '/:botId/messages/:id/sources/:n',
    {
      schema: {
        operationId: 'chat.openMessageSource',
        tags,
        security: [],
        description:
          "Opens source n (its index in metadata.sources) of a bot's answer: no credentials, it is the link the answer carries. 302 to a freshly signed download URL (the permanent URL of a public_content file) while the file exists, is readable by the bot and, when the bot has knowledge bases, is linked to one of them; 404 otherwise.",
        params: SourceParams,
        response: { 302: Type.Null({ description: 'Location: the download URL' }) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const url = await deps.sources.open(req.params.botId, req.params.id, req.params.n);
      req.parley.botId = req.params.botId;
      return reply.redirect(url, 302);
    },
  );

  app.post(
    '/:botId/events',
    {
      schema: schema('chat.createEvent', 'Sends a custom event into a conversation.', {
        params: BotParams,
        body: CreateEventBody,
        response: responses(201, EventResponse),
      }),
    },
    async (req, reply) =>
      reply.status(201).send({ event: await chat.createEvent(await caller(req), req.body) }),
  );

  app.get(
    '/:botId/events/:id',
    {
      schema: schema('chat.getEvent', 'An event of a conversation the caller may read.', {
        params: IdParams,
        response: responses(200, EventResponse),
      }),
    },
    async (req) => ({ event: await chat.getEvent(await caller(req), req.params.id) }),
  );

  app.post(
    '/:botId/files',
    {
      schema: schema(
        'chat.createFile',
        "Starts a chat file upload (only when the bot's webchat configuration has allowFileUpload): PUT the bytes to uploadUrl, then send a file or image message with url.",
        { params: BotParams, body: CreateChatFileBody, response: responses(201, ChatFileResponse) },
      ),
    },
    async (req, reply) =>
      reply.status(201).send({ file: await chat.createFile(await caller(req), req.body) }),
  );
}

/** Admin API routes of the Chat API: a bot's chat secrets. */
export function chatAdminRoutes(fastify: FastifyInstance, deps: { chat: ChatService; auth: AuthResolver }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
  app.get(
    '/bots/:id/chat',
    {
      schema: {
        operationId: 'admin.getBotChat',
        tags: ['bots'],
        security: BEARER,
        description:
          "The bot's Chat API secrets: userKeySecret signs chat user keys (HS256, verified identity), webhookSecret signs webhook requests.",
        params,
        response: responses(200, BotChatSecretsResponse),
      },
    },
    async (req) => ({
      chat: await deps.chat.getSecrets(await requireWorkspaceActor(req, deps.auth), req.params.id),
    }),
  );
  app.post(
    '/bots/:id/chat/rotate-secrets',
    {
      schema: {
        operationId: 'admin.rotateBotChatSecrets',
        tags: ['bots'],
        security: BEARER,
        description: 'Replaces both chat secrets: every user key signed with the old one stops working.',
        params,
        response: responses(200, BotChatSecretsResponse),
      },
    },
    async (req) => ({
      chat: await deps.chat.rotateSecrets(await requireWorkspaceActor(req, deps.auth), req.params.id),
    }),
  );
}
