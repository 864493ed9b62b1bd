import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Bot, CreateBotBody, Empty, ListBotsQuery, ListBotsResponse, UpdateBotBody } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, pageBody, responses } from '../../../http/route-helpers.js';
import { parseTagFilter } from '../../../http/tag-filter.js';
import { BotParam, type BotRouteDeps } from './common.js';

/** Bots of the caller's workspace: listed, created, read, updated and deleted. */
export function botCrudRoutes(fastify: FastifyInstance, { bots, toBotLog }: BotRouteDeps): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

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
}
