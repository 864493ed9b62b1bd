import { Readable } from 'node:stream';
import { ConversationExportQuery } from '@parley/protocol';
import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance, FastifyReply } from 'fastify';
import Type from 'typebox';
import { ADMIN_SECURITY, operations } from '../../../http/operation.js';
import { IdParam } from '../../../http/route-helpers.js';
import type { ChatService, ConversationExport } from '../contract.js';
import { ConversationParams } from './inbox.js';

/** The export's answer as OpenAPI shows it: JSON or CSV text, streamed. */
const EXPORTED = {
  200: Type.String({
    description:
      'application/json ({botId, from?, to?, conversations: [{id, createdAt, updatedAt, handoff, messages}]}) or text/csv (conversation_id, conversation_created_at, message_id, created_at, author, user_name, answer, text), streamed, with a Content-Disposition file name',
  }),
};

/** Streams an export, named for saving. */
function send(reply: FastifyReply, exported: ConversationExport) {
  return reply
    .header('content-type', exported.contentType)
    .header('content-disposition', `attachment; filename="${exported.filename}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(exported.body));
}

/**
 * Admin API exports of a bot's conversations (`conversation.read`): those created in a period, or one, as
 * JSON or CSV, streamed as they are read.
 */
export function exportRoutes(app: FastifyInstance, { chat }: { chat: ChatService }) {
  const op = operations(app, { tags: ['bots'], security: ADMIN_SECURITY });
  op(
    BOT_OPERATIONS.exportBotConversations,
    {
      description:
        "The bot's conversations created from `from` (included) to `to` (excluded; both ISO 8601, both optional) with their messages, oldest first, as JSON or CSV (`format`), streamed.",
      params: IdParam,
      query: ConversationExportQuery,
      responses: EXPORTED,
    },
    async (req, reply) => send(reply, await chat.exportConversations(req.actor, req.params.id, req.query)),
  );
  op(
    BOT_OPERATIONS.exportBotConversation,
    {
      description: 'One conversation with its messages as JSON or CSV (`format`), streamed.',
      params: ConversationParams,
      query: Type.Object({ format: ConversationExportQuery.properties.format }),
      responses: EXPORTED,
    },
    async (req, reply) =>
      send(
        reply,
        await chat.exportConversations(req.actor, req.params.id, req.query, req.params.conversationId),
      ),
  );
}
