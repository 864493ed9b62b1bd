import {
  type ChatConversation,
  type ChatEvent,
  type ChatFileResponse,
  type ChatMessage,
  type ChatSignal,
  type ChatUser,
  type ChatUserFields,
  type ChatWebhookEvent,
  type CreateChatFileBody,
  type CreateEventBody,
  type CreateMessageBody,
  MAX_CHAT_PAYLOAD_BYTES,
  type MessageFeedback,
  type MessagePayload,
  type WebchatConfiguration,
} from '@parley/protocol';
import { type Kysely, sql } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { DialectName } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { ApiError, errors } from '../../errors/errors.js';
import type { AuthResolver } from '../../http/context.js';
import { decodeCursor, type Page, toPage } from '../../http/pagination.js';
import { newId, newSecretId, nextId } from '../../ids.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { BotsService } from '../bots/service.js';
import type { FilesService } from '../files/service.js';
import type { SignalBus } from './bus.js';
import {
  newUserKeySecret,
  newWebhookSecret,
  sameSecret,
  signUserKey,
  USER_ID,
  USER_KEY_HELP,
  verifyUserKey,
} from './keys.js';
import { type ChatUserRow, chatRepo, type EventRow, type MessageRow, type SecretsRow } from './repo.js';

/** Kind of the durable job that answers a user's message in knowledge mode. */
export const CHAT_REPLY_JOB = 'chat_reply';
/** Kind of the durable job that POSTs a conversation event to a webhook-mode bot. */
export const CHAT_WEBHOOK_JOB = 'chat_webhook';

/** What the Chat API knows of a bot. */
export interface ChatBot {
  id: string;
  workspaceId: string;
  name: string;
  status: 'active' | 'disabled';
  replyMode: 'knowledge' | 'webhook';
  webhookUrl: string | null;
  webchat: WebchatConfiguration;
}

/** The authenticated caller of a Chat API request. */
export interface ChatCaller {
  bot: ChatBot;
  /** The chat user it acts as (the bot's own chat user for a bot access key). */
  userId: string;
  isBot: boolean;
  /** Carries the webchat adminKey: reads every conversation, receives `debug` signals. */
  admin: boolean;
}

/** The credentials a Chat API request carries. */
export interface ChatCredentials {
  authorization?: string | undefined;
  userKey?: string | undefined;
  adminKey?: string | undefined;
}

/** Payload of a `chat_reply` job. */
export interface ChatReplyJob {
  botId: string;
  conversationId: string;
  messageId: string;
}

/** Payload of a `chat_webhook` job. */
export interface ChatWebhookJob {
  botId: string;
  event: ChatWebhookEvent;
}

/** A page query of the Chat API lists. */
export interface ChatPageQuery {
  nextToken?: string | undefined;
  pageSize?: number | undefined;
}

/** A signal to store and fan out, with whether only adminKey streams may see it. */
export interface PendingSignal {
  conversationId: string;
  signal: ChatSignal;
  adminOnly: boolean;
}

/** The chat user id of a bot itself (its messages carry `isBot: true`). */
export function botUserId(botId: string): string {
  return `bot_${botId}`;
}

const parse = <T>(text: string | null): T | undefined =>
  text === null ? undefined : (JSON.parse(text) as T);

function toUser(row: ChatUserRow): ChatUser {
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.name !== null ? { name: row.name } : {}),
    ...(row.picture_url !== null ? { pictureUrl: row.picture_url } : {}),
    ...(row.data !== null ? { data: JSON.parse(row.data) as Record<string, unknown> } : {}),
    ...(row.user_key !== null ? { userKey: row.user_key } : {}),
  };
}

/** A message row on the wire. */
export function toMessage(row: MessageRow): ChatMessage {
  const metadata = parse<Record<string, unknown>>(row.metadata);
  const feedback = parse<MessageFeedback>(row.feedback);
  return {
    id: row.id,
    createdAt: row.created_at,
    conversationId: row.conversation_id,
    userId: row.user_id,
    isBot: row.is_bot === 1,
    payload: JSON.parse(row.payload) as MessagePayload,
    ...(metadata ? { metadata } : {}),
    ...(feedback ? { feedback } : {}),
  };
}

function toEvent(row: EventRow): ChatEvent {
  return {
    id: row.id,
    createdAt: row.created_at,
    conversationId: row.conversation_id,
    userId: row.user_id,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
  };
}

const toConversation = (row: { id: string; created_at: string; updated_at: string }): ChatConversation => ({
  id: row.id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

function checkPayloadSize(what: string, value: unknown): void {
  const size = bytesOf(value);
  if (size > MAX_CHAT_PAYLOAD_BYTES) {
    throw new ApiError(
      'PayloadTooLarge',
      `The ${what} is ${size} bytes as JSON; the limit is ${MAX_CHAT_PAYLOAD_BYTES} bytes (128 KB). Send large content as a file (POST /files) and link it.`,
    );
  }
}

/** A file name safe as the last segment of a file key: no control characters, no slashes. */
function safeFileName(name: string): string {
  const cleaned = [...name]
    .map((ch) => {
      const code = ch.codePointAt(0) ?? 0;
      return code < 0x20 || code === 0x7f || ch === '/' || ch === '\\' ? '_' : ch;
    })
    .join('')
    .slice(0, 200);
  return cleaned.replace(/^\.+$/, '_') || 'file';
}

/**
 * The Chat API: chat users and their keys, conversations, participants, messages, events, feedback, chat
 * files, the durable signal log behind the live streams, and the hand-off of user messages to the bot
 * (a `chat_reply` job in knowledge mode, a `chat_webhook` job in webhook mode).
 */
export function chatService(deps: {
  db: Kysely<Database>;
  dialect: DialectName;
  clock: () => Date;
  bots: BotsService;
  files: FilesService;
  auth: AuthResolver;
  jobs: JobQueue;
  bus: SignalBus;
  /** How long signals are kept for resuming streams. */
  signalRetentionMs: number;
}) {
  const { db, clock, bus } = deps;
  const now = () => clock().toISOString();
  let lastPrune = 0;
  /** Reads of signals not yet sent to the database, by what they ask: streams woken together share one. */
  const pendingReads = new Map<string, ReturnType<ReturnType<typeof chatRepo>['signalsAfter']>>();

  /** Runs `work` in a transaction; the signals it emits are stored in cursor order and fanned out after commit. */
  async function withSignals<T>(
    botId: string,
    work: (tx: Kysely<Database>, emit: (s: PendingSignal) => void) => Promise<T>,
  ): Promise<T> {
    const notes: Array<{ conversationId: string; cursor: number }> = [];
    const result = await db.transaction().execute(async (tx) => {
      const pending: PendingSignal[] = [];
      const value = await work(tx, (s) => pending.push(s));
      if (pending.length > 0) {
        // Per bot, cursors are handed out in commit order: a stream that has read cursor n never later
        // sees a smaller one commit (PostgreSQL sequences alone would allow it; SQLite has one writer).
        if (deps.dialect === 'postgres')
          await sql`select pg_advisory_xact_lock(hashtext(${botId}))`.execute(tx);
        const at = now();
        for (const p of pending) {
          const cursor = await chatRepo(tx).insertSignal({
            bot_id: botId,
            conversation_id: p.conversationId,
            type: p.signal.type,
            data: JSON.stringify(p.signal.data),
            admin_only: p.adminOnly ? 1 : 0,
            created_at: at,
          });
          notes.push({ conversationId: p.conversationId, cursor });
        }
      }
      return value;
    });
    for (const n of notes) bus.publish({ botId, ...n });
    if (notes.length > 0) pruneNow();
    return result;
  }

  /** Drops signals older than the retention, at most once a minute per process, off the request path. */
  function pruneNow(): void {
    const t = clock().getTime();
    if (t - lastPrune < 60_000) return;
    lastPrune = t;
    const before = new Date(t - deps.signalRetentionMs).toISOString();
    chatRepo(db)
      .pruneSignals(before)
      .catch(() => undefined);
  }

  async function loadBot(botId: string): Promise<ChatBot> {
    const bot = await deps.bots.chatFacts(botId);
    if (!bot) throw errors.notFound('Bot', botId);
    if (bot.status !== 'active')
      throw errors.forbidden(`Bot "${botId}" is disabled; its Chat API answers again once it is enabled`);
    return bot;
  }

  async function secrets(botId: string): Promise<SecretsRow> {
    const repo = chatRepo(db);
    const existing = await repo.secrets(botId);
    if (existing) return existing;
    await repo.insertSecretsIfMissing({
      bot_id: botId,
      user_key_secret: newUserKeySecret(),
      webhook_secret: newWebhookSecret(),
      created_at: now(),
      rotated_at: null,
    });
    const row = await repo.secrets(botId);
    if (!row) throw new Error('chat secrets were not stored');
    return row;
  }

  async function ensureBotUser(tx: Kysely<Database>, bot: ChatBot): Promise<string> {
    const id = botUserId(bot.id);
    const at = now();
    await chatRepo(tx).insertUserIfMissing({
      bot_id: bot.id,
      id,
      name: bot.webchat.botName ?? bot.name,
      picture_url: bot.webchat.botAvatar ?? null,
      data: null,
      user_key: null,
      is_bot: 1,
      created_at: at,
      updated_at: at,
    });
    return id;
  }

  function userValues(fields: ChatUserFields): Partial<ChatUserRow> {
    const values: Partial<ChatUserRow> = {};
    if (fields.name !== undefined) values.name = fields.name;
    if (fields.pictureUrl !== undefined) values.picture_url = fields.pictureUrl;
    if (fields.data !== undefined) values.data = fields.data === null ? null : JSON.stringify(fields.data);
    if (fields.userKey !== undefined) values.user_key = fields.userKey;
    if (values.data) checkPayloadSize('user data', fields.data);
    return values;
  }

  function newUserRow(botId: string, id: string, fields: ChatUserFields): ChatUserRow {
    const at = now();
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

  function webhookEvent(
    bot: ChatBot,
    type: ChatWebhookEvent['type'],
    fields: Omit<ChatWebhookEvent, 'id' | 'type' | 'createdAt' | 'botId'>,
  ): ChatWebhookEvent {
    return { id: newId('whevt'), type, createdAt: now(), botId: bot.id, ...fields };
  }

  async function toWebhook(tx: Kysely<Database>, bot: ChatBot, event: ChatWebhookEvent): Promise<void> {
    if (bot.replyMode !== 'webhook' || !bot.webhookUrl) return;
    const job: ChatWebhookJob = { botId: bot.id, event };
    await deps.jobs.enqueue(CHAT_WEBHOOK_JOB, job, { tx });
  }

  /** A conversation of the caller's bot the caller may read (`read`) or take part in (`write`). */
  async function conversationFor(caller: ChatCaller, id: string, mode: 'read' | 'write') {
    const repo = chatRepo(db);
    const row = await repo.conversation(caller.bot.id, id);
    if (!row) throw errors.notFound('Conversation', id);
    if (caller.isBot || (mode === 'read' && caller.admin)) return row;
    if (!(await repo.isParticipant(caller.bot.id, id, caller.userId))) {
      throw errors.forbidden(
        `You are not a participant of conversation "${id}": only its participants may ${mode === 'read' ? 'read' : 'write to'} it`,
      );
    }
    return row;
  }

  async function createConversationRow(
    caller: ChatCaller,
    id: string | undefined,
  ): Promise<{ conversation: ChatConversation; created: boolean }> {
    const bot = caller.bot;
    const conversationId = id ?? newId('conv');
    const at = now();
    const created = await withSignals(bot.id, async (tx, emit) => {
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
        emit({
          conversationId,
          signal: { type: 'participant_added', data: { conversationId, participantId: caller.userId } },
          adminOnly: false,
        });
      }
      await toWebhook(
        tx,
        bot,
        webhookEvent(bot, 'conversation_created', { conversationId, userId: caller.userId }),
      );
      return true;
    });
    const row = await chatRepo(db).conversation(bot.id, conversationId);
    if (!row) throw errors.notFound('Conversation', conversationId);
    return { conversation: toConversation(row), created };
  }

  async function messageFor(caller: ChatCaller, id: string, mode: 'read' | 'write'): Promise<MessageRow> {
    const row = await chatRepo(db).message(caller.bot.id, id);
    if (!row) throw errors.notFound('Message', id);
    await conversationFor(caller, row.conversation_id, mode);
    return row;
  }

  /**
   * Stores messages as the bot (one transaction) with their signals; answers them. A message without a
   * chosen id gets an unguessable one ({@link newSecretId}: source links work for whoever holds a bot
   * message's id), the ones after it in the batch ids that sort after it.
   */
  async function postAsBot(
    bot: ChatBot,
    conversationId: string,
    messages: Array<{ id?: string; payload: MessagePayload; metadata?: Record<string, unknown> | undefined }>,
    options: { replyTo?: string; extra?: PendingSignal[] } = {},
  ): Promise<ChatMessage[]> {
    return withSignals(bot.id, async (tx, emit) => {
      const userId = await ensureBotUser(tx, bot);
      const at = now();
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
        payload: JSON.stringify(m.payload),
        metadata: m.metadata ? JSON.stringify(m.metadata) : null,
        feedback: null,
        reply_to: options.replyTo ?? null,
        created_at: at,
      }));
      if (rows.length > 0) await chatRepo(tx).insertMessages(rows);
      await chatRepo(tx).touchConversation(bot.id, conversationId, at);
      const out = rows.map(toMessage);
      for (const m of out)
        emit({ conversationId, signal: { type: 'message_created', data: m }, adminOnly: false });
      for (const s of options.extra ?? []) emit(s);
      return out;
    });
  }

  return {
    /** The bot of a Chat API root: 404 when unknown, 403 when disabled. */
    bot: loadBot,

    /**
     * Authenticates a Chat API request: `Authorization: Bearer <this bot's access key>` acts as the bot,
     * else `x-user-key` names a chat user of the bot. `x-admin-key`, when sent, must equal the bot's
     * non-empty webchat adminKey (else 403). Missing or invalid credentials answer 401 saying how to fix them.
     */
    async authenticate(botId: string, credentials: ChatCredentials): Promise<ChatCaller> {
      const bot = await loadBot(botId);
      const admin = checkAdminKey(bot, credentials.adminKey);
      const authorization = credentials.authorization?.trim();
      if (authorization) {
        const token = /^bearer\s+(\S+)$/i.exec(authorization)?.[1];
        if (!token)
          throw errors.unauthorized(
            'Malformed Authorization header: send "Authorization: Bearer <bot access key>", or authenticate as a chat user with x-user-key instead',
          );
        const principal = await deps.auth.resolveToken(token);
        if (!principal)
          throw errors.unauthorized(
            'Invalid token: it is unknown, revoked or expired. The Chat API takes this bot\'s access key as "Authorization: Bearer <key>", or a chat user\'s x-user-key',
          );
        if (principal.kind !== 'bot')
          throw errors.forbidden(
            "The Chat API accepts only a bot access key as a bearer token (or a chat user's x-user-key); personal access tokens and integration keys cannot chat",
          );
        if (principal.botId !== bot.id)
          throw errors.forbidden(`This bot access key belongs to another bot than "${bot.id}"`);
        const userId = await ensureBotUser(db, bot);
        return { bot, userId, isBot: true, admin };
      }
      const key = credentials.userKey?.trim();
      if (!key) throw errors.unauthorized(`Missing x-user-key header. ${USER_KEY_HELP}.`);
      const { user_key_secret } = await secrets(bot.id);
      const userId = await verifyUserKey(user_key_secret, key);
      const user = await chatRepo(db).user(bot.id, userId);
      if (!user || user.is_bot === 1) {
        throw errors.unauthorized(
          `The user "${userId}" of this x-user-key does not exist in bot "${bot.id}" (deleted, or never created): create one with POST /users, or POST /users/get-or-create for a key your backend signed`,
        );
      }
      return { bot, userId, isBot: false, admin };
    },

    /** Creates an anonymous chat user and its key. */
    async createUser(botId: string, fields: ChatUserFields): Promise<{ user: ChatUser; key: string }> {
      const bot = await loadBot(botId);
      const row = newUserRow(bot.id, newId('cuser'), fields);
      await db.transaction().execute(async (tx) => {
        await chatRepo(tx).insertUserIfMissing(row);
        await toWebhook(tx, bot, webhookEvent(bot, 'user_created', { userId: row.id }));
      });
      const { user_key_secret } = await secrets(bot.id);
      return { user: toUser(row), key: await signUserKey(user_key_secret, row.id) };
    },

    /** Verified identity: the key a site backend signed names the user; it is created on first use. */
    async getOrCreateUser(
      botId: string,
      userKey: string | undefined,
      fields: ChatUserFields,
      adminKey?: string,
    ): Promise<{ user: ChatUser; created: boolean }> {
      const bot = await loadBot(botId);
      checkAdminKey(bot, adminKey);
      if (!userKey?.trim()) throw errors.unauthorized(`Missing x-user-key header. ${USER_KEY_HELP}.`);
      const { user_key_secret } = await secrets(bot.id);
      const userId = await verifyUserKey(user_key_secret, userKey.trim());
      if (userId === botUserId(bot.id) || !USER_ID.test(userId))
        throw errors.forbidden(`"${userId}" is the bot's own chat user; pick another user id`);
      const row = newUserRow(bot.id, userId, fields);
      const created = await db.transaction().execute(async (tx) => {
        const inserted = await chatRepo(tx).insertUserIfMissing(row);
        if (inserted) await toWebhook(tx, bot, webhookEvent(bot, 'user_created', { userId }));
        return inserted;
      });
      const user = await chatRepo(db).user(bot.id, userId);
      if (!user || user.is_bot === 1) throw errors.forbidden(`"${userId}" is not a chat user id you may use`);
      return { user: toUser(user), created };
    },

    async getUser(caller: ChatCaller): Promise<ChatUser> {
      const row = await chatRepo(db).user(caller.bot.id, caller.userId);
      if (!row) throw errors.notFound('User', caller.userId);
      return toUser(row);
    },

    async updateUser(caller: ChatCaller, fields: ChatUserFields): Promise<ChatUser> {
      await chatRepo(db).updateUser(caller.bot.id, caller.userId, {
        ...userValues(fields),
        updated_at: now(),
      });
      return this.getUser(caller);
    },

    /** Deletes the caller and its data (see chatRepo.deleteUser); the bot's own user cannot be deleted. */
    async deleteUser(caller: ChatCaller): Promise<void> {
      if (caller.isBot) throw errors.forbidden("The bot's own chat user cannot be deleted");
      await withSignals(caller.bot.id, async (tx, emit) => {
        const repo = chatRepo(tx);
        const traces = await repo.traces(caller.bot.id, caller.userId);
        const orphaned = new Set(await repo.deleteUser(caller.bot.id, caller.userId));
        for (const conversationId of orphaned)
          emit({
            conversationId,
            signal: { type: 'conversation_deleted', data: { conversationId } },
            adminOnly: false,
          });
        // In conversations that stay, the others see the user's messages go and the user leave.
        for (const m of traces.messages) {
          if (orphaned.has(m.conversation_id)) continue;
          await repo.purgeMessageSignals(caller.bot.id, m.conversation_id, [m.id]);
          emit({
            conversationId: m.conversation_id,
            signal: { type: 'message_deleted', data: { id: m.id, conversationId: m.conversation_id } },
            adminOnly: false,
          });
        }
        for (const conversationId of traces.participations) {
          if (orphaned.has(conversationId)) continue;
          emit({
            conversationId,
            signal: { type: 'participant_removed', data: { conversationId, participantId: caller.userId } },
            adminOnly: false,
          });
        }
      });
    },

    /** Creates a conversation with the caller as participant; a chosen id already in use answers 409. */
    async createConversation(
      caller: ChatCaller,
      body: { id?: string | undefined },
    ): Promise<ChatConversation> {
      const { conversation, created } = await createConversationRow(caller, body.id);
      if (!created) throw errors.alreadyExists(`Conversation "${body.id}" already exists`);
      return conversation;
    },

    /** The conversation with this id if the caller takes part in it, else a new one with this id. */
    async getOrCreateConversation(
      caller: ChatCaller,
      body: { id?: string | undefined },
    ): Promise<{ conversation: ChatConversation; created: boolean }> {
      if (body.id !== undefined) {
        const existing = await chatRepo(db).conversation(caller.bot.id, body.id);
        if (existing) {
          await conversationFor(caller, body.id, 'write');
          return { conversation: toConversation(existing), created: false };
        }
      }
      const result = await createConversationRow(caller, body.id);
      if (!result.created) await conversationFor(caller, result.conversation.id, 'write');
      return result;
    },

    /** The caller's conversations, most recently active first (the bot, or an adminKey session: all of them). */
    async listConversations(caller: ChatCaller, query: ChatPageQuery): Promise<Page<ChatConversation>> {
      const sort = 'updatedAt:desc';
      const limit = query.pageSize ?? 20;
      const rows = await chatRepo(db).listConversations({
        botId: caller.bot.id,
        userId: caller.isBot || caller.admin ? undefined : caller.userId,
        limit,
        after: decodeCursor(query.nextToken, sort),
      });
      const page = toPage(rows, limit, sort, (r) => [r.updated_at, r.id]);
      return { ...page, items: page.items.map(toConversation) };
    },

    async getConversation(caller: ChatCaller, id: string): Promise<ChatConversation> {
      return toConversation(await conversationFor(caller, id, 'read'));
    },

    /** Deletes a conversation with its messages, events and participants (participants or the bot). */
    async deleteConversation(caller: ChatCaller, id: string): Promise<void> {
      await conversationFor(caller, id, 'write');
      // The one signal left of it tells open streams that it is gone; they end after it.
      await withSignals(caller.bot.id, async (tx, emit) => {
        await chatRepo(tx).deleteConversation(caller.bot.id, id);
        emit({
          conversationId: id,
          signal: { type: 'conversation_deleted', data: { conversationId: id } },
          adminOnly: false,
        });
      });
    },

    /** Messages of a conversation, newest first. */
    async listMessages(
      caller: ChatCaller,
      conversationId: string,
      query: ChatPageQuery,
    ): Promise<Page<ChatMessage>> {
      await conversationFor(caller, conversationId, 'read');
      const sort = 'createdAt:desc';
      const limit = query.pageSize ?? 20;
      const rows = await chatRepo(db).listMessages({
        botId: caller.bot.id,
        conversationId,
        limit,
        after: decodeCursor(query.nextToken, sort),
      });
      const page = toPage(rows, limit, sort, (r) => [r.created_at, r.id]);
      return { ...page, items: page.items.map(toMessage) };
    },

    async listParticipants(
      caller: ChatCaller,
      conversationId: string,
      query: ChatPageQuery,
    ): Promise<Page<ChatUser>> {
      await conversationFor(caller, conversationId, 'read');
      const sort = 'joinedAt:asc';
      const limit = query.pageSize ?? 20;
      const rows = await chatRepo(db).listParticipants({
        botId: caller.bot.id,
        conversationId,
        limit,
        after: decodeCursor(query.nextToken, sort),
      });
      const page = toPage(rows, limit, sort, (r) => [r.joined_at, r.id]);
      return { ...page, items: page.items.map(toUser) };
    },

    /** Adds a user of the bot to a conversation the caller takes part in. */
    async addParticipant(caller: ChatCaller, conversationId: string, userId: string): Promise<ChatUser> {
      await conversationFor(caller, conversationId, 'write');
      const user = await chatRepo(db).user(caller.bot.id, userId);
      if (!user) throw errors.notFound('User', userId);
      await withSignals(caller.bot.id, async (tx, emit) => {
        if (await chatRepo(tx).addParticipant(caller.bot.id, conversationId, userId, now())) {
          emit({
            conversationId,
            signal: { type: 'participant_added', data: { conversationId, participantId: userId } },
            adminOnly: false,
          });
        }
      });
      return toUser(user);
    },

    async getParticipant(caller: ChatCaller, conversationId: string, userId: string): Promise<ChatUser> {
      await conversationFor(caller, conversationId, 'read');
      const repo = chatRepo(db);
      const user = await repo.user(caller.bot.id, userId);
      if (!user || !(await repo.isParticipant(caller.bot.id, conversationId, userId)))
        throw errors.notFound('Participant', userId);
      return toUser(user);
    },

    /** Removes a participant: oneself, or anyone when the caller created the conversation or is the bot. */
    async removeParticipant(caller: ChatCaller, conversationId: string, userId: string): Promise<void> {
      const conversation = await conversationFor(caller, conversationId, 'write');
      if (!caller.isBot && userId !== caller.userId && conversation.created_by !== caller.userId)
        throw errors.forbidden(
          'Only the creator of a conversation (or the bot) may remove other participants',
        );
      await withSignals(caller.bot.id, async (tx, emit) => {
        if (!(await chatRepo(tx).removeParticipant(caller.bot.id, conversationId, userId)))
          throw errors.notFound('Participant', userId);
        emit({
          conversationId,
          signal: { type: 'participant_removed', data: { conversationId, participantId: userId } },
          adminOnly: false,
        });
      });
    },

    /**
     * Posts a message (at most 128 KB of payload as JSON). A user's message goes to the bot: a `chat_reply`
     * job in knowledge mode, a `chat_webhook` job in webhook mode.
     */
    async createMessage(caller: ChatCaller, body: CreateMessageBody): Promise<ChatMessage> {
      checkPayloadSize('message payload', body.payload);
      if (body.metadata) checkPayloadSize('message metadata', body.metadata);
      await conversationFor(caller, body.conversationId, 'write');
      const { bot } = caller;
      if (caller.isBot) {
        const [message] = await postAsBot(bot, body.conversationId, [
          { payload: body.payload, metadata: body.metadata },
        ]);
        if (!message) throw new Error('the message was not stored');
        return message;
      }
      return withSignals(bot.id, async (tx, emit) => {
        const at = now();
        const row: MessageRow = {
          id: newId('msg'),
          bot_id: bot.id,
          conversation_id: body.conversationId,
          user_id: caller.userId,
          is_bot: 0,
          payload: JSON.stringify(body.payload),
          metadata: body.metadata ? JSON.stringify(body.metadata) : null,
          feedback: null,
          reply_to: null,
          created_at: at,
        };
        await chatRepo(tx).insertMessages([row]);
        await chatRepo(tx).touchConversation(bot.id, body.conversationId, at);
        const message = toMessage(row);
        emit({
          conversationId: body.conversationId,
          signal: { type: 'message_created', data: message },
          adminOnly: false,
        });
        if (bot.replyMode === 'knowledge') {
          const job: ChatReplyJob = { botId: bot.id, conversationId: body.conversationId, messageId: row.id };
          await deps.jobs.enqueue(CHAT_REPLY_JOB, job, { tx });
        } else {
          await toWebhook(
            tx,
            bot,
            webhookEvent(bot, 'message_created', {
              conversationId: body.conversationId,
              userId: caller.userId,
              message,
            }),
          );
        }
        return message;
      });
    },

    async getMessage(caller: ChatCaller, id: string): Promise<ChatMessage> {
      return toMessage(await messageFor(caller, id, 'read'));
    },

    /** Deletes a message: its author, or the bot. */
    async deleteMessage(caller: ChatCaller, id: string): Promise<void> {
      const row = await messageFor(caller, id, 'write');
      if (!caller.isBot && row.user_id !== caller.userId)
        throw errors.forbidden('Only the author of a message (or the bot) may delete it');
      await withSignals(caller.bot.id, async (tx, emit) => {
        await chatRepo(tx).deleteMessage(caller.bot.id, id);
        await chatRepo(tx).purgeMessageSignals(caller.bot.id, row.conversation_id, [id]);
        emit({
          conversationId: row.conversation_id,
          signal: { type: 'message_deleted', data: { id, conversationId: row.conversation_id } },
          adminOnly: false,
        });
      });
    },

    /** Records a participant's feedback on a bot message (only when the webchat has feedbackEnabled). */
    async setFeedback(caller: ChatCaller, id: string, feedback: MessageFeedback): Promise<ChatMessage> {
      if (caller.bot.webchat.feedbackEnabled !== true)
        throw errors.forbidden(
          'Message feedback is disabled for this bot: enable feedbackEnabled in its webchat configuration (PUT /v1/admin/bots/{id}/webchat)',
        );
      const row = await messageFor(caller, id, 'write');
      if (row.is_bot !== 1) throw errors.forbidden("Feedback can only be given on the bot's messages");
      return withSignals(caller.bot.id, async (tx, emit) => {
        await chatRepo(tx).setFeedback(caller.bot.id, id, JSON.stringify(feedback));
        const message = toMessage({ ...row, feedback: JSON.stringify(feedback) });
        emit({
          conversationId: row.conversation_id,
          signal: { type: 'message_updated', data: message },
          adminOnly: false,
        });
        return message;
      });
    },

    /** Sends a custom event into a conversation (at most 128 KB as JSON). */
    async createEvent(caller: ChatCaller, body: CreateEventBody): Promise<ChatEvent> {
      checkPayloadSize('event payload', body.payload);
      await conversationFor(caller, body.conversationId, 'write');
      const { bot } = caller;
      return withSignals(bot.id, async (tx, emit) => {
        const row: EventRow = {
          id: newId('evt'),
          bot_id: bot.id,
          conversation_id: body.conversationId,
          user_id: caller.userId,
          payload: JSON.stringify(body.payload),
          created_at: now(),
        };
        await chatRepo(tx).insertEvent(row);
        const event = toEvent(row);
        emit({
          conversationId: body.conversationId,
          signal: { type: 'event_created', data: event },
          adminOnly: false,
        });
        if (!caller.isBot)
          await toWebhook(
            tx,
            bot,
            webhookEvent(bot, 'event_created', {
              conversationId: body.conversationId,
              userId: caller.userId,
              event,
            }),
          );
        return event;
      });
    },

    async getEvent(caller: ChatCaller, id: string): Promise<ChatEvent> {
      const row = await chatRepo(db).event(caller.bot.id, id);
      if (!row) throw errors.notFound('Event', id);
      await conversationFor(caller, row.conversation_id, 'read');
      return toEvent(row);
    },

    /**
     * A chat file upload (only with allowFileUpload in the webchat configuration): a public_content file
     * of the bot, owned by the chat user, tagged with its conversation; PUT the bytes to `uploadUrl`.
     */
    async createFile(caller: ChatCaller, body: CreateChatFileBody): Promise<ChatFileResponse['file']> {
      if (caller.bot.webchat.allowFileUpload !== true)
        throw errors.forbidden(
          'File upload is disabled for this bot: enable allowFileUpload in its webchat configuration (PUT /v1/admin/bots/{id}/webchat)',
        );
      await conversationFor(caller, body.conversationId, 'write');
      const safeName = safeFileName(body.name);
      const file = await deps.files.upsert(
        {
          actor: { kind: 'bot', botId: caller.bot.id },
          botId: caller.bot.id,
          workspaceId: caller.bot.workspaceId,
        },
        {
          key: `webchat/${body.conversationId}/${newId('file').slice(5)}/${safeName}`,
          size: body.size,
          ...(body.contentType ? { contentType: body.contentType } : {}),
          accessPolicies: ['public_content'],
          tags: { source: 'webchat', conversationId: body.conversationId, userId: caller.userId },
        },
        caller.isBot ? {} : { owner: { type: 'user', id: caller.userId } },
      );
      return {
        id: file.id,
        key: file.key,
        size: body.size,
        contentType: file.contentType,
        uploadUrl: file.uploadUrl,
        url: file.url,
      };
    },

    /** Checks a conversation may be read and answers the cursor a stream starts after (`after`, else now). */
    async openStream(caller: ChatCaller, conversationId: string, after: number | undefined): Promise<number> {
      await conversationFor(caller, conversationId, 'read');
      return after ?? (await chatRepo(db).lastCursor(caller.bot.id, conversationId));
    },

    /** Signals of a conversation after a cursor, in order (debug signals only for adminKey sessions). */
    async signalsAfter(caller: ChatCaller, conversationId: string, after: number, limit = 500) {
      // A message wakes every stream of its conversation at once; those at the same cursor share one read.
      // A read is joined only until it is issued (on the next turn of the event loop): a stream woken
      // later starts a new one, so it always sees the rows committed before the signal that woke it.
      const key = JSON.stringify([caller.bot.id, conversationId, after, caller.admin, limit]);
      const pending = pendingReads.get(key);
      if (pending) return pending;
      const read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        pendingReads.delete(key);
        return chatRepo(db).signalsAfter({
          botId: caller.bot.id,
          conversationId,
          after,
          admin: caller.admin,
          limit,
        });
      });
      pendingReads.set(key, read);
      return read;
    },

    /** Stores and fans out signals of a conversation as the bot (typing, stream deltas, debug). */
    async emit(
      botId: string,
      conversationId: string,
      signals: Array<{ signal: ChatSignal; adminOnly?: boolean }>,
    ) {
      await withSignals(botId, async (_tx, emit) => {
        for (const s of signals) emit({ conversationId, signal: s.signal, adminOnly: s.adminOnly ?? false });
      });
    },

    postAsBot,

    /** The bot's chat secrets (created on first use). */
    async getSecrets(actor: Actor, botId: string): Promise<{ userKeySecret: string; webhookSecret: string }> {
      authorize(actor, 'chatSecret.reveal');
      if (!(await deps.bots.exists(actor.workspaceId, botId))) throw errors.notFound('Bot', botId);
      const row = await secrets(botId);
      return { userKeySecret: row.user_key_secret, webhookSecret: row.webhook_secret };
    },

    /** Replaces both secrets: every user key signed before stops working, webhooks are signed anew. */
    async rotateSecrets(
      actor: Actor,
      botId: string,
    ): Promise<{ userKeySecret: string; webhookSecret: string }> {
      authorize(actor, 'chatSecret.rotate');
      if (!(await deps.bots.exists(actor.workspaceId, botId))) throw errors.notFound('Bot', botId);
      const at = now();
      const row: SecretsRow = {
        bot_id: botId,
        user_key_secret: newUserKeySecret(),
        webhook_secret: newWebhookSecret(),
        created_at: at,
        rotated_at: at,
      };
      await chatRepo(db).replaceSecrets(row);
      // Streams opened with a user key signed by the old secret end (here and in other processes).
      bus.revoke(botId);
      return { userKeySecret: row.user_key_secret, webhookSecret: row.webhook_secret };
    },

    /** The webhook secret of a bot (for the webhook job). */
    webhookSecret: async (botId: string) => (await secrets(botId)).webhook_secret,

    /** A message of the bot's own (`isBot`), for its source links; undefined when absent or a user's. */
    async botMessage(botId: string, messageId: string): Promise<ChatMessage | undefined> {
      const row = await chatRepo(db).message(botId, messageId);
      return row?.is_bot === 1 ? toMessage(row) : undefined;
    },

    /** Recent messages of a conversation, oldest first, and the message itself (for the reply job). */
    async replyContext(botId: string, messageId: string, historySize = 20) {
      const repo = chatRepo(db);
      const message = await repo.message(botId, messageId);
      if (!message) return undefined;
      const rows = await repo.listMessages({
        botId,
        conversationId: message.conversation_id,
        limit: historySize,
        after: undefined,
      });
      const already = await repo.repliesTo(botId, messageId);
      return {
        message: toMessage(message),
        history: rows.slice(0, historySize).reverse().map(toMessage),
        answered: already.length > 0,
      };
    },
  };

  function checkAdminKey(bot: ChatBot, adminKey: string | undefined): boolean {
    if (adminKey === undefined || adminKey === '') return false;
    const configured = bot.webchat.adminKey;
    if (!configured || !sameSecret(adminKey, configured))
      throw errors.forbidden(
        "Invalid x-admin-key: it does not match the adminKey of this bot's webchat configuration (leave the header out to chat without enhanced permissions)",
      );
    return true;
  }
}
/** The chat service. */
export type ChatService = ReturnType<typeof chatService>;
