import {
  CreateMessageBody,
  Empty,
  ListMessagesResponse,
  MessageFeedback,
  MessageResponse,
} from '@parley/protocol';
import { CHAT_LINK_OPERATIONS, CHAT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { operations } from '../../../http/operation.js';
import { empty, pageBody } from '../../../http/route-helpers.js';
import type { SourceLinks } from '../reply-port.js';
import { BotParams, type ChatRouteContext, defaults, Id, IdParams, PageQuery } from './common.js';

const SourceParams = Type.Object({
  botId: BotParams.properties.botId,
  id: Id,
  n: Type.Integer({ minimum: 0 }),
});

/** The messages of a conversation, newest first (`GET /conversations/{id}/messages`). */
export function conversationMessagesRoute(app: FastifyInstance, { chat }: ChatRouteContext): void {
  operations(app, defaults)(
    CHAT_OPERATIONS.listMessages,
    {
      description: 'Messages of a conversation, newest first.',
      params: IdParams,
      query: PageQuery,
      response: ListMessagesResponse,
    },
    async (req) => pageBody('messages', await chat.listMessages(req.chatCaller, req.params.id, req.query)),
  );
}

/** Messages: posted, read, deleted, given feedback; and the source links of the bot's answers. */
export function messageRoutes(
  app: FastifyInstance,
  { chat }: ChatRouteContext,
  deps: { sources: SourceLinks },
): void {
  const op = operations(app, defaults);

  op(
    CHAT_OPERATIONS.createMessage,
    {
      description: 'Posts a message (payload at most 128 KB as JSON).',
      params: BotParams,
      body: CreateMessageBody,
      status: 201,
      response: MessageResponse,
    },
    async (req) => ({ message: await chat.createMessage(req.chatCaller, req.body) }),
  );

  op(
    CHAT_OPERATIONS.getMessage,
    {
      description: 'A message of a conversation the caller may read.',
      params: IdParams,
      response: MessageResponse,
    },
    async (req) => ({ message: await chat.getMessage(req.chatCaller, req.params.id) }),
  );

  op(
    CHAT_OPERATIONS.deleteMessage,
    {
      description: 'Deletes a message (its author or the bot).',
      params: IdParams,
      response: Empty,
    },
    async (req) => empty(chat.deleteMessage(req.chatCaller, req.params.id)),
  );

  op(
    CHAT_OPERATIONS.setMessageFeedback,
    {
      description:
        "Feedback on a bot message (only when the bot's webchat configuration has feedbackEnabled).",
      params: IdParams,
      body: MessageFeedback,
      response: MessageResponse,
    },
    async (req) => ({ message: await chat.setFeedback(req.chatCaller, req.params.id, req.body) }),
  );

  op(
    CHAT_LINK_OPERATIONS.openMessageSource,
    {
      // The link an answer carries: it opens without credentials (a visitor's browser follows it).
      security: [],
      description:
        "Opens source n (its index in metadata.sources) of a bot's answer: no credentials, it is the link the answer carries. As the bot's current sourceLinks setting allows (public: the metadata sourceUrl, else the permanent URL of a public_content file; all: a freshly signed download URL; none: nothing), 302 to that URL while the file exists, is readable by the bot and, when the bot has knowledge bases, is linked to one of them; 404 otherwise.",
      params: SourceParams,
      responses: { 302: Type.Null({ description: 'Location: the download URL' }) },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const url = await deps.sources.open(req.params.botId, req.params.id, req.params.n);
      req.parley.botId = req.params.botId;
      return reply.redirect(url, 302);
    },
  );
}
