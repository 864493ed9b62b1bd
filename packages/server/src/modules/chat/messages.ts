import type { ChatMessage, CreateMessageBody } from '@parley/protocol';
import { ApiError, errors } from '../../errors/errors.js';
import { newSecretId, nextId } from '../../ids.js';
import { type ChatContext, conversationFor, conversationPage, ensureBotUser, messageFor } from './context.js';
import type {
  BotMessageDraft,
  ChatBot,
  ChatCaller,
  ChatReplyJob,
  ChatService,
  PendingSignal,
} from './contract.js';
import { applyTransition, botAnswers, visitorAsksForPerson } from './handoff.js';
import { contactEmailOf, isEmailAddress, leaveEmail } from './handoff-wait.js';
import { CHAT_REPLY_JOB } from './job-kinds.js';
import { type ListOrder, signalTo, sizedJson, toMessage, toPostedMessage } from './records.js';
import { botTurnOf, chatRepo, type MessageRow, touchConversationOf } from './repo.js';
import { newMessageRow, storeMessages } from './repo-contents.js';
import { toWebhook, webhookEvent } from './webhooks.js';

/**
 * Stores messages as the bot (one transaction) with their signals, then the `extra` ones. A message without
 * a chosen id gets an unguessable one ({@link newSecretId}: source links work for whoever holds a bot
 * message's id), the ones after it in the batch ids that sort after it.
 *
 * `asCaller`: the bot posts through the Chat API as this caller, whose authentication stored the bot's chat
 * user already; the conversation must exist (404 otherwise, nothing stored), which the transaction's own
 * update of the conversation's time tells, so no read of it comes first. While a person answers the
 * conversation (human handoff) the bot may not post: 409, nothing stored.
 *
 * `botTurn` (the reply job): the messages are stored only while the bot answers the conversation, as its
 * stored state says in this very transaction (see {@link botTurnOf}); otherwise nothing is stored and the
 * answer is `[]`.
 */
export function postAsBot(
  ctx: Pick<ChatContext, 'now' | 'withSignals'>,
  bot: ChatBot,
  conversationId: string,
  messages: BotMessageDraft[],
  options: { replyTo?: string; extra?: PendingSignal[]; asCaller?: ChatCaller; botTurn?: boolean } = {},
): Promise<ChatMessage[]> {
  return ctx.withSignals(bot.id, async (tx, emit) => {
    const at = ctx.now();
    const { asCaller } = options;
    let userId: string;
    if (asCaller) {
      if (!(await botTurnOf(tx, bot.id, conversationId, at))) {
        if (!(await chatRepo(tx).conversation(bot.id, conversationId)))
          throw errors.notFound('Conversation', conversationId);
        throw new ApiError(
          'ResourceLockedConflict',
          `A person answers conversation "${conversationId}" now (human handoff): the bot may post again once it is handed back or resolved`,
        );
      }
      userId = asCaller.userId;
    } else if (options.botTurn && !(await botTurnOf(tx, bot.id, conversationId, at))) {
      return [];
    } else {
      userId = await ensureBotUser(tx, bot, at);
    }
    let previous: string | undefined;
    const ids = messages.map((m) => {
      previous = m.id ?? (previous ? nextId(previous) : newSecretId('msg'));
      return previous;
    });
    const rows: MessageRow[] = messages.map((m, i) => ({
      id: ids[i] as string,
      bot_id: bot.id,
      conversation_id: conversationId,
      user_id: userId,
      is_bot: 1,
      payload: m.json ? m.json.payload : JSON.stringify(m.payload),
      metadata: m.json ? m.json.metadata : m.metadata ? JSON.stringify(m.metadata) : null,
      feedback: null,
      reply_to: options.replyTo ?? null,
      created_at: at,
      answer: m.answer ?? null,
      details: m.details ? JSON.stringify(m.details) : null,
    }));
    await storeMessages(tx, rows);
    if (!asCaller && !options.botTurn) await touchConversationOf(tx, bot.id, conversationId, at);
    const out = rows.map((row, i) => {
      const m = messages[i] as BotMessageDraft;
      return toPostedMessage(row, m.json && { payload: m.payload, metadata: m.metadata });
    });
    for (const m of out) emit(signalTo(conversationId, { type: 'message_created', data: m }));
    for (const s of options.extra ?? []) emit(s);
    return out;
  });
}

/**
 * Stores a user's message with its signal and hands it to the bot in the same transaction: a `chat_reply`
 * job in knowledge mode, a `chat_webhook` job in webhook mode. Only while the bot answers the conversation
 * (human handoff): a message asking for a person (its words, or the webchat's button) makes it `pending`
 * instead, and while a person answers or is awaited the bot gets nothing.
 */
export function postAsUser(
  ctx: Pick<ChatContext, 'now' | 'clock' | 'jobs' | 'withSignals' | 'audit'>,
  caller: ChatCaller,
  body: CreateMessageBody,
  json: { payload: string; metadata: string | null },
): Promise<ChatMessage> {
  const { bot } = caller;
  const { conversationId } = body;
  return ctx.withSignals(bot.id, async (tx, emit) => {
    const at = ctx.now();
    const row = newMessageRow(
      bot.id,
      conversationId,
      { userId: caller.userId, isBot: false, answer: null },
      json,
      at,
    );
    await storeMessages(tx, [row]);
    await touchConversationOf(tx, bot.id, conversationId, at);
    const message = toPostedMessage(row, { payload: body.payload, metadata: body.metadata });
    emit(signalTo(conversationId, { type: 'message_created', data: message }));
    const conversation = await chatRepo(tx).conversation(bot.id, conversationId);
    const email = contactEmailOf(body.metadata);
    if (conversation && email) {
      await leaveEmail(tx, bot, conversationId, email, at, emit);
      return message;
    }
    if (!conversation || !botAnswers(conversation.handoff_state)) return message;
    if (visitorAsksForPerson(bot, body)) {
      const next = { state: 'pending' as const, agent: null };
      await applyTransition(tx, ctx, bot, conversation, next, { accountId: null }, emit);
      return message;
    }
    if (bot.replyMode === 'knowledge') {
      const job: ChatReplyJob = { botId: bot.id, conversationId, messageId: row.id };
      await ctx.jobs.enqueue(CHAT_REPLY_JOB, job, { tx });
    } else {
      const fields = { conversationId, userId: caller.userId, message };
      await toWebhook(ctx.jobs, tx, bot, webhookEvent(bot, 'message_created', fields, ctx.now()));
    }
    return message;
  });
}

/** Messages, newest first. */
const NEWEST_FIRST: ListOrder<MessageRow, ChatMessage> = {
  sort: 'createdAt:desc',
  key: (r) => [r.created_at, r.id],
  wire: toMessage,
};

/** Messages: listed, posted (by users and by the bot), read, deleted, given feedback. */
export function chatMessages(
  ctx: Pick<ChatContext, 'db' | 'now' | 'clock' | 'jobs' | 'withSignals' | 'audit'>,
): Pick<
  ChatService,
  'listMessages' | 'createMessage' | 'getMessage' | 'deleteMessage' | 'setFeedback' | 'postAsBot'
> {
  const { db } = ctx;
  return {
    listMessages: (caller, conversationId, query) =>
      conversationPage(db, caller, conversationId, query, chatRepo(db).listMessages, NEWEST_FIRST),

    async createMessage(caller, body) {
      // The body was parsed from JSON: its values are stored as this text, and answered as they are.
      const json = {
        payload: sizedJson('message payload', body.payload),
        metadata: body.metadata ? sizedJson('message metadata', body.metadata) : null,
      };
      if (!caller.isBot) {
        const email = contactEmailOf(body.metadata);
        if (email !== undefined && !isEmailAddress(email))
          throw errors.invalidPayload(
            `metadata.contactEmail "${email.slice(0, 80)}" is not an e-mail address`,
            [{ field: 'metadata.contactEmail', message: 'must be an e-mail address' }],
          );
        await conversationFor(db, caller, body.conversationId, 'write');
        return postAsUser(ctx, caller, body, json);
      }
      // The bot may write to any conversation of its own: whether it exists is told by the transaction.
      const [message] = await postAsBot(
        ctx,
        caller.bot,
        body.conversationId,
        [{ payload: body.payload, metadata: body.metadata, json }],
        { asCaller: caller },
      );
      if (!message) throw new Error('the message was not stored');
      return message;
    },

    async getMessage(caller, id) {
      return toMessage(await messageFor(db, caller, id, 'read'));
    },

    async deleteMessage(caller, id) {
      const row = await messageFor(db, caller, id, 'write');
      if (!caller.isBot && row.user_id !== caller.userId)
        throw errors.forbidden('Only the author of a message (or the bot) may delete it');
      const conversationId = row.conversation_id;
      await ctx.withSignals(caller.bot.id, async (tx, emit) => {
        await chatRepo(tx).deleteMessage(caller.bot.id, id);
        await chatRepo(tx).purgeMessageSignals(caller.bot.id, conversationId, [id]);
        emit(signalTo(conversationId, { type: 'message_deleted', data: { id, conversationId } }));
      });
    },

    async setFeedback(caller, id, feedback) {
      if (caller.bot.webchat.feedbackEnabled !== true)
        throw errors.forbidden(
          'Message feedback is disabled for this bot: enable feedbackEnabled in its webchat configuration (PUT /v1/admin/bots/{id}/webchat)',
        );
      const row = await messageFor(db, caller, id, 'write');
      if (row.is_bot !== 1) throw errors.forbidden("Feedback can only be given on the bot's messages");
      return ctx.withSignals(caller.bot.id, async (tx, emit) => {
        await chatRepo(tx).setFeedback(caller.bot.id, id, JSON.stringify(feedback));
        const message = toMessage({ ...row, feedback: JSON.stringify(feedback) });
        emit(signalTo(row.conversation_id, { type: 'message_updated', data: message }));
        return message;
      });
    },

    postAsBot: (bot, conversationId, messages, options) =>
      postAsBot(ctx, bot, conversationId, messages, options),
  };
}
