import type { SearchPassage } from '@parley/protocol';
import { tableRows } from './table-rows.js';

/* A passage's sentences as the extractive answers quote them: its logical lines (hard-wrapped prose joined back,
 * list items and table rows apart), each cut into sentences. Pure functions, no I/O. */

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** How many words of a text hold a letter or a digit. */
export const wordsIn = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/** A line that starts a list item, a heading or a table row. */
const ITEM_START = /^(?:[-*•#>|]|\d+[.)]\s)/u;
/** A line that ends a sentence or introduces what follows. */
const LINE_END = /[.!?:;]["'”’)\]]*$/u;

/**
 * The logical lines of a text: its lines, with the lines of hard-wrapped prose (a text file wrapped at a
 * fixed width) joined back. A line continues the one before when that one ends mid-sentence, is no table
 * row, and either the line starts in lower case or the one before is as long as the text's longest lines.
 * Across a blank line (paragraphs a PDF's line spacing cut apart, as indexed before extraction joined them)
 * only a line starting in lower case continues one that ends mid-sentence.
 */
export function logicalLines(text: string): string[] {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/[ \t]+/g, ' ').trim());
  const longest = Math.max(0, ...lines.map((l) => l.length));
  const out: string[] = [];
  let previous = '';
  /** The last line with text, when only blank lines followed it. */
  let beforeBlank = '';
  for (const line of lines) {
    const midSentence = (before: string) =>
      !LINE_END.test(before) && !before.includes(' | ') && !ITEM_START.test(line);
    const wraps =
      previous !== '' &&
      line !== '' &&
      midSentence(previous) &&
      (/^\p{Ll}/u.test(line) || (previous.length >= 40 && previous.length >= 0.6 * longest));
    const resumes =
      previous === '' &&
      beforeBlank !== '' &&
      line !== '' &&
      midSentence(beforeBlank) &&
      /^\p{Ll}/u.test(line);
    if (wraps || resumes) out[out.length - 1] = `${out[out.length - 1]} ${line}`;
    else if (line) out.push(line);
    if (line) beforeBlank = '';
    else if (previous) beforeBlank = previous;
    previous = line;
  }
  return out;
}

/**
 * The sentences of a search passage: a table's rows with their header names (table-rows.ts), else
 * {@link sentencesOf} its content.
 */
export function passageSentences(passage: Pick<SearchPassage, 'content' | 'meta' | 'file'>): string[] {
  return tableRows(passage) ?? sentencesOf(passage.content);
}

/**
 * The sentences of a passage: each logical line apart (list items, table rows; wrapped prose joined back:
 * {@link logicalLines}), each line cut into sentences; a fragment of fewer than three words (an abbreviation's
 * cut) joins the sentence before it.
 * @example sentencesOf('Refunds take 5 days. Ask us.\n- Exchanges: 14 days') // ['Refunds take 5 days.', 'Ask us.', '- Exchanges: 14 days']
 */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const clean of logicalLines(text)) {
    let first = true;
    for (const { segment } of segmenter.segment(clean)) {
      const s = segment.trim();
      if (!s) continue;
      const last = out.length - 1;
      if (!first && last >= 0 && wordsIn(s) < 3) out[last] = `${out[last]} ${s}`;
      else out.push(s);
      first = false;
    }
  }
  return out;
}
