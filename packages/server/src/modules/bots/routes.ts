import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  Bot,
  BotWebchatResponse,
  CreateBotBody,
  CreatedToken,
  CreateTokenBody,
  Empty,
  ListBotsQuery,
  ListBotsResponse,
  TokenInfo,
  UpdateBotBody,
  WebchatConfiguration,
} from '@parley/protocol';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import Type from 'typebox';
import type { Actor } from '../../access/principal.js';
import { type AuthResolver, requireWorkspaceActor } from '../../http/context.js';
import { BEARER, pageBody, responses } from '../../http/route-helpers.js';
import { parseTagFilter } from '../../http/tag-filter.js';
import type { BotsService } from './service.js';

const BotParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const KeyParam = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  keyId: Type.String({ minLength: 1, maxLength: 100 }),
});

/**
 * Marks the bot a request concerns (its `:id`), once the caller is known to see it, so the bot's request log
 * gets the line. Runs before validation (so rejected payloads are logged too) and never fails the request
 * itself: a caller that cannot be resolved is simply not attributed, and the authentication hook answers its
 * 401 after validation as usual.
 */
export async function markBot(
  req: FastifyRequest,
  bots: Pick<BotsService, 'exists'>,
  auth: AuthResolver,
): Promise<void> {
  const id = (req.params as { id?: string }).id;
  if (!id) return;
  let actor: Actor;
  try {
    actor = await requireWorkspaceActor(req, auth);
  } catch {
    return;
  }
  if (await bots.exists(actor.workspaceId, id)) req.parley.botId = id;
}

/**
 * The `preValidation` hook of a route about one bot (`/bots/:id/…`) whose requests go to that bot's log.
 * @example app.get('/bots/:id/things', { preValidation: botMarker(bots, auth), schema }, handler)
 */
export function botMarker(
  bots: Pick<BotsService, 'exists'>,
  auth: AuthResolver,
): preValidationAsyncHookHandler {
  return (req) => markBot(req, bots, auth);
}

/** Bots, their access keys and their webchat configuration. */
export function botRoutes(fastify: FastifyInstance, deps: { bots: BotsService; auth: AuthResolver }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { bots } = deps;
  const toBotLog = botMarker(bots, deps.auth);

  app.get(
    '/bots',
    {
      schema: {
        operationId: 'admin.listBots',
        tags: ['bots'],
        security: BEARER,
        querystring: ListBotsQuery,
        response: responses(200, ListBotsResponse),
      },
    },
    async (req) => {
      const q = req.query;
      const page = await bots.list(req.actor, {
        nextToken: q.nextToken,
        pageSize: q.pageSize,
        dev: q.dev,
        name: q.name,
        tags: parseTagFilter(q as Record<string, unknown>),
        sortField: q.sortField,
        sortDirection: q.sortDirection,
      });
      return pageBody('bots', page);
    },
  );

  app.post(
    '/bots',
    {
      schema: {
        operationId: 'admin.createBot',
        tags: ['bots'],
        security: BEARER,
        body: CreateBotBody,
        response: responses(201, Type.Object({ bot: Bot })),
      },
    },
    async (req, reply) => reply.status(201).send({ bot: await bots.create(req.actor, req.body ?? {}) }),
  );

  app.get(
    '/bots/:id',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.getBot',
        tags: ['bots'],
        security: BEARER,
        params: BotParam,
        response: responses(200, Type.Object({ bot: Bot })),
      },
    },
    async (req) => ({
      bot: await bots.get(req.actor, req.params.id),
    }),
  );

  app.put(
    '/bots/:id',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.updateBot',
        tags: ['bots'],
        security: BEARER,
        params: BotParam,
        body: UpdateBotBody,
        response: responses(200, Type.Object({ bot: Bot })),
      },
    },
    async (req) => ({
      bot: await bots.update(req.actor, req.params.id, req.body),
    }),
  );

  app.delete(
    '/bots/:id',
    {
      schema: {
        operationId: 'admin.deleteBot',
        tags: ['bots'],
        security: BEARER,
        params: BotParam,
        response: responses(200, Empty),
      },
    },
    async (req) => {
      await bots.delete(req.actor, req.params.id);
      return {};
    },
  );

  app.get(
    '/bots/:id/access-keys',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.listBotAccessKeys',
        tags: ['bots'],
        security: BEARER,
        params: BotParam,
        response: responses(200, Type.Object({ keys: Type.Array(TokenInfo) })),
      },
    },
    async (req) => ({
      keys: await bots.listKeys(req.actor, req.params.id),
    }),
  );

  app.post(
    '/bots/:id/access-keys',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.createBotAccessKey',
        tags: ['bots'],
        security: BEARER,
        params: BotParam,
        body: CreateTokenBody,
        response: responses(201, Type.Object({ key: CreatedToken })),
      },
    },
    async (req, reply) =>
      reply.status(201).send({ key: await bots.createKey(req.actor, req.params.id, req.body ?? {}) }),
  );

  app.delete(
    '/bots/:id/access-keys/:keyId',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.revokeBotAccessKey',
        tags: ['bots'],
        security: BEARER,
        params: KeyParam,
        response: responses(200, Empty),
      },
    },
    async (req) => {
      await bots.revokeKey(req.actor, req.params.id, req.params.keyId);
      return {};
    },
  );

  app.get(
    '/bots/:id/webchat',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.getBotWebchat',
        tags: ['bots'],
        security: BEARER,
        params: BotParam,
        response: responses(200, BotWebchatResponse),
      },
    },
    async (req) => ({
      configuration: await bots.getWebchat(req.actor, req.params.id),
    }),
  );

  app.put(
    '/bots/:id/webchat',
    {
      preValidation: toBotLog,
      schema: {
        operationId: 'admin.updateBotWebchat',
        tags: ['bots'],
        security: BEARER,
        description:
          'Replaces the dashboard webchat configuration; every field is checked against the spec table and each bad one named.',
        params: BotParam,
        body: Type.Object(
          { configuration: Type.Unknown({ description: 'Webchat configuration object' }) },
          { required: ['configuration'] },
        ),
        response: responses(200, Type.Object({ configuration: WebchatConfiguration })),
      },
    },
    async (req) => ({
      configuration: await bots.putWebchat(req.actor, req.params.id, req.body.configuration),
    }),
  );
}
