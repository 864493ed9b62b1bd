import type { SearchPassage } from '@parley/protocol';
import { baseLanguage, messageLanguage, sureLanguage } from '../../search/language/detect.js';
import type { ReplyRequest } from '../chat/contract.js';

// The language of a question and of its answer (issue #38): detected per visitor message, with the conversation
// and the webchat's locale as tie-breakers (search/language/detect.ts), then matched with the passages found.

/** The locale the webchat sent with a message (`metadata.language`: the visitor's browser language). */
function sentLocale(metadata: Record<string, unknown> | undefined): string | undefined {
  const value = metadata?.language;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The language of the visitor's question (ISO 639-1): the message's own when the detector is sure of it, else
 * the language of the visitor's earlier messages in the history, else the locale the webchat sent with the
 * message (or with an earlier one); undefined when nothing tells (a short message alone: an unsure guess would
 * take an English question for another language and search it without the embedder).
 * @example questionLanguage({ ...request, message: { ...message, payload: { type: 'text', text: 'Wie lange dauert der Versand?' } } }) // 'de'
 */
export function questionLanguage(request: ReplyRequest, text: string): string | undefined {
  const visitor = request.history.filter((m) => !m.isBot && m.id !== request.message.id);
  const earlier = visitor.flatMap((m) =>
    m.payload.type === 'text' ? [m.payload.text] : m.payload.type === 'markdown' ? [m.payload.markdown] : [],
  );
  const locale =
    sentLocale(request.message.metadata) ??
    visitor.map((m) => sentLocale(m.metadata)).findLast((l) => l !== undefined);
  return messageLanguage(text, { earlier, locale });
}

/** Passages whose language is compared with the question's (the ones the extraction quotes from first). */
const COMPARED_PASSAGES = 3;

/**
 * The language a question is read in against the passages found: English for an English question (its terms
 * match any document's words as they always did); its own when some of the best passages are surely written in
 * it; else the language of the first of them the detector is sure of (a question in one language about
 * documents in another can only match their words, a product name, a number; and a question too short to tell
 * is read in the language of what it found); else the language of all of them together, when the detector is
 * sure of it (short passages, a heading or an FAQ line each, say nothing alone); else its own (undefined: English).
 * @example answerLanguage('de', germanPassages) // 'de'
 * @example answerLanguage(undefined, germanPassages) // 'de' (a short question: its passages tell)
 * @example answerLanguage('en', germanPassages) // 'en'
 */
export function answerLanguage(
  question: string | undefined,
  passages: readonly Pick<SearchPassage, 'content'>[],
): string | undefined {
  if (question === 'en') return question;
  const languages = passages
    .slice(0, COMPARED_PASSAGES)
    .map((p) => sureLanguage(p.content))
    .filter((l): l is string => l !== undefined);
  if (question && languages.includes(question)) return question;
  // Short passages (headings, FAQ lines) tell nothing alone: then all of them together.
  return languages[0] ?? sureLanguage(passages.map((p) => p.content).join('\n')) ?? question;
}

/**
 * The language of the bot's own words around a reply (issue #38, item 3), chosen once: the one the reply
 * `decided` (its question's or its passages', answerLanguage), with the conversation's region when it is the
 * same language (`fr-CA`: the bot's fr-CA texts first); else the `conversation`'s (the caller's tie-breaker: the
 * locale the webchat sent, the webchat's default locale, the bot's default language); undefined when neither.
 * @example wordsLanguage('es', 'en') // 'es'
 * @example wordsLanguage('fr', 'fr-CA') // 'fr-CA'
 * @example wordsLanguage(undefined, 'de-AT') // 'de-AT'
 */
export function wordsLanguage(
  decided: string | undefined,
  conversation: string | undefined,
): string | undefined {
  if (!decided) return conversation;
  return conversation && baseLanguage(conversation) === decided ? conversation : decided;
}
