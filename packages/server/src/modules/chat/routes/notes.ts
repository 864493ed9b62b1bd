import {
  ConversationNoteResponse,
  ConversationNotesResponse,
  CreateConversationNoteBody,
} from '@parley/protocol';
import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import { ADMIN_SECURITY, operations } from '../../../http/operation.js';
import type { ChatService } from '../contract.js';
import { ConversationParams } from './inbox.js';

/**
 * Admin API routes of the inbox desk's internal notes beside a conversation: read by every role that reads
 * conversations, written by those that answer them. No Chat API route reads them: the visitor never does.
 */
export function noteRoutes(app: FastifyInstance, { chat }: { chat: ChatService }) {
  const op = operations(app, { tags: ['bots'], security: ADMIN_SECURITY });
  op(
    BOT_OPERATIONS.listConversationNotes,
    {
      description:
        "The conversation's internal notes, oldest first (the 500 latest): what the workspace's people wrote beside it, each with its author. The visitor never sees them.",
      params: ConversationParams,
      response: ConversationNotesResponse,
    },
    async (req) => ({ notes: await chat.listNotes(req.actor, req.params.id, req.params.conversationId) }),
  );
  op(
    BOT_OPERATIONS.createConversationNote,
    {
      description:
        'Writes an internal note beside the conversation, under your name (roles that answer conversations): for the other people of the workspace, never sent to the visitor, the webchat or a webhook.',
      params: ConversationParams,
      body: CreateConversationNoteBody,
      status: 201,
      response: ConversationNoteResponse,
    },
    async (req) => ({
      note: await chat.createNote(req.actor, req.params.id, req.params.conversationId, req.body),
    }),
  );
}
