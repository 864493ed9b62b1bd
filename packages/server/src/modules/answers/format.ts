import type { MessagePayload } from '@parley/protocol';
import { ENGLISH_WORDS } from '../bots/index.js';

/** A passage the answer rests on, with its source file and the citation number it carries (1, 2, …). */
export interface AnswerSource {
  n: number;
  fileId: string;
  key: string;
  /** The file's `metadata.title` when it has one, else its key. */
  title: string;
  /**
   * A URL a chat user can open, only when the bot's `sourceLinks` setting links this source (else undefined:
   * the source is named, never linked): the reply's own source link (Chat API, permanent while the source is
   * the bot's knowledge and the setting links it) when the reply's id is known, else the target itself (a
   * metadata `sourceUrl`, a public file's permanent URL, or under `all` a signed, short-lived download URL).
   */
  url: string | undefined;
  /** When a signed URL stops working (ISO 8601); absent for permanent URLs and source links. */
  urlExpiresAt?: string;
  pageNumber?: number;
  score: number;
  /** What the reply quotes: the sentences of the passage that answer the question. */
  content: string;
  /** The headings above the passage (outermost first), shown as the quote's context. */
  heading?: string[];
  /** The whole passage the quote comes from (what a chat model reads); the quote when absent. */
  passage?: string;
}

/**
 * What the bot says before the quotes of an answer, in English (the request's `replies.intro` replaces it: the
 * bot's own words, or the built-in words of the question's language, bots/words/).
 */
export const INTRO_TEXT = ENGLISH_WORDS.intro;
/** What the bot says when nothing relevant is found, in English (the request's `replies.notFound` replaces it). */
export const NOT_FOUND_TEXT = ENGLISH_WORDS.notFound;
/** What the bot says to a payload it cannot read, in English (in the question's language: bots/words/). */
export const UNSUPPORTED_TEXT = ENGLISH_WORDS.unsupportedMessage;
/** What the bot says to a blank message, in English. */
export const EMPTY_TEXT = ENGLISH_WORDS.emptyMessage;
/** What the bot says to small talk (see `smallTalkOf`), in English. */
export const SMALL_TALK_TEXT = {
  greeting: ENGLISH_WORDS.smallTalkGreeting,
  thanks: ENGLISH_WORDS.smallTalkThanks,
  goodbye: ENGLISH_WORDS.smallTalkGoodbye,
} as const;
/** What the bot says when its knowledge base cannot be searched, in English. */
export const SEARCH_FAILED_TEXT = ENGLISH_WORDS.searchFailed;

/** The longest quote of a passages answer, in characters (quotes are a few sentences: a safety cut). */
export const MAX_QUOTE_CHARS = 600;

/**
 * A passage cut for quoting: blank-line runs collapsed, spaces squeezed, cut at a word boundary to at most
 * `max` characters with an ellipsis.
 * @example trimPassage('a  long\n\n\ntext', 6) // 'a long…'
 */
export function trimPassage(text: string, max = MAX_QUOTE_CHARS): string {
  const clean = text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const space = cut.search(/\s\S*$/);
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Markdown quote of a text (every line prefixed with `> `, blank ones kept in the quote). */
export function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

/**
 * The quote blocks of a markdown reply (runs of `>` lines), their `> ` marks removed, in order: what a
 * passages answer quotes (the inverse of {@link quote}), for the tests and the answers benchmark.
 * @example quotesIn('Found:\n\n> Refunds take 5 days.\n\n— [faq](…)') // ['Refunds take 5 days.']
 */
export function quotesIn(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('>')) {
      current ??= [];
      current.push(line.replace(/^> ?/, ''));
    } else if (current) {
      blocks.push(current.join('\n'));
      current = undefined;
    }
  }
  if (current) blocks.push(current.join('\n'));
  return blocks;
}

/** Escapes the characters that would end or format a markdown link text. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#|]/g, '\\$&');
}

/** A URL safe inside markdown link parentheses. */
export function markdownUrl(url: string): string {
  return url.replace(/[()\s<>]/g, (c) => (c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c)));
}

/**
 * A source's name with its page: `handbook.pdf, page 3`.
 * @example sourceLabel({ title: 'guide.pdf', pageNumber: 2 }) // 'guide.pdf, page 2'
 */
export function sourceLabel(source: Pick<AnswerSource, 'title' | 'pageNumber'>): string {
  return source.pageNumber ? `${source.title}, page ${source.pageNumber}` : source.title;
}

/** A markdown link to a source (its label alone when it has no URL). */
export function sourceLink(source: Pick<AnswerSource, 'title' | 'pageNumber' | 'url'>): string {
  const label = escapeMarkdown(sourceLabel(source));
  return source.url ? `[${label}](${markdownUrl(source.url)})` : label;
}

/** The metadata a bot message carries about its sources. */
export function sourcesMetadata(sources: readonly AnswerSource[]): {
  sources: Array<{ fileId: string; key: string; pageNumber?: number; score: number }>;
} {
  return {
    sources: sources.map((s) => ({
      fileId: s.fileId,
      key: s.key,
      ...(s.pageNumber ? { pageNumber: s.pageNumber } : {}),
      score: s.score,
    })),
  };
}

/**
 * The headings a quote is shown under: the passage's headings, without the ones that only repeat the source's
 * title (a document's own title heading). `Returns › Refunds`, or undefined.
 */
export function headingContext(source: Pick<AnswerSource, 'title' | 'heading'>): string | undefined {
  const title = source.title.trim().toLowerCase();
  const path = (source.heading ?? []).filter((h) => h.trim() && h.trim().toLowerCase() !== title);
  return path.length > 0 ? path.join(' › ') : undefined;
}

/**
 * The reply when nothing relevant is found: the bot's own text (Markdown) when it has one, else
 * {@link NOT_FOUND_TEXT} as plain text.
 */
export function notFoundPayload(text: string | undefined): MessagePayload {
  return text ? { type: 'markdown', markdown: text } : { type: 'text', text: NOT_FOUND_TEXT };
}

/**
 * The answer without a chat model: the intro (the bot's own or {@link INTRO_TEXT}), then each quote under its
 * headings (when the passage has any beyond the document's title), followed by a link to its source.
 * @example passagesAnswer(sources).markdown // 'Here is what I found…\n\n*Returns*\n\n> Refunds…\n\n— [handbook.md](…)'
 */
export function passagesAnswer(
  sources: readonly AnswerSource[],
  intro: string = INTRO_TEXT,
): MessagePayload & { type: 'markdown' } {
  const blocks = sources.map((s) => {
    const context = headingContext(s);
    const quoted = `${quote(trimPassage(s.content))}\n\n— ${sourceLink(s)}`;
    return context ? `*${escapeMarkdown(context)}*\n\n${quoted}` : quoted;
  });
  return { type: 'markdown', markdown: [intro, ...blocks].join('\n\n') };
}

/**
 * The citation numbers an answer uses (`[1]`, `[2, 3]`, `[1][4]`), in order of first use, only those from 1
 * to `count`.
 * @example citationsOf('Yes [2]. Also [1, 2] and [9].', 3) // [2, 1]
 */
export function citationsOf(answer: string, count: number): number[] {
  const seen = new Set<number>();
  for (const m of answer.matchAll(/\[(\d+(?:\s*[,;]\s*\d+)*)\]/g)) {
    for (const part of (m[1] ?? '').split(/[,;]/)) {
      const n = Number(part.trim());
      if (Number.isInteger(n) && n >= 1 && n <= count) seen.add(n);
    }
  }
  return [...seen];
}

/**
 * The sources an answer cites, in order of first citation; all of them when it cites none (the answer was
 * written from them all).
 */
export function citedSources(answer: string, sources: readonly AnswerSource[]): AnswerSource[] {
  const cited = citationsOf(answer, sources.length);
  if (cited.length === 0) return [...sources];
  return cited.map((n) => sources[n - 1] as AnswerSource);
}

/**
 * A chat model's answer with a "Sources" list whose numbers match its citations.
 * @example generatedAnswer('Within 30 days [1].', sources).markdown // 'Within 30 days [1].\n\n**Sources**\n\n- \\[1\\] [handbook.md](…)'
 */
export function generatedAnswer(
  answer: string,
  cited: readonly AnswerSource[],
): MessagePayload & { type: 'markdown' } {
  const list = cited.map((s) => `- \\[${s.n}\\] ${sourceLink(s)}`).join('\n');
  return { type: 'markdown', markdown: `${answer.trim()}\n\n**Sources**\n\n${list}` };
}
