import { ADMIN_KEY_HEADER, USER_KEY_HEADER } from '@parley/protocol';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { ChatCaller, ChatService } from '../contract.js';

/** Headers every Chat API answer carries: the webchat runs on other origins and authenticates by header. */
export const CHAT_CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': `authorization, content-type, ${USER_KEY_HEADER}, ${ADMIN_KEY_HEADER}, last-event-id`,
  'access-control-expose-headers':
    'x-request-id, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset',
  'access-control-max-age': '600',
};

/** OpenAPI tags of the Chat API's operations. */
export const tags = ['chat'];
/** Security of the Chat API's authenticated operations: a chat user's key or the bot's access key. */
export const USER_KEY = [{ userKey: [] }, { bearerAuth: [] }];
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

/** What the Chat API's routes are built from: the service, and the caller of a request. */
export interface ChatRouteContext {
  chat: ChatService;
  /** Authenticates the request's caller (and names its bot in the request's log). */
  caller: (req: FastifyRequest) => Promise<ChatCaller>;
}

/** One value of a request header (the first when repeated). */
export function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The schema of an authenticated Chat API operation: its id, tags, security and description, then `extra`. */
export const schema = <S extends object>(operationId: string, description: string, extra: S) => ({
  operationId,
  tags,
  security: USER_KEY,
  description,
  ...extra,
});
