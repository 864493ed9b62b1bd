import type { ChatConversation } from '@parley/protocol';
import { errors } from '../../errors/errors.js';
import { newId } from '../../ids.js';
import { type ChatContext, conversationFor } from './context.js';
import type { ChatCaller, ChatService } from './contract.js';
import { chatPage, signalTo, toConversation } from './records.js';
import { chatRepo } from './repo.js';
import { toWebhook, webhookEvent } from './webhooks.js';

/**
 * Stores a conversation with this id (a new one when absent) created by the caller, who takes part in it
 * unless it is the bot; `created` is false when the id was already in use (nothing is changed then).
 */
export async function createConversationRow(
  ctx: Pick<ChatContext, 'db' | 'now' | 'jobs' | 'withSignals'>,
  caller: ChatCaller,
  id: string | undefined,
): Promise<{ conversation: ChatConversation; created: boolean }> {
  const { bot } = caller;
  const conversationId = id ?? newId('conv');
  const at = ctx.now();
  const created = await ctx.withSignals(bot.id, async (tx, emit) => {
    const repo = chatRepo(tx);
    const inserted = await repo.insertConversationIfMissing({
      bot_id: bot.id,
      id: conversationId,
      created_by: caller.userId,
      created_at: at,
      updated_at: at,
    });
    if (!inserted) return false;
    if (!caller.isBot) {
      await repo.addParticipant(bot.id, conversationId, caller.userId, at);
      emit(
        signalTo(conversationId, {
          type: 'participant_added',
          data: { conversationId, participantId: caller.userId },
        }),
      );
    }
    const event = webhookEvent(
      bot,
      'conversation_created',
      { conversationId, userId: caller.userId },
      ctx.now(),
    );
    await toWebhook(ctx.jobs, tx, bot, event);
    return true;
  });
  const row = await chatRepo(ctx.db).conversation(bot.id, conversationId);
  if (!row) throw errors.notFound('Conversation', conversationId);
  return { conversation: toConversation(row), created };
}

/** Conversations: created, found or created, listed, read and deleted. */
export function chatConversations(
  ctx: Pick<ChatContext, 'db' | 'now' | 'jobs' | 'withSignals'>,
): Pick<
  ChatService,
  | 'createConversation'
  | 'getOrCreateConversation'
  | 'listConversations'
  | 'getConversation'
  | 'deleteConversation'
> {
  const { db } = ctx;
  return {
    async createConversation(caller, body) {
      const { conversation, created } = await createConversationRow(ctx, caller, body.id);
      if (!created) throw errors.alreadyExists(`Conversation "${body.id}" already exists`);
      return conversation;
    },

    async getOrCreateConversation(caller, body) {
      if (body.id !== undefined) {
        const existing = await chatRepo(db).conversation(caller.bot.id, body.id);
        if (existing) {
          await conversationFor(db, caller, body.id, 'write');
          return { conversation: toConversation(existing), created: false };
        }
      }
      const result = await createConversationRow(ctx, caller, body.id);
      if (!result.created) await conversationFor(db, caller, result.conversation.id, 'write');
      return result;
    },

    listConversations: (caller, query) =>
      chatPage(
        query,
        { sort: 'updatedAt:desc', key: (r) => [r.updated_at, r.id], wire: toConversation },
        (q) =>
          chatRepo(db).listConversations({
            botId: caller.bot.id,
            userId: caller.isBot || caller.admin ? undefined : caller.userId,
            ...q,
          }),
      ),

    async getConversation(caller, id) {
      return toConversation(await conversationFor(db, caller, id, 'read'));
    },

    async deleteConversation(caller, id) {
      await conversationFor(db, caller, id, 'write');
      // The one signal left of it tells open streams that it is gone; they end after it.
      await ctx.withSignals(caller.bot.id, async (tx, emit) => {
        await chatRepo(tx).deleteConversation(caller.bot.id, id);
        emit(signalTo(id, { type: 'conversation_deleted', data: { conversationId: id } }));
      });
    },
  };
}
