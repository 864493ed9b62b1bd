import {
  DEFAULT_HANDOFF_WAIT_SECONDS,
  HANDOFF_CHOICE_VALUE,
  type MessagePayload,
  withinOpeningHours,
} from '@parley/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type BotWords, ENGLISH_WORDS, fillWords } from '../bots/index.js';
import { type ChatContext, ensureBotUser } from './context.js';
import type { ChatBot, ChatHandoffWaitJob, ChatWebhookJob, PendingSignal } from './contract.js';
import { CHAT_HANDOFF_WAIT_JOB, CHAT_WEBHOOK_JOB } from './job-kinds.js';
import { signalTo, toPostedMessage } from './records.js';
import { newMessageRow, storeMessages } from './repo-contents.js';
import { HANDOFF_ANSWER } from './repo-inbox.js';
import { webhookEvent } from './webhooks.js';
import { conversationWords } from './words.js';

/** What the bot says when nobody took the conversation within the bot's wait (English; else words/). */
export const HANDOFF_TIMEOUT_TEXT = ENGLISH_WORDS.handoffTimeout;
/** What the bot says when a person is asked for outside the bot's opening hours. */
export const HANDOFF_CLOSED_TEXT = ENGLISH_WORDS.handoffClosed;
/** What the bot says once the visitor left an e-mail address. */
export const visitorEmailText = (email: string, words: BotWords = ENGLISH_WORDS) =>
  fillWords(words.emailThanks, { email });

/** The metadata of the bot's message asking for the visitor's e-mail address (the webchat shows a form). */
export const EMAIL_FORM = { form: 'email' } as const;

/** The URL a bot's `conversation.handoff_requested` goes to: its handoff webhook, else its webhook-mode URL. */
export function handoffWebhookUrl(bot: ChatBot): string | null {
  return bot.handoff?.webhookUrl ?? (bot.replyMode === 'webhook' ? bot.webhookUrl : null);
}

/**
 * What a request for a person queues in its transaction `tx`: the end of the wait (a `chat_handoff_wait` job
 * run when the bot's wait is over, at once outside its opening hours: any process runs it) and, when the bot
 * has a URL for it, the `conversation.handoff_requested` webhook.
 */
export async function awaitPerson(
  tx: Kysely<Database>,
  ctx: Pick<ChatContext, 'jobs' | 'clock'>,
  bot: ChatBot,
  row: { id: string; waiting_since: string | null },
  at: string,
): Promise<void> {
  const waitingSince = row.waiting_since ?? at;
  const now = ctx.clock();
  const open = withinOpeningHours(bot.handoff?.openingHours, now);
  const waitMs = open ? (bot.handoff?.waitSeconds ?? DEFAULT_HANDOFF_WAIT_SECONDS) * 1000 : 0;
  const job: ChatHandoffWaitJob = { botId: bot.id, conversationId: row.id, waitingSince };
  await ctx.jobs.enqueue(CHAT_HANDOFF_WAIT_JOB, job, {
    tx,
    runAfter: new Date(now.getTime() + waitMs),
  });
  if (!handoffWebhookUrl(bot)) return;
  const event = webhookEvent(
    bot,
    'conversation.handoff_requested',
    { conversationId: row.id, handoff: { state: 'pending', waitingSince } },
    at,
  );
  const webhook: ChatWebhookJob = { botId: bot.id, event, to: 'handoff' };
  await ctx.jobs.enqueue(CHAT_WEBHOOK_JOB, webhook, { tx });
}

/** Whether the bot's opening hours (if any) are closed at `at`. */
export function closedAt(bot: ChatBot, at: Date): boolean {
  return !withinOpeningHours(bot.handoff?.openingHours, at);
}

/** A plausible e-mail address: one @, a dot in the domain, no spaces, at most 254 characters. */
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

/** The label of the option the bot's not-found reply offers a person with (English; else words/). */
export const TALK_TO_PERSON_LABEL = ENGLISH_WORDS.talkToPerson;

/**
 * The not-found reply's payload with a "Talk to a person" choice under it (its value asks for a person, see
 * HANDOFF_CHOICE_VALUE) when the bot offers one after this many misses: `misses` counts this reply. A payload
 * other than text or Markdown is left as it is.
 */
export function offerPerson(
  bot: ChatBot,
  payload: MessagePayload,
  misses: number,
  words: BotWords = ENGLISH_WORDS,
): MessagePayload {
  const after = bot.handoff?.offerAfterMisses ?? 0;
  if (after === 0 || misses < after) return payload;
  const text = payload.type === 'text' ? payload.text : payload.type === 'markdown' ? payload.markdown : null;
  if (text === null) return payload;
  return { type: 'choice', text, options: [{ label: words.talkToPerson, value: HANDOFF_CHOICE_VALUE }] };
}

/** Stores the bot's notice (a text about who answers, answer mode `handoff`) in `tx` and signals it. */
export async function postBotNotice(
  tx: Kysely<Database>,
  bot: ChatBot,
  conversationId: string,
  notice: { text: string; metadata: Record<string, unknown> },
  at: string,
  emit: (s: PendingSignal) => void,
): Promise<void> {
  const message = newMessageRow(
    bot.id,
    conversationId,
    { userId: await ensureBotUser(tx, bot, at), isBot: true, answer: HANDOFF_ANSWER },
    {
      payload: JSON.stringify({ type: 'text', text: notice.text }),
      metadata: JSON.stringify(notice.metadata),
    },
    at,
  );
  await storeMessages(tx, [message]);
  emit(signalTo(conversationId, { type: 'message_created', data: toPostedMessage(message, undefined) }));
}

/** The e-mail address a visitor's message leaves (`metadata.contactEmail`, the webchat's form), if any. */
export function contactEmailOf(metadata: Record<string, unknown> | undefined): string | undefined {
  const value = metadata?.contactEmail;
  return typeof value === 'string' ? value.trim() : undefined;
}

/** Stores the e-mail address a visitor left with the conversation in `tx`; the bot thanks them. */
export async function leaveEmail(
  tx: Kysely<Database>,
  bot: ChatBot,
  conversationId: string,
  email: string,
  at: string,
  emit: (s: PendingSignal) => void,
): Promise<void> {
  await tx
    .updateTable('chat_conversations')
    .set({ visitor_email: email })
    .where('bot_id', '=', bot.id)
    .where('id', '=', conversationId)
    .execute();
  const text = visitorEmailText(email, await conversationWords(tx, bot, conversationId));
  await postBotNotice(tx, bot, conversationId, { text, metadata: {} }, at, emit);
}

/**
 * Takes the conversation's row lock in `tx` (an update that changes nothing), waiting for a transaction that
 * holds it, e.g. a bot reply being posted (see botTurnOf), to end.
 */
export async function holdConversation(tx: Kysely<Database>, botId: string, id: string): Promise<void> {
  await tx
    .updateTable('chat_conversations')
    .set((eb) => ({ handoff_state: eb.ref('handoff_state') }))
    .where('bot_id', '=', botId)
    .where('id', '=', id)
    .execute();
}
