import { CreateEventBody, EventResponse } from '@parley/protocol';
import { CHAT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import { operations } from '../../../http/operation.js';
import { BotParams, type ChatRouteContext, defaults, IdParams } from './common.js';

/** Custom events of conversations: sent and read. */
export function eventRoutes(app: FastifyInstance, { chat }: ChatRouteContext): void {
  const op = operations(app, defaults);

  op(
    CHAT_OPERATIONS.createEvent,
    {
      description: 'Sends a custom event into a conversation.',
      params: BotParams,
      body: CreateEventBody,
      status: 201,
      response: EventResponse,
    },
    async (req) => ({ event: await chat.createEvent(req.chatCaller, req.body) }),
  );

  op(
    CHAT_OPERATIONS.getEvent,
    {
      description: 'An event of a conversation the caller may read.',
      params: IdParams,
      response: EventResponse,
    },
    async (req) => ({ event: await chat.getEvent(req.chatCaller, req.params.id) }),
  );
}
