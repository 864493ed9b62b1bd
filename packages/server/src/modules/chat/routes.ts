import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BotChatSecretsResponse } from '@parley/protocol';
import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import { installOpenCors } from '../../http/cors.js';
import { ADMIN_SECURITY, operations } from '../../http/operation.js';
import { IdParam } from '../../http/route-helpers.js';
import type { SignalBus } from './bus.js';
import type { ChatService } from './contract.js';
import type { DeskStreams } from './desk-stream.js';
import type { SourceLinks } from './reply-port.js';
import { installChatAuth } from './routes/common.js';
import { conversationRoutes } from './routes/conversations.js';
import { deskLiveRoute } from './routes/desk-live.js';
import { eventRoutes } from './routes/events.js';
import { exportRoutes } from './routes/export.js';
import { fileRoutes } from './routes/files.js';
import { inboxRoutes } from './routes/inbox.js';
import { listenRoute } from './routes/listen.js';
import { conversationMessagesRoute, messageRoutes } from './routes/messages.js';
import { noteRoutes } from './routes/notes.js';
import { participantRoutes } from './routes/participants.js';
import { userRoutes } from './routes/users.js';
import type { StreamRegistry } from './stream.js';

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

  // Any origin, any path under the prefix: the webchat runs on customers' sites and authenticates by header.
  installOpenCors(app, 'chat', { preflightPaths: ['/*'] });

  const routes = installChatAuth(app, chat);
  // Registered in this order, so the OpenAPI document lists the operations as it always has.
  userRoutes(app, routes);
  conversationRoutes(app, routes);
  conversationMessagesRoute(app, routes);
  listenRoute(app, routes, deps);
  participantRoutes(app, routes);
  messageRoutes(app, routes, deps);
  eventRoutes(app, routes);
  fileRoutes(app, routes);
}

/**
 * Admin API routes of the Chat API: a bot's chat secrets, its conversations inbox (routes/inbox.ts) and the
 * inbox desk's live stream (routes/desk-live.ts).
 */
export function chatAdminRoutes(
  app: FastifyInstance,
  deps: { chat: ChatService; bus: SignalBus; pingIntervalMs: number; desk: DeskStreams },
) {
  const { chat } = deps;
  const op = operations(app, { tags: ['bots'], security: ADMIN_SECURITY });
  op(
    BOT_OPERATIONS.getBotChat,
    {
      description:
        "The bot's Chat API secrets: userKeySecret signs chat user keys (HS256, verified identity), webhookSecret signs webhook requests.",
      params: IdParam,
      response: BotChatSecretsResponse,
    },
    async (req) => ({ chat: await chat.getSecrets(req.actor, req.params.id) }),
  );
  op(
    BOT_OPERATIONS.rotateBotChatSecrets,
    {
      description: 'Replaces both chat secrets: every user key signed with the old one stops working.',
      params: IdParam,
      response: BotChatSecretsResponse,
    },
    async (req) => ({ chat: await chat.rotateSecrets(req.actor, req.params.id) }),
  );
  exportRoutes(app, { chat });
  inboxRoutes(app, { chat });
  noteRoutes(app, { chat });
  deskLiveRoute(app, { ...deps, streams: deps.desk });
}
