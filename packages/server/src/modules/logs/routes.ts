import { LogEntry, PageQuery, Timestamp } from '@parley/protocol';
import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ADMIN_SECURITY, operations } from '../../http/operation.js';
import { IdParam, pageBody, pageOf } from '../../http/route-helpers.js';
import type { LogsService } from './service.js';

/** A bot's request log. */
export function logRoutes(app: FastifyInstance, deps: { logs: LogsService }) {
  const op = operations(app, { tags: ['bots'], security: ADMIN_SECURITY });
  op(
    BOT_OPERATIONS.getBotLogs,
    {
      description: "The bot's structured request log, newest first, kept PARLEY_LOG_RETENTION_DAYS days.",
      params: IdParam,
      query: Type.Object({
        ...PageQuery,
        timeStart: Type.Optional(Timestamp),
        timeEnd: Type.Optional(Timestamp),
        level: Type.Optional(Type.Union([Type.Literal('info'), Type.Literal('warn'), Type.Literal('error')])),
      }),
      response: pageOf('logs', LogEntry),
    },
    async (req) => pageBody('logs', await deps.logs.list(req.actor, req.params.id, req.query)),
  );
}
