import { AddParticipantBody, Empty, ListParticipantsResponse, ParticipantResponse } from '@parley/protocol';
import { CHAT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import { operations } from '../../../http/operation.js';
import { empty, pageBody } from '../../../http/route-helpers.js';
import { type ChatRouteContext, defaults, IdParams, PageQuery, ParticipantParams } from './common.js';

/** Participants of a conversation: listed, added, read and removed. */
export function participantRoutes(app: FastifyInstance, { chat }: ChatRouteContext): void {
  const op = operations(app, defaults);

  op(
    CHAT_OPERATIONS.listParticipants,
    {
      description: 'Participants of a conversation, in the order they joined.',
      params: IdParams,
      query: PageQuery,
      response: ListParticipantsResponse,
    },
    async (req) =>
      pageBody('participants', await chat.listParticipants(req.chatCaller, req.params.id, req.query)),
  );

  op(
    CHAT_OPERATIONS.addParticipant,
    {
      description: 'Adds a user of the bot to the conversation.',
      params: IdParams,
      body: AddParticipantBody,
      status: 201,
      response: ParticipantResponse,
    },
    async (req) => ({
      participant: await chat.addParticipant(req.chatCaller, req.params.id, req.body.userId),
    }),
  );

  op(
    CHAT_OPERATIONS.getParticipant,
    {
      description: 'One participant of the conversation.',
      params: ParticipantParams,
      response: ParticipantResponse,
    },
    async (req) => ({
      participant: await chat.getParticipant(req.chatCaller, req.params.id, req.params.userId),
    }),
  );

  op(
    CHAT_OPERATIONS.removeParticipant,
    {
      description: 'Removes a participant: oneself, or anyone for the conversation creator and the bot.',
      params: ParticipantParams,
      response: Empty,
    },
    async (req) => empty(chat.removeParticipant(req.chatCaller, req.params.id, req.params.userId)),
  );
}
