import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ConversationResponse,
  CreateConversationBody,
  Empty,
  ListConversationsResponse,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import { listBody, responses } from '../../../http/route-helpers.js';
import { BotParams, type ChatRouteContext, IdParams, PageQuery, schema } from './common.js';

/** Conversations: created, found or created, listed, read and deleted. */
export function conversationRoutes(fastify: FastifyInstance, { chat }: ChatRouteContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/:botId/conversations',
    {
      schema: schema('chat.createConversation', 'Creates a conversation with the caller as participant.', {
        params: BotParams,
        body: CreateConversationBody,
        response: responses(201, ConversationResponse),
      }),
    },
    async (req, reply) =>
      reply.status(201).send({ conversation: await chat.createConversation(req.chatCaller, req.body) }),
  );

  app.post(
    '/:botId/conversations/get-or-create',
    {
      schema: schema(
        'chat.getOrCreateConversation',
        'The conversation with this id if the caller takes part in it (200), else a new one (201).',
        {
          params: BotParams,
          body: CreateConversationBody,
          response: { ...responses(200, ConversationResponse), 201: ConversationResponse },
        },
      ),
    },
    async (req, reply) => {
      const { conversation, created } = await chat.getOrCreateConversation(req.chatCaller, req.body);
      return reply.status((created ? 201 : 200) as 201).send({ conversation });
    },
  );

  app.get(
    '/:botId/conversations',
    {
      schema: schema(
        'chat.listConversations',
        "The caller's conversations, most recently active first (the bot and adminKey sessions: all of the bot's).",
        { params: BotParams, querystring: PageQuery, response: responses(200, ListConversationsResponse) },
      ),
    },
    async (req) =>
      listBody('conversations', await chat.listConversations(req.chatCaller, req.query)) as {
        conversations: never[];
        meta: object;
      },
  );

  app.get(
    '/:botId/conversations/:id',
    {
      schema: schema('chat.getConversation', 'A conversation the caller takes part in.', {
        params: IdParams,
        response: responses(200, ConversationResponse),
      }),
    },
    async (req) => ({ conversation: await chat.getConversation(req.chatCaller, req.params.id) }),
  );

  app.delete(
    '/:botId/conversations/:id',
    {
      schema: schema(
        'chat.deleteConversation',
        'Deletes a conversation with its messages, events and participants.',
        {
          params: IdParams,
          response: responses(200, Empty),
        },
      ),
    },
    async (req) => {
      await chat.deleteConversation(req.chatCaller, req.params.id);
      return {};
    },
  );
}
