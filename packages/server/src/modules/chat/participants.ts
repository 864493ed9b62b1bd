import type { ChatUser } from '@parley/protocol';
import { errors } from '../../errors/errors.js';
import { type ChatContext, conversationFor, conversationPage } from './context.js';
import type { ChatService } from './contract.js';
import { type ListOrder, signalTo, toUser } from './records.js';
import { type ChatUserRow, chatRepo } from './repo.js';

/** Participants, in the order they joined. */
const JOIN_ORDER: ListOrder<ChatUserRow & { joined_at: string }, ChatUser> = {
  sort: 'joinedAt:asc',
  key: (r) => [r.joined_at, r.id],
  wire: toUser,
};

/** Participants of conversations: listed, added, read and removed. */
export function chatParticipants(
  ctx: Pick<ChatContext, 'db' | 'now' | 'withSignals'>,
): Pick<ChatService, 'listParticipants' | 'addParticipant' | 'getParticipant' | 'removeParticipant'> {
  const { db, now } = ctx;
  return {
    listParticipants: (caller, conversationId, query) =>
      conversationPage(db, caller, conversationId, query, chatRepo(db).listParticipants, JOIN_ORDER),

    async addParticipant(caller, conversationId, userId) {
      await conversationFor(db, caller, conversationId, 'write');
      const user = await chatRepo(db).user(caller.bot.id, userId);
      if (!user) throw errors.notFound('User', userId);
      await ctx.withSignals(caller.bot.id, async (tx, emit) => {
        if (await chatRepo(tx).addParticipant(caller.bot.id, conversationId, userId, now())) {
          emit(
            signalTo(conversationId, {
              type: 'participant_added',
              data: { conversationId, participantId: userId },
            }),
          );
        }
      });
      return toUser(user);
    },

    async getParticipant(caller, conversationId, userId) {
      await conversationFor(db, caller, conversationId, 'read');
      const repo = chatRepo(db);
      const user = await repo.user(caller.bot.id, userId);
      if (!user || !(await repo.isParticipant(caller.bot.id, conversationId, userId)))
        throw errors.notFound('Participant', userId);
      return toUser(user);
    },

    async removeParticipant(caller, conversationId, userId) {
      const conversation = await conversationFor(db, caller, conversationId, 'write');
      if (!caller.isBot && userId !== caller.userId && conversation.created_by !== caller.userId)
        throw errors.forbidden(
          'Only the creator of a conversation (or the bot) may remove other participants',
        );
      await ctx.withSignals(caller.bot.id, async (tx, emit) => {
        if (!(await chatRepo(tx).removeParticipant(caller.bot.id, conversationId, userId)))
          throw errors.notFound('Participant', userId);
        emit(
          signalTo(conversationId, {
            type: 'participant_removed',
            data: { conversationId, participantId: userId },
          }),
        );
      });
    },
  };
}
