import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ListMeta, LogEntry, PageQuery, Timestamp } from '@parley/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { BEARER, listBody, responses } from '../../http/route-helpers.js';
import type { LogsService } from './service.js';

/** A bot's request log. */
export function logRoutes(fastify: FastifyInstance, deps: { logs: LogsService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/bots/:id/logs',
    {
      schema: {
        operationId: 'admin.getBotLogs',
        tags: ['bots'],
        security: BEARER,
        description: "The bot's structured request log, newest first, kept PARLEY_LOG_RETENTION_DAYS days.",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: Type.Object({
          ...PageQuery,
          timeStart: Type.Optional(Timestamp),
          timeEnd: Type.Optional(Timestamp),
          level: Type.Optional(
            Type.Union([Type.Literal('info'), Type.Literal('warn'), Type.Literal('error')]),
          ),
        }),
        response: responses(200, Type.Object({ logs: Type.Array(LogEntry), meta: ListMeta })),
      },
    },
    async (req: FastifyRequest<{ Params: { id: string }; Querystring: Record<string, never> }>) => {
      const q = req.query as {
        nextToken?: string;
        pageSize?: number;
        timeStart?: string;
        timeEnd?: string;
        level?: string;
      };
      return listBody('logs', await deps.logs.list(req.actor, req.params.id, q));
    },
  );
}
