import { ADMIN_KEY_HEADER, USER_KEY_HEADER } from '@parley/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { header } from '../../../http/headers.js';
import type { OperationDefaults } from '../../../http/operation.js';
import { installSurfaceCaller } from '../../../http/surface-caller.js';
import type { ChatCaller, ChatCredentials, ChatService } from '../contract.js';

/** Security of the Chat API's authenticated operations: a chat user's key or the bot's access key. */
export const USER_KEY = [{ userKey: [] }, { bearerAuth: [] }];
/**
 * What the Chat API's operations share: their tag, and the security of the authenticated ones (an operation
 * with `auth: 'none'` declares its own, if any).
 */
export const defaults: OperationDefaults = { tags: ['chat'], security: { default: USER_KEY } };
/** Path parameters of a Chat API root. */
export const BotParams = Type.Object({ botId: Type.String({ minLength: 1, maxLength: 100 }) });
/** An id in a Chat API path. */
export const Id = Type.String({ minLength: 1, maxLength: 200 });
/** Path parameters of one resource of a bot. */
export const IdParams = Type.Object({ botId: BotParams.properties.botId, id: Id });
/** Path parameters of one participant of a conversation. */
export const ParticipantParams = Type.Object({ botId: BotParams.properties.botId, id: Id, userId: Id });
/** Query of the Chat API lists. */
export const PageQuery = Type.Object({
  nextToken: Type.Optional(Type.String()),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});

/** What the Chat API's routes are built from: the service, and how a request's caller is authenticated. */
export interface ChatRouteContext {
  chat: ChatService;
  /** Authenticates the request's caller again (a live stream re-checks its credentials on revocation). */
  authenticate: (req: FastifyRequest) => Promise<ChatCaller>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of a Chat API route, put there by the surface's hook (see installChatAuth). */
    readonly chatCaller: ChatCaller;
  }
}

/** The credentials a Chat API request carries: a bot access key, a chat user's key, the webchat adminKey. */
export function chatCredentials(req: FastifyRequest): ChatCredentials {
  return {
    authorization: header(req, 'authorization'),
    userKey: header(req, USER_KEY_HEADER),
    adminKey: header(req, ADMIN_KEY_HEADER),
  };
}

/**
 * The authentication of the Chat API surface: unless a route says `config: { auth: 'none' }` (creating a chat
 * user), the caller is authenticated from its credentials against the path's bot, put on the request as
 * `chatCaller`, and its bot named in the bot's request log. Install once on the surface.
 */
export function installChatAuth(app: FastifyInstance, chat: ChatService): ChatRouteContext {
  const authenticate = async (req: FastifyRequest): Promise<ChatCaller> => {
    const caller = await chat.authenticate((req.params as { botId: string }).botId, chatCredentials(req));
    req.parley.botId = caller.bot.id;
    return caller;
  };
  installSurfaceCaller(app, 'chatCaller', authenticate);
  return { chat, authenticate };
}
