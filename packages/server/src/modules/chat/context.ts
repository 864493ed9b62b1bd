import type { Kysely } from 'kysely';
import type { Actor } from '../../access/principal.js';
import type { DialectName } from '../../db/database.js';
import { PerHandle } from '../../db/per-handle.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import type { AuthResolver } from '../../http/context.js';
import type { Cursor, Page } from '../../http/pagination.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { AuditService } from '../audit/service.js';
import type { BotsService } from '../bots/service.js';
import type { FilesService } from '../files/service.js';
import type { IdentityService } from '../identity/contract.js';
import type { SignalBus } from './bus.js';
import {
  botUserId,
  type ChatBot,
  type ChatCaller,
  type ChatPageQuery,
  type PendingSignal,
} from './contract.js';
import type { InboxEntries } from './inbox-corrections.js';
import { sameSecret } from './keys.js';
import { chatPage, type ListOrder } from './records.js';
import { type ConversationRow, chatRepo, type MessageRow } from './repo.js';

/** What the chat service is built from. */
export interface ChatServiceDeps {
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
  /** The audit trail (changes of a conversation's owner). */
  audit: AuditService;
  /** The workspace's members: who takes a conversation over, under which name. */
  members: Pick<IdentityService, 'getMe' | 'getMember'>;
  /** The bot's Q&A entries, for the inbox's corrections (absent: conversations are never marked corrected). */
  entries?: InboxEntries | undefined;
}

/** Runs `work` in a transaction; the signals it emits are stored in cursor order and fanned out after commit. */
export type WithSignals = <T>(
  botId: string,
  work: (tx: Kysely<Database>, emit: (s: PendingSignal) => void) => Promise<T>,
) => Promise<T>;

/** What the use cases of the chat module are built from: its dependencies, the time now, the signal writer. */
export interface ChatContext extends ChatServiceDeps {
  /** The injected clock's time as an ISO string. */
  now: () => string;
  withSignals: WithSignals;
}

/** The bot of a Chat API root: 404 when unknown, 403 when disabled. */
export async function loadBot(bots: Pick<BotsService, 'chatFacts'>, botId: string): Promise<ChatBot> {
  const bot = await bots.chatFacts(botId);
  if (!bot) throw errors.notFound('Bot', botId);
  if (bot.status !== 'active')
    throw errors.forbidden(`Bot "${botId}" is disabled; its Chat API answers again once it is enabled`);
  return bot;
}

/** 404 unless the bot is one of the actor's workspace (the Admin API's chat routes name the bot in their path). */
export async function checkWorkspaceBot(
  bots: Pick<BotsService, 'exists'>,
  actor: Actor,
  botId: string,
): Promise<void> {
  if (!(await bots.exists(actor.workspaceId, botId))) throw errors.notFound('Bot', botId);
}

/** 404 unless the bot is one of the actor's workspace and the conversation is the bot's. */
export async function checkWorkspaceConversation(
  ctx: Pick<ChatContext, 'db' | 'bots'>,
  actor: Actor,
  botId: string,
  conversationId: string,
): Promise<void> {
  await checkWorkspaceBot(ctx.bots, actor, botId);
  if (!(await chatRepo(ctx.db).conversation(botId, conversationId)))
    throw errors.notFound('Conversation', conversationId);
}

/** The chat facts of a bot of the actor's workspace: 404 when the bot is unknown or another workspace's. */
export async function workspaceChatBot(
  bots: Pick<BotsService, 'chatFacts'>,
  actor: Actor,
  botId: string,
): Promise<ChatBot> {
  const bot = await bots.chatFacts(botId);
  if (!bot || bot.workspaceId !== actor.workspaceId) throw errors.notFound('Bot', botId);
  return bot;
}

/** Whether an x-admin-key was sent (false when absent or empty); 403 when it is not the bot's adminKey. */
export function checkAdminKey(bot: ChatBot, adminKey: string | undefined): boolean {
  if (adminKey === undefined || adminKey === '') return false;
  const configured = bot.webchat.adminKey;
  if (!configured || !sameSecret(adminKey, configured))
    throw errors.forbidden(
      "Invalid x-admin-key: it does not match the adminKey of this bot's webchat configuration (leave the header out to chat without enhanced permissions)",
    );
  return true;
}

/** How long a bot's chat user, once stored or found, is not asked for again by this process. */
export const BOT_USER_KEPT_MS = 60_000;
/** Bots kept at most (the least recently stored forgotten first). */
const BOT_USERS_KEPT = 10_000;
/** Per database handle (not a transaction's: it may roll back), the bots whose chat user is there: until when. */
const botUsersStored = new PerHandle<Map<string, number>>();

/**
 * Stores the bot's own chat user when missing (named and pictured after its webchat); answers its id. Every
 * request of the bot asks, so outside a transaction a process asks the database at most once a minute per bot
 * ({@link BOT_USER_KEPT_MS}): the bot's chat user is deleted with the bot only (the Chat API refuses to
 * delete it), and a deleted bot's requests are refused before they get here.
 */
export async function ensureBotUser(db: Kysely<Database>, bot: ChatBot, at: string): Promise<string> {
  const id = botUserId(bot.id);
  const stored = db.isTransaction ? undefined : botUsersStored.get(db);
  const now = Date.now();
  if ((stored?.get(bot.id) ?? 0) > now) return id;
  await chatRepo(db).insertUserIfMissing({
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
  if (!db.isTransaction) {
    const kept = botUsersStored.of(db, () => new Map());
    kept.delete(bot.id);
    kept.set(bot.id, now + BOT_USER_KEPT_MS);
    if (kept.size > BOT_USERS_KEPT) kept.delete(kept.keys().next().value as string);
  }
  return id;
}

/** A conversation of the caller's bot the caller may read (`read`) or take part in (`write`). */
export async function conversationFor(
  db: Kysely<Database>,
  caller: ChatCaller,
  id: string,
  mode: 'read' | 'write',
): Promise<ConversationRow> {
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

/** A message of a conversation the caller may read (`read`) or take part in (`write`). */
export async function messageFor(
  db: Kysely<Database>,
  caller: ChatCaller,
  id: string,
  mode: 'read' | 'write',
): Promise<MessageRow> {
  const row = await chatRepo(db).message(caller.bot.id, id);
  if (!row) throw errors.notFound('Message', id);
  await conversationFor(db, caller, row.conversation_id, mode);
  return row;
}

/** What a list of a conversation reads: `limit + 1` rows of it after a cursor. */
export type ConversationList<R> = (q: {
  botId: string;
  conversationId: string;
  limit: number;
  after: Cursor | undefined;
}) => Promise<R[]>;

/** One page of a list of a conversation the caller may read (its messages, its participants). */
export async function conversationPage<R, T>(
  db: Kysely<Database>,
  caller: ChatCaller,
  conversationId: string,
  query: ChatPageQuery,
  read: ConversationList<R>,
  order: ListOrder<R, T>,
): Promise<Page<T>> {
  await conversationFor(db, caller, conversationId, 'read');
  return chatPage(query, order, (q) => read({ botId: caller.bot.id, conversationId, ...q }));
}
