import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CreateEventBody, EventResponse } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../http/route-helpers.js';
import { BotParams, type ChatRouteContext, IdParams, schema } from './common.js';

/** Custom events of conversations: sent and read. */
export function eventRoutes(fastify: FastifyInstance, { chat }: ChatRouteContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/:botId/events',
    {
      schema: schema('chat.createEvent', 'Sends a custom event into a conversation.', {
        params: BotParams,
        body: CreateEventBody,
        response: responses(201, EventResponse),
      }),
    },
    async (req, reply) => reply.status(201).send({ event: await chat.createEvent(req.chatCaller, req.body) }),
  );

  app.get(
    '/:botId/events/:id',
    {
      schema: schema('chat.getEvent', 'An event of a conversation the caller may read.', {
        params: IdParams,
        response: responses(200, EventResponse),
      }),
    },
    async (req) => ({ event: await chat.getEvent(req.chatCaller, req.params.id) }),
  );
}
