import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AddParticipantBody, Empty, ListParticipantsResponse, ParticipantResponse } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import { listBody, responses } from '../../../http/route-helpers.js';
import { type ChatRouteContext, IdParams, PageQuery, ParticipantParams, schema } from './common.js';

/** Participants of a conversation: listed, added, read and removed. */
export function participantRoutes(fastify: FastifyInstance, { chat }: ChatRouteContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/:botId/conversations/:id/participants',
    {
      schema: schema('chat.listParticipants', 'Participants of a conversation, in the order they joined.', {
        params: IdParams,
        querystring: PageQuery,
        response: responses(200, ListParticipantsResponse),
      }),
    },
    async (req) =>
      listBody('participants', await chat.listParticipants(req.chatCaller, req.params.id, req.query)) as {
        participants: never[];
        meta: object;
      },
  );

  app.post(
    '/:botId/conversations/:id/participants',
    {
      schema: schema('chat.addParticipant', 'Adds a user of the bot to the conversation.', {
        params: IdParams,
        body: AddParticipantBody,
        response: responses(201, ParticipantResponse),
      }),
    },
    async (req, reply) =>
      reply
        .status(201)
        .send({ participant: await chat.addParticipant(req.chatCaller, req.params.id, req.body.userId) }),
  );

  app.get(
    '/:botId/conversations/:id/participants/:userId',
    {
      schema: schema('chat.getParticipant', 'One participant of the conversation.', {
        params: ParticipantParams,
        response: responses(200, ParticipantResponse),
      }),
    },
    async (req) => ({
      participant: await chat.getParticipant(req.chatCaller, req.params.id, req.params.userId),
    }),
  );

  app.delete(
    '/:botId/conversations/:id/participants/:userId',
    {
      schema: schema(
        'chat.removeParticipant',
        'Removes a participant: oneself, or anyone for the conversation creator and the bot.',
        { params: ParticipantParams, response: responses(200, Empty) },
      ),
    },
    async (req) => {
      await chat.removeParticipant(req.chatCaller, req.params.id, req.params.userId);
      return {};
    },
  );
}
