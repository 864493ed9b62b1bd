import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  CreateMessageBody,
  Empty,
  ListMessagesResponse,
  MessageFeedback,
  MessageResponse,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { listBody, responses } from '../../../http/route-helpers.js';
import type { SourceLinks } from '../reply-port.js';
import { BotParams, type ChatRouteContext, Id, IdParams, PageQuery, schema, tags } from './common.js';

const SourceParams = Type.Object({
  botId: BotParams.properties.botId,
  id: Id,
  n: Type.Integer({ minimum: 0 }),
});

/** The messages of a conversation, newest first (`GET /conversations/{id}/messages`). */
export function conversationMessagesRoute(fastify: FastifyInstance, { chat }: ChatRouteContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/:botId/conversations/:id/messages',
    {
      schema: schema('chat.listMessages', 'Messages of a conversation, newest first.', {
        params: IdParams,
        querystring: PageQuery,
        response: responses(200, ListMessagesResponse),
      }),
    },
    async (req) =>
      listBody('messages', await chat.listMessages(req.chatCaller, req.params.id, req.query)) as {
        messages: never[];
        meta: object;
      },
  );
}

/** Messages: posted, read, deleted, given feedback; and the source links of the bot's answers. */
export function messageRoutes(
  fastify: FastifyInstance,
  { chat }: ChatRouteContext,
  deps: { sources: SourceLinks },
): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/:botId/messages',
    {
      schema: schema('chat.createMessage', 'Posts a message (payload at most 128 KB as JSON).', {
        params: BotParams,
        body: CreateMessageBody,
        response: responses(201, MessageResponse),
      }),
    },
    async (req, reply) =>
      reply.status(201).send({ message: await chat.createMessage(req.chatCaller, req.body) }),
  );

  app.get(
    '/:botId/messages/:id',
    {
      schema: schema('chat.getMessage', 'A message of a conversation the caller may read.', {
        params: IdParams,
        response: responses(200, MessageResponse),
      }),
    },
    async (req) => ({ message: await chat.getMessage(req.chatCaller, req.params.id) }),
  );

  app.delete(
    '/:botId/messages/:id',
    {
      schema: schema('chat.deleteMessage', 'Deletes a message (its author or the bot).', {
        params: IdParams,
        response: responses(200, Empty),
      }),
    },
    async (req) => {
      await chat.deleteMessage(req.chatCaller, req.params.id);
      return {};
    },
  );

  app.put(
    '/:botId/messages/:id/feedback',
    {
      schema: schema(
        'chat.setMessageFeedback',
        "Feedback on a bot message (only when the bot's webchat configuration has feedbackEnabled).",
        { params: IdParams, body: MessageFeedback, response: responses(200, MessageResponse) },
      ),
    },
    async (req) => ({ message: await chat.setFeedback(req.chatCaller, req.params.id, req.body) }),
  );

  app.get(
    '/:botId/messages/:id/sources/:n',
    {
      // The link an answer carries: it opens without credentials (a visitor's browser follows it).
      config: { auth: 'none' },
      schema: {
        operationId: 'chat.openMessageSource',
        tags,
        security: [],
        description:
          "Opens source n (its index in metadata.sources) of a bot's answer: no credentials, it is the link the answer carries. 302 to a freshly signed download URL (the permanent URL of a public_content file) while the file exists, is readable by the bot and, when the bot has knowledge bases, is linked to one of them; 404 otherwise.",
        params: SourceParams,
        response: { 302: Type.Null({ description: 'Location: the download URL' }) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const url = await deps.sources.open(req.params.botId, req.params.id, req.params.n);
      req.parley.botId = req.params.botId;
      return reply.redirect(url, 302);
    },
  );
}
