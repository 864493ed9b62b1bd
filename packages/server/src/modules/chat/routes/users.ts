import { ChatUserFields, ChatUserResponse, CreateChatUserResponse, Empty } from '@parley/protocol';
import { CHAT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import { operations } from '../../../http/operation.js';
import { empty, foundOrCreated } from '../../../http/route-helpers.js';
import { BotParams, type ChatRouteContext, chatCredentials, defaults } from './common.js';

/**
 * Largest body of the user creations, which anyone may call: the fields with their user data (at most
 * 128 KB as JSON) and room for the escapes and spaces a client may send.
 */
export const CHAT_USER_BODY_LIMIT = 256 * 1024;

/** Chat users: created (anonymous or verified identity), read, updated and deleted by themselves. */
export function userRoutes(app: FastifyInstance, { chat }: ChatRouteContext): void {
  const op = operations(app, defaults);

  op(
    CHAT_OPERATIONS.createUser,
    {
      bodyLimit: CHAT_USER_BODY_LIMIT,
      description: 'Creates an anonymous chat user; answers it with its key (send it as x-user-key).',
      params: BotParams,
      body: ChatUserFields,
      status: 201,
      response: CreateChatUserResponse,
    },
    async (req) => {
      const result = await chat.createUser(req.params.botId, req.body);
      req.parley.botId = req.params.botId;
      return result;
    },
  );

  op(
    CHAT_OPERATIONS.getOrCreateUser,
    {
      // The user key is verified by the operation itself: the user it names may not exist yet.
      bodyLimit: CHAT_USER_BODY_LIMIT,
      security: [{ userKey: [] }],
      description:
        "Verified identity: x-user-key is a key your backend signed for its own user id with the bot's chat user key secret; the user is created on first use (201), found after (200). Fields apply on creation only.",
      params: BotParams,
      body: ChatUserFields,
      status: [200, 201],
      response: ChatUserResponse,
    },
    async (req, reply) => {
      const { userKey, adminKey } = chatCredentials(req);
      const answer = await chat.getOrCreateUser(req.params.botId, userKey, req.body, adminKey);
      req.parley.botId = req.params.botId;
      return foundOrCreated(reply, answer);
    },
  );

  op(
    CHAT_OPERATIONS.getUser,
    {
      description: 'The caller.',
      params: BotParams,
      response: ChatUserResponse,
    },
    async (req) => ({ user: await chat.getUser(req.chatCaller) }),
  );

  op(
    CHAT_OPERATIONS.updateUser,
    {
      description: 'Updates the caller (null clears a field).',
      params: BotParams,
      body: ChatUserFields,
      response: ChatUserResponse,
    },
    async (req) => ({ user: await chat.updateUser(req.chatCaller, req.body) }),
  );

  op(
    CHAT_OPERATIONS.deleteUser,
    {
      description:
        'Deletes the caller with its messages, events and participations, and the conversations it created that nobody else is in.',
      params: BotParams,
      response: Empty,
    },
    async (req) => empty(chat.deleteUser(req.chatCaller)),
  );
}
