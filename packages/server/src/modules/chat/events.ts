import { errors } from '../../errors/errors.js';
import { newId } from '../../ids.js';
import { type ChatContext, conversationFor } from './context.js';
import type { ChatService } from './contract.js';
import { checkPayloadSize, signalTo, toEvent } from './records.js';
import { chatRepo, type EventRow } from './repo.js';
import { toWebhook, webhookEvent } from './webhooks.js';

/** Custom events of conversations: sent (a user's goes to a webhook-mode bot too) and read. */
export function chatEvents(
  ctx: Pick<ChatContext, 'db' | 'now' | 'jobs' | 'withSignals'>,
): Pick<ChatService, 'createEvent' | 'getEvent'> {
  const { db, now } = ctx;
  return {
    async createEvent(caller, body) {
      checkPayloadSize('event payload', body.payload);
      const { conversationId } = body;
      await conversationFor(db, caller, conversationId, 'write');
      const { bot } = caller;
      return ctx.withSignals(bot.id, async (tx, emit) => {
        const row: EventRow = {
          id: newId('evt'),
          bot_id: bot.id,
          conversation_id: conversationId,
          user_id: caller.userId,
          payload: JSON.stringify(body.payload),
          created_at: now(),
        };
        await chatRepo(tx).insertEvent(row);
        const event = toEvent(row);
        emit(signalTo(conversationId, { type: 'event_created', data: event }));
        if (!caller.isBot) {
          const fields = { conversationId, userId: caller.userId, event };
          await toWebhook(ctx.jobs, tx, bot, webhookEvent(bot, 'event_created', fields, now()));
        }
        return event;
      });
    },

    async getEvent(caller, id) {
      const row = await chatRepo(db).event(caller.bot.id, id);
      if (!row) throw errors.notFound('Event', id);
      await conversationFor(db, caller, row.conversation_id, 'read');
      return toEvent(row);
    },
  };
}
