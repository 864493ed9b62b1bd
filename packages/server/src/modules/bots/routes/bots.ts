import { Bot, CreateBotBody, Empty, ListBotsQuery, ListBotsResponse, UpdateBotBody } from '@parley/protocol';
import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ADMIN_SECURITY, operations } from '../../../http/operation.js';
import { empty, pageBody } from '../../../http/route-helpers.js';
import { parseTagFilter } from '../../../http/tag-filter.js';
import { BotParam, type BotRouteDeps } from './common.js';

const BotAnswer = Type.Object({ bot: Bot });

/** Bots of the caller's workspace: listed, created, read, updated and deleted. */
export function botCrudRoutes(app: FastifyInstance, { bots, toBotLog }: BotRouteDeps): void {
  const op = operations(app, { tags: ['bots'], security: ADMIN_SECURITY });

  op(BOT_OPERATIONS.listBots, { query: ListBotsQuery, response: ListBotsResponse }, async (req) => {
    const { nextToken, pageSize, dev, name, sortField, sortDirection } = req.query;
    const query = {
      nextToken,
      pageSize,
      dev,
      name,
      sortField,
      sortDirection,
      tags: parseTagFilter(req.query),
    };
    return pageBody('bots', await bots.list(req.actor, query));
  });

  op(BOT_OPERATIONS.createBot, { body: CreateBotBody, status: 201, response: BotAnswer }, async (req) => ({
    bot: await bots.create(req.actor, req.body ?? {}),
  }));

  op(
    BOT_OPERATIONS.getBot,
    { params: BotParam, response: BotAnswer, preValidation: toBotLog },
    async (req) => ({ bot: await bots.get(req.actor, req.params.id) }),
  );

  op(
    BOT_OPERATIONS.updateBot,
    {
      params: BotParam,
      body: UpdateBotBody,
      response: BotAnswer,
      preValidation: toBotLog,
    },
    async (req) => ({ bot: await bots.update(req.actor, req.params.id, req.body) }),
  );

  op(BOT_OPERATIONS.deleteBot, { params: BotParam, response: Empty }, async (req) =>
    empty(bots.delete(req.actor, req.params.id)),
  );
}
