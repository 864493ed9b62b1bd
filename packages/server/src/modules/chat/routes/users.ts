import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ChatUserFields, ChatUserResponse, CreateChatUserResponse, Empty } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../http/route-helpers.js';
import { BotParams, type ChatRouteContext, chatCredentials, schema, tags } from './common.js';

/** Chat users: created (anonymous or verified identity), read, updated and deleted by themselves. */
export function userRoutes(fastify: FastifyInstance, { chat }: ChatRouteContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/:botId/users',
    {
      config: { auth: 'none' },
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
      // The user key is verified by the operation itself: the user it names may not exist yet.
      config: { auth: 'none' },
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
      const { userKey, adminKey } = chatCredentials(req);
      const { user, created } = await chat.getOrCreateUser(req.params.botId, userKey, req.body, adminKey);
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
    async (req) => ({ user: await chat.getUser(req.chatCaller) }),
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
    async (req) => ({ user: await chat.updateUser(req.chatCaller, req.body) }),
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
      await chat.deleteUser(req.chatCaller);
      return {};
    },
  );
}
