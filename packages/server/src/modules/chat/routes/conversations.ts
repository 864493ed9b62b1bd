import {
  ConversationResponse,
  CreateConversationBody,
  Empty,
  ListConversationsResponse,
} from '@parley/protocol';
import { CHAT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import { operations } from '../../../http/operation.js';
import { empty, foundOrCreated, pageBody } from '../../../http/route-helpers.js';
import { BotParams, type ChatRouteContext, defaults, IdParams, PageQuery } from './common.js';

/** Conversations: created, found or created, listed, read and deleted. */
export function conversationRoutes(app: FastifyInstance, { chat }: ChatRouteContext): void {
  const op = operations(app, defaults);

  op(
    CHAT_OPERATIONS.createConversation,
    {
      description: 'Creates a conversation with the caller as participant.',
      params: BotParams,
      body: CreateConversationBody,
      status: 201,
      response: ConversationResponse,
    },
    async (req) => ({ conversation: await chat.createConversation(req.chatCaller, req.body) }),
  );

  op(
    CHAT_OPERATIONS.getOrCreateConversation,
    {
      description:
        'The conversation with this id if the caller takes part in it (200), else a new one (201).',
      params: BotParams,
      body: CreateConversationBody,
      status: [200, 201],
      response: ConversationResponse,
    },
    async (req, reply) => foundOrCreated(reply, await chat.getOrCreateConversation(req.chatCaller, req.body)),
  );

  op(
    CHAT_OPERATIONS.listConversations,
    {
      description:
        "The caller's conversations, most recently active first (the bot and adminKey sessions: all of the bot's).",
      params: BotParams,
      query: PageQuery,
      response: ListConversationsResponse,
    },
    async (req) => pageBody('conversations', await chat.listConversations(req.chatCaller, req.query)),
  );

  op(
    CHAT_OPERATIONS.getConversation,
    {
      description: 'A conversation the caller takes part in.',
      params: IdParams,
      response: ConversationResponse,
    },
    async (req) => ({ conversation: await chat.getConversation(req.chatCaller, req.params.id) }),
  );

  op(
    CHAT_OPERATIONS.deleteConversation,
    {
      description: 'Deletes a conversation with its messages, events and participants.',
      params: IdParams,
      response: Empty,
    },
    async (req) => empty(chat.deleteConversation(req.chatCaller, req.params.id)),
  );
}
