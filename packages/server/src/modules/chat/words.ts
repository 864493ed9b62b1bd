import type { MessagePayload } from '@parley/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { baseLanguage, messageLanguage } from '../../search/language/detect.js';
import { type BotWords, wordsFor } from '../bots/index.js';
import type { ChatBot } from './contract.js';
import { payloadText } from './inbox.js';

// The language the bot speaks in a conversation (issue #38, item 3): the visitor's question's, else the
// locale the webchat sent with it, else the webchat's default locale, else the bot's default language.

/** A visitor message as the language is told from: its text and the metadata the webchat sent with it. */
export interface Spoken {
  payload: MessagePayload;
  metadata?: Record<string, unknown> | undefined;
}

/** The locale the webchat sent with a message (the visitor's browser language), when it is a text. */
function sentLocale(metadata: Record<string, unknown> | undefined): string | undefined {
  const value = metadata?.language;
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, 35) : undefined;
}

/**
 * The conversation's language, the tie-breaker of the bot's words when a message does not tell its own: the locale
 * the webchat sent with the message, else the bot's webchat default locale, else the bot's default language
 * (English unless set).
 * @example conversationLanguage(bot, { payload, metadata: { language: 'fr-CA' } }) // 'fr-CA'
 */
export function conversationLanguage(bot: Pick<ChatBot, 'replies' | 'webchat'>, message: Spoken): string {
  return (
    sentLocale(message.metadata) ?? (bot.webchat.defaultLocale || undefined) ?? bot.replies?.language ?? 'en'
  );
}

/**
 * The language of a visitor's message: the detector's when it is sure, else that of the visitor's `earlier`
 * messages (the answers module reads the question the same way, search/language/detect.ts), else the locale the
 * webchat sent with it, else the bot's webchat default locale, else the bot's default language (English unless
 * set); with that hint's region when it is in the same language (`fr-CA`).
 * @example messageLanguageOf(bot, { payload: { type: 'text', text: 'Wie lange dauert die Rückgabe?' } }) // 'de'
 */
export function messageLanguageOf(
  bot: Pick<ChatBot, 'replies' | 'webchat'>,
  message: Spoken,
  earlier: readonly Spoken[] = [],
): string | undefined {
  const hint = conversationLanguage(bot, message);
  const texts = earlier.map((m) => payloadText(m.payload)).filter((text) => text.trim() !== '');
  const detected = messageLanguage(payloadText(message.payload), { earlier: texts, locale: hint });
  // The hint's region is kept when it is the detected language's (fr-CA → the bot's fr-CA texts first).
  return detected && baseLanguage(hint) === detected ? hint : detected;
}

/**
 * What the bot says in a conversation now (its handoff messages, its buttons): in the language of the visitor's
 * latest message when the detector is sure of it; else in the one the bot's latest answer's words were in (its
 * details, issue #38: "Hablar con una persona" picked under a Spanish answer tells nothing itself); else by the
 * latest message's locale and the bot's defaults (a bot's own texts first); in the bot's default language when the
 * visitor wrote nothing.
 */
export async function conversationWords(
  db: Kysely<Database>,
  bot: Pick<ChatBot, 'id' | 'replies' | 'webchat'>,
  conversationId: string,
): Promise<BotWords> {
  const latest = (isBot: number, columns: Array<'payload' | 'metadata' | 'details'>) =>
    db
      .selectFrom('chat_messages')
      .select(columns)
      .where('bot_id', '=', bot.id)
      .where('conversation_id', '=', conversationId)
      .where('is_bot', '=', isBot)
      .$if(isBot === 1, (q) => q.where('details', 'is not', null))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  const row = await latest(0, ['payload', 'metadata']);
  const message = row ? parsedMessage(row) : undefined;
  if (!message) return wordsFor(bot.replies, undefined).words;
  const told = messageLanguage(payloadText(message.payload));
  const answered = told ? undefined : wordsLanguageOf((await latest(1, ['details']))?.details);
  return wordsFor(bot.replies, answered ?? messageLanguageOf(bot, message)).words;
}

/** The language of the words of a bot reply, as its stored details tell it (`language.words`), if they do. */
function wordsLanguageOf(details: string | null | undefined): string | undefined {
  try {
    const words = (JSON.parse(details ?? 'null') as { language?: { words?: unknown } } | null)?.language
      ?.words;
    return typeof words === 'string' && words ? words : undefined;
  } catch {
    return undefined;
  }
}

/** A stored message's payload and metadata, or undefined when either is unreadable. */
function parsedMessage(row: { payload: string; metadata: string | null }): Spoken | undefined {
  try {
    const metadata = row.metadata ? (JSON.parse(row.metadata) as Record<string, unknown>) : undefined;
    return { payload: JSON.parse(row.payload) as MessagePayload, metadata };
  } catch {
    return undefined;
  }
}
