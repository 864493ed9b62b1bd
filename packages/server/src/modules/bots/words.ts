import { BOT_REPLY_FIELDS, type BotReplies, type BotReplyTexts, webchatLocaleOf } from '@parley/protocol';
import AR from './words/ar.json' with { type: 'json' };
import DE from './words/de.json' with { type: 'json' };
import EN from './words/en.json' with { type: 'json' };
import ES from './words/es.json' with { type: 'json' };
import FR from './words/fr.json' with { type: 'json' };
import HE from './words/he.json' with { type: 'json' };
import IT from './words/it.json' with { type: 'json' };
import JA from './words/ja.json' with { type: 'json' };
import NL from './words/nl.json' with { type: 'json' };
import PT from './words/pt.json' with { type: 'json' };
import ZH from './words/zh.json' with { type: 'json' };

// The bot's own words per language (issue #38, item 3): one JSON catalog a language in words/ (the languages
// the webchat ships in), and a bot's texts per language over them (its `replies` setting).

/** The bot's built-in words in one language: its reply texts, its handoff messages and its buttons. */
export type BotWords = typeof EN;

const CATALOGS: Record<string, BotWords> = {
  en: EN,
  fr: FR,
  de: DE,
  es: ES,
  it: IT,
  pt: PT,
  nl: NL,
  ja: JA,
  zh: ZH,
  ar: AR,
  he: HE,
};

/** The languages of the bot's built-in words (one catalog each; `en` is the fallback of every other). */
export const BOT_WORD_LANGUAGES: readonly string[] = Object.keys(CATALOGS);

/** The English words: the texts a bot says when no language is known. */
export const ENGLISH_WORDS: BotWords = EN;

/**
 * The tags a text of `tag` is looked up by, most precise first: `fr-CA` → `['fr-CA', 'fr']`.
 * @example tagChain('pt-BR') // ['pt-BR', 'pt']
 */
export function tagChain(tag: string): string[] {
  const parts = canonicalTag(tag).split('-');
  const chain: string[] = [];
  for (let n = parts.length; n > 0; n--) chain.push(parts.slice(0, n).join('-'));
  return chain;
}

/**
 * A language tag in its canonical case (`fr-ca` → `fr-CA`), as the bot's texts are stored under; the tag as
 * given when it is no BCP-47 tag.
 */
export function canonicalTag(tag: string): string {
  try {
    return Intl.getCanonicalLocales(tag.replace(/_/g, '-'))[0] ?? tag;
  } catch {
    return tag;
  }
}

/** The built-in words of a language tag by its chain (`fr-CA → fr`), else English. */
export function builtInWords(tag: string | undefined): BotWords {
  const shipped = tag ? webchatLocaleOf(tag) : undefined;
  return (shipped && CATALOGS[shipped]) || EN;
}

/** Each text field of `texts` under its key (only the ones set). */
function ownTexts(texts: BotReplyTexts | undefined): BotReplyTexts {
  const out: BotReplyTexts = {};
  for (const field of BOT_REPLY_FIELDS) if (texts?.[field]) out[field] = texts[field];
  return out;
}

/**
 * What the bot says in `language` (the question's, else the conversation's; undefined: unknown): for each text,
 * the bot's own by the language's chain (`replies.locales['fr-CA']`, then `['fr']`, then the top-level texts
 * when `fr` is the bot's default language), else the language's built-in words; a language without built-in
 * words (or none) takes the bot's default language: its own texts, else that language's built-in words.
 * `own` holds only the bot's own texts (Markdown); `words` every text, built-in ones filled in.
 * @example wordsFor({ language: 'de', notFound: 'Nichts.' }, 'de').words.notFound // 'Nichts.'
 */
export function wordsFor(
  replies: BotReplies | undefined,
  language: string | undefined,
): { language: string; own: BotReplyTexts; words: BotWords } {
  const defaultTag = replies?.language ?? 'en';
  const shipped = language ? webchatLocaleOf(language) : undefined;
  const tag = shipped && language ? language : defaultTag;
  const base = webchatLocaleOf(tag) ?? 'en';
  const own: BotReplyTexts = {};
  const layers: BotReplyTexts[] = tagChain(tag).map((t) => ownTexts(replies?.locales?.[t]));
  if ((webchatLocaleOf(defaultTag) ?? 'en') === base) layers.push(ownTexts(replies));
  for (const layer of layers.reverse()) Object.assign(own, layer);
  return { language: base, own, words: { ...builtInWords(base), ...own } };
}

/**
 * The texts a knowledge answer says in `language` that differ from the English defaults: the bot's own for that
 * language, else the language's built-in words (for English: only the bot's own), as `ReplyRequest.replies`.
 * @example answerTexts({}, 'fr').intro // "Voici ce que j'ai trouvé dans ma base de connaissances :"
 */
export function answerTexts(
  replies: BotReplies | undefined,
  language: string | undefined,
): Pick<BotReplyTexts, 'notFound' | 'intro' | 'clarify'> {
  const { words } = wordsFor(replies, language);
  const texts: Pick<BotReplyTexts, 'notFound' | 'intro' | 'clarify'> = {};
  for (const field of ['notFound', 'intro', 'clarify'] as const)
    if (words[field] !== EN[field]) texts[field] = words[field];
  return texts;
}

/** A text with its `{name}` placeholders filled from `values` (unknown ones kept). */
export function fillWords(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all);
}
