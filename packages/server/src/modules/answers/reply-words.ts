import type { MessagePayload } from '@parley/protocol';
import { answerTexts, type BotWords, builtInWords } from '../bots/index.js';
import type { BotReplyTexts, Reply, ReplyRequest } from '../chat/contract.js';
import { wordsLanguage } from './language.js';
import { type SmallTalk, smallTalkLanguage, smallTalkOf } from './question.js';

// The bot's own words in a knowledge reply (issue #38, item 3): chosen once per reply, in the language the reply
// answers in (language.ts wordsLanguage), and told to the caller as the reply's `language`.

/** How a reply was made, as the debug details tell it. */
export type AnswerMode =
  | 'qa'
  | 'passages'
  | 'generated'
  | 'not_found'
  | 'clarify'
  | 'unsupported'
  | 'small_talk'
  | 'search_failed';

/** The bot's texts of a reply (its own, else the built-in ones) and the language they are in. */
export interface AnswerWords {
  /** The language of the words (BCP 47); undefined: the bot's default language. */
  language: string | undefined;
  /** The texts that differ from the English defaults (the bot's own, else the language's built-in ones). */
  texts: Pick<BotReplyTexts, 'notFound' | 'intro' | 'clarify'>;
}

/**
 * The bot's texts (intro, "not found", the question asked back) in the language the reply `decided`, else the
 * conversation's (`request.language`), else the bot's default language: the bot's own for that language
 * (`request.replies`, its setting), else the language's built-in ones.
 * @example answerWords({ ...request, replies: { locales: { es: { intro: 'Mira:' } } } }, 'es').texts.intro // 'Mira:'
 */
export function answerWords(
  request: Pick<ReplyRequest, 'replies' | 'language'>,
  decided: string | undefined,
) {
  const language = wordsLanguage(decided, request.language);
  return { language, texts: answerTexts(request.replies, language) } satisfies AnswerWords;
}

/** A reply told in the words' language (kept when the reply tells one already). */
export function spokenIn(reply: Reply, language: string | undefined): Reply {
  return reply.language || !language ? reply : { ...reply, language };
}

/** The bot's built-in words of the replies that answer no question, and their language. */
export interface BuiltIn {
  language: string | undefined;
  words: BotWords;
}

/**
 * The bot's built-in words for the replies that answer no question (small talk, a blank message, a payload it
 * cannot read, a failed search): in the question's language (`read`), else the one a small-talk phrase tells
 * ("bonjour"), else the conversation's (`request.language`: the webchat's locale, the bot's default language),
 * else English.
 */
export function builtInFor(
  request: ReplyRequest,
  read: string | undefined,
  text: string | undefined,
): BuiltIn {
  const phrase = text !== undefined ? smallTalkLanguage(text) : undefined;
  const language = wordsLanguage(read ?? phrase, request.language);
  return { language, words: builtInWords(language) };
}

/** A reply of the bot's built-in words alone (no sources). */
function wordsReply(said: BuiltIn, text: string, debug: Record<string, unknown>): Reply {
  return spokenIn({ messages: [{ payload: { type: 'text', text } }], debug }, said.language);
}

/** The reply to a payload the bot cannot read (an image, a card…). */
export function unsupportedReply(type: MessagePayload['type'], said: BuiltIn): Reply {
  return wordsReply(said, said.words.unsupportedMessage, {
    mode: 'unsupported' satisfies AnswerMode,
    payloadType: type,
  });
}

/** The reply when the bot's knowledge cannot be searched. */
export function searchFailedReply(said: BuiltIn, query: string, error: unknown): Reply {
  return wordsReply(said, said.words.searchFailed, {
    mode: 'search_failed' satisfies AnswerMode,
    query,
    error: error instanceof Error ? error.message : String(error),
  });
}

const SMALL_TALK_WORDS = {
  greeting: 'smallTalkGreeting',
  thanks: 'smallTalkThanks',
  goodbye: 'smallTalkGoodbye',
} as const satisfies Record<SmallTalk, keyof BotWords>;

/** The reply to a text that is no question to search for (empty, or small talk), if it is one. */
export function earlyReply(text: string, said: BuiltIn): Reply | undefined {
  if (!text)
    return wordsReply(said, said.words.emptyMessage, { mode: 'unsupported' satisfies AnswerMode, query: '' });
  const smallTalk = smallTalkOf(text);
  if (!smallTalk) return undefined;
  return wordsReply(said, said.words[SMALL_TALK_WORDS[smallTalk]], {
    mode: 'small_talk' satisfies AnswerMode,
    query: text,
    smallTalk,
  });
}
