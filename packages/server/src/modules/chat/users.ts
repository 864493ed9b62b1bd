import type { ChatUserFields } from '@parley/protocol';
import { errors } from '../../errors/errors.js';
import { newId } from '../../ids.js';
import { type ChatContext, checkAdminKey, loadBot } from './context.js';
import { botUserId, type ChatCaller, type ChatService } from './contract.js';
import { signUserKey, USER_ID, USER_KEY_HELP, verifyUserKey } from './keys.js';
import { checkPayloadSize, signalTo, toUser } from './records.js';
import { type ChatUserRow, chatRepo } from './repo.js';
import { secretsOf } from './secrets.js';
import { toWebhook, webhookEvent } from './webhooks.js';

/** The columns a chat user's fields set (user data at most 128 KB as JSON). */
export function userValues(fields: ChatUserFields): Partial<ChatUserRow> {
  const values: Partial<ChatUserRow> = {};
  if (fields.name !== undefined) values.name = fields.name;
  if (fields.pictureUrl !== undefined) values.picture_url = fields.pictureUrl;
  if (fields.data !== undefined) values.data = fields.data === null ? null : JSON.stringify(fields.data);
  if (fields.userKey !== undefined) values.user_key = fields.userKey;
  if (values.data) checkPayloadSize('user data', fields.data);
  return values;
}

/** A new (human) chat user row of the bot, created `at` (an ISO time). */
export function newUserRow(botId: string, id: string, fields: ChatUserFields, at: string): ChatUserRow {
  return {
    bot_id: botId,
    id,
    name: null,
    picture_url: null,
    data: null,
    user_key: null,
    is_bot: 0,
    created_at: at,
    updated_at: at,
    ...userValues(fields),
  };
}

/**
 * Deletes a chat user and its data (see chatRepo.deleteUser) with the signals open streams need: the
 * conversations that went with it, and in the others its messages going and the user leaving.
 */
export async function deleteUserData(
  ctx: Pick<ChatContext, 'withSignals'>,
  caller: ChatCaller,
): Promise<void> {
  const { bot, userId } = caller;
  await ctx.withSignals(bot.id, async (tx, emit) => {
    const repo = chatRepo(tx);
    const traces = await repo.traces(bot.id, userId);
    const orphaned = new Set(await repo.deleteUser(bot.id, userId));
    for (const conversationId of orphaned)
      emit(signalTo(conversationId, { type: 'conversation_deleted', data: { conversationId } }));
    // In conversations that stay, the others see the user's messages go and the user leave.
    for (const m of traces.messages) {
      if (orphaned.has(m.conversation_id)) continue;
      await repo.purgeMessageSignals(bot.id, m.conversation_id, [m.id]);
      emit(
        signalTo(m.conversation_id, {
          type: 'message_deleted',
          data: { id: m.id, conversationId: m.conversation_id },
        }),
      );
    }
    for (const conversationId of traces.participations) {
      if (orphaned.has(conversationId)) continue;
      emit(
        signalTo(conversationId, {
          type: 'participant_removed',
          data: { conversationId, participantId: userId },
        }),
      );
    }
  });
}

/** Chat users: created anonymously or from a key a site backend signed, read, updated, deleted. */
export function chatUsers(
  ctx: Pick<ChatContext, 'db' | 'now' | 'bots' | 'jobs' | 'withSignals'>,
): Pick<ChatService, 'createUser' | 'getOrCreateUser' | 'getUser' | 'updateUser' | 'deleteUser'> {
  const { db, now } = ctx;

  async function getUser(caller: ChatCaller) {
    const row = await chatRepo(db).user(caller.bot.id, caller.userId);
    if (!row) throw errors.notFound('User', caller.userId);
    return toUser(row);
  }

  return {
    async createUser(botId, fields) {
      const bot = await loadBot(ctx.bots, botId);
      const row = newUserRow(bot.id, newId('cuser'), fields, now());
      await db.transaction().execute(async (tx) => {
        await chatRepo(tx).insertUserIfMissing(row);
        await toWebhook(ctx.jobs, tx, bot, webhookEvent(bot, 'user_created', { userId: row.id }, now()));
      });
      const { user_key_secret } = await secretsOf(db, now, bot.id);
      return { user: toUser(row), key: await signUserKey(user_key_secret, row.id) };
    },

    async getOrCreateUser(botId, userKey, fields, adminKey) {
      const bot = await loadBot(ctx.bots, botId);
      checkAdminKey(bot, adminKey);
      if (!userKey?.trim()) throw errors.unauthorized(`Missing x-user-key header. ${USER_KEY_HELP}.`);
      const { user_key_secret } = await secretsOf(db, now, bot.id);
      const userId = await verifyUserKey(user_key_secret, userKey.trim());
      if (userId === botUserId(bot.id) || !USER_ID.test(userId))
        throw errors.forbidden(`"${userId}" is the bot's own chat user; pick another user id`);
      const row = newUserRow(bot.id, userId, fields, now());
      const created = await db.transaction().execute(async (tx) => {
        const inserted = await chatRepo(tx).insertUserIfMissing(row);
        if (inserted)
          await toWebhook(ctx.jobs, tx, bot, webhookEvent(bot, 'user_created', { userId }, now()));
        return inserted;
      });
      const user = await chatRepo(db).user(bot.id, userId);
      if (!user || user.is_bot === 1) throw errors.forbidden(`"${userId}" is not a chat user id you may use`);
      return { user: toUser(user), created };
    },

    getUser,

    async updateUser(caller, fields) {
      await chatRepo(db).updateUser(caller.bot.id, caller.userId, {
        ...userValues(fields),
        updated_at: now(),
      });
      return getUser(caller);
    },

    async deleteUser(caller) {
      if (caller.isBot) throw errors.forbidden("The bot's own chat user cannot be deleted");
      await deleteUserData(ctx, caller);
    },
  };
}
