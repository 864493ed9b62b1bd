import { t } from '../../i18n.js';
/**
 * The text forms of a Q&A entry's fields as the Console's entry form edits them: wordings one per line, tags as
 * `key=value; key=value` (the CLI's CSV cell), and the link that opens the form pre-filled ("Answer this").
 */

/** The wordings of a text area: one per line, trimmed, blanks and repeats (case aside) dropped. */
export function wordingsOf(text: string): string[] {
  const seen = new Set<string>();
  const wordings: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const wording = line.replace(/\s+/g, ' ').trim();
    if (wording && !seen.has(wording.toLowerCase())) {
      seen.add(wording.toLowerCase());
      wordings.push(wording);
    }
  }
  return wordings;
}

/** Tags as one line: `key=value; key=value`. */
export function formatTags(tags: Record<string, string>): string {
  return Object.entries(tags)
    .map(([key, value]) => `${key}=${value}`)
    .join('; ');
}

/** The tags of a `key=value; key=value` line, or the first pair that has no key (a message in words). */
export function parseTags(text: string): { tags: Record<string, string> } | { problem: string } {
  const tags: Record<string, string> = {};
  for (const pair of text.split(';')) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    const key = (eq < 0 ? pair : pair.slice(0, eq)).trim();
    if (eq < 0 || key === '') return { problem: t('qaForm.notKeyValue', { pair: pair.trim() }) };
    tags[key] = pair.slice(eq + 1).trim();
  }
  return { tags };
}

/** The query parameter of the Q&A page holding the wordings to start a new entry with (one per line). */
export const ASK_PARAM = 'ask';

/**
 * The address of a bot's Q&A page with the new-entry form open and filled with `wordings` (what a visitor
 * asked, and how else the same question was put).
 * @example answerThisHref('bot-1', ['Refunds?', 'How do I get a refund?'])
 */
export function answerThisHref(botId: string, wordings: string[]): string {
  const ask = new URLSearchParams({ [ASK_PARAM]: wordingsOf(wordings.join('\n')).join('\n') });
  return `/console/bots/${encodeURIComponent(botId)}/qa?${ask}`;
}

/** A message of a transcript as "Answer this" reads it (the inbox's messages). */
export interface TranscriptTurn {
  author: string;
  text: string;
  answer?: string | undefined;
  feedback?: { value: string } | undefined;
}

/**
 * The visitor questions of a transcript a Q&A entry could answer: each one a bot reply found nothing for or got
 * a thumbs down on (the visitor's last message before that reply), in order, repeats dropped.
 * @example questionsToAnswer([{author: 'visitor', text: 'Refunds?'}, {author: 'bot', text: '…', answer: 'not_found'}]) // ['Refunds?']
 */
export function questionsToAnswer(turns: readonly TranscriptTurn[]): string[] {
  const questions: string[] = [];
  let asked: string | undefined;
  for (const turn of turns) {
    if (turn.author === 'visitor') asked = turn.text;
    else if (turn.author === 'bot' && asked !== undefined) {
      if (turn.answer === 'not_found' || turn.feedback?.value === 'negative') questions.push(asked);
      asked = undefined;
    }
  }
  return wordingsOf(questions.join('\n'));
}

/** The longest sentence offered to pick, in characters (an answer is written, not pasted from a page). */
const MAX_SENTENCE = 400;

/**
 * The sentences of a passage a person may pick as an entry's answer: split at line ends and after `.`, `!` or
 * `?` followed by a space, list markers and heading marks dropped, fragments under 3 words and sentences over
 * 400 characters left out, each once.
 * @example sentencesOf('# Refunds\nRefunds take 5 days. Write to us first!') // ['Refunds take 5 days.', 'Write to us first!']
 */
export function sentencesOf(passage: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const line of passage.split(/\r?\n/)) {
    const text = line
      .replace(/^\s*(?:[-*+]|\d+[.)]|#+|>)\s+/, '')
      .replace(/\s+/g, ' ')
      .trim();
    for (const piece of text.split(/(?<=[.!?])\s+/)) {
      const sentence = piece.trim();
      if (sentence.split(' ').length < 3 || sentence.length > MAX_SENTENCE || seen.has(sentence)) continue;
      seen.add(sentence);
      out.push(sentence);
    }
  }
  return out;
}
