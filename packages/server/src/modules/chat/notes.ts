import type { ConversationNote } from '@parley/protocol';
import type { Selectable } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { ConversationNotesTable } from '../../db/tables/chat.js';
import { newId } from '../../ids.js';
import { type ChatContext, checkWorkspaceConversation } from './context.js';
import type { ChatService } from './contract.js';
import { agentOf } from './handoff.js';

/** The most notes a conversation lists (the latest ones, oldest first). */
const MAX_NOTES = 500;

/** A note row on the wire. */
function toNote(row: Selectable<ConversationNotesTable>): ConversationNote {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    author: { accountId: row.author_id, name: row.author_name },
    text: row.text,
    createdAt: row.created_at,
  };
}

/**
 * The inbox desk's internal notes (Admin API): what the workspace's people write beside a conversation for
 * each other. Read with `conversation.read`, written with `conversation.handoff`; kept in their own table,
 * which no Chat API route reads, so a visitor never sees them (nor a webhook, nor the webchat). A new note
 * wakes the desk's live streams of its bot (routes/desk-live.ts), not as a stored signal.
 */
export function chatNotes(
  ctx: Pick<ChatContext, 'db' | 'bots' | 'now' | 'members' | 'bus'>,
): Pick<ChatService, 'listNotes' | 'createNote'> {
  const { db } = ctx;

  return {
    async listNotes(actor, botId, conversationId) {
      authorize(actor, 'conversation.read');
      await checkWorkspaceConversation(ctx, actor, botId, conversationId);
      const rows = await db
        .selectFrom('conversation_notes')
        .selectAll()
        .where('bot_id', '=', botId)
        .where('conversation_id', '=', conversationId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(MAX_NOTES)
        .execute();
      return rows.reverse().map(toNote);
    },

    async createNote(actor, botId, conversationId, body) {
      authorize(actor, 'conversation.handoff');
      await checkWorkspaceConversation(ctx, actor, botId, conversationId);
      const author = agentOf(await ctx.members.getMe(actor));
      const row = {
        id: newId('note'),
        bot_id: botId,
        conversation_id: conversationId,
        author_id: author.accountId,
        author_name: author.name,
        text: body.text,
        created_at: ctx.now(),
      };
      await db.insertInto('conversation_notes').values(row).execute();
      // The desk's live streams hear that the conversation changed (a bare note: no signal is stored, so a
      // visitor's stream woken by it reads nothing new and sends nothing).
      ctx.bus.publish({ botId, conversationId, cursor: 0 });
      return toNote(row);
    },
  };
}
