import type { SearchPassage } from '@parley/protocol';
import { tableRows } from './table-rows.js';

/* A passage's sentences as the extractive answers quote them: its logical lines (hard-wrapped prose joined back,
 * list items and table rows apart), each cut into sentences. Pure functions, no I/O. */

const segmenters = new Map<string, Intl.Segmenter>();

/**
 * The sentence segmenter of a language (English's when none is told): Unicode's sentence rules with the
 * language's own (Japanese and Chinese sentences end at 。！？ without a space).
 */
function sentenceSegmenter(language = 'en'): Intl.Segmenter {
  let segmenter = segmenters.get(language);
  if (!segmenter) {
    const supported = Intl.Segmenter.supportedLocalesOf([language]).length > 0;
    segmenter = new Intl.Segmenter(supported ? language : 'en', { granularity: 'sentence' });
    segmenters.set(language, segmenter);
  }
  return segmenter;
}

/**
 * Abbreviations after which a sentence goes on, by language (Unicode's rules cut after any "word. "): a
 * segment ending with one (or with a single letter and a dot: "z. B.", "p. ex.", "M.") joins the next. English
 * keeps Unicode's rules and the short-fragment rule alone (its figures were tuned so).
 */
const ABBREVIATIONS: Readonly<Record<string, RegExp>> = {
  de: /(?:^|[\s(])(?:\p{L}|ca|bzw|usw|inkl|exkl|zzgl|ggf|evtl|nr|str|tel|mo|di|mi|do|fr|sa|so|jan|feb|mär|apr|aug|sept?|okt|nov|dez|\d{1,2})\.$/iu,
  fr: /(?:^|[\s(])(?:\p{L}|env|tél|av|bd|cf|mme|mlle|min|max|n°|no)\.$/iu,
  es: /(?:^|[\s(])(?:\p{L}|sr|sra|srta|aprox|núm|tel|avda|dto|pág|ej)\.$/iu,
  it: /(?:^|[\s(])(?:\p{L}|sig|ca|tel|ecc|pag|es)\.$/iu,
  pt: /(?:^|[\s(])(?:\p{L}|sr|sra|tel|pág|ex)\.$/iu,
  nl: /(?:^|[\s(])(?:\p{L}|bijv|bv|ca|tel|nr|incl|excl)\.$/iu,
};

/** Han, kana and Hangul characters: written without spaces, about two to a word. */
const CJK_CHARS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/**
 * How many words of a text hold a letter or a digit; in Japanese and Chinese (no spaces), one per two
 * characters.
 * @example wordsIn('Refunds take 5 days.') // 4
 * @example wordsIn('返品は30日以内です。') // 5
 */
export const wordsIn = (text: string) => {
  const cjk = text.match(CJK_CHARS)?.length ?? 0;
  const spaced = cjk === 0 ? text : text.replace(CJK_CHARS, ' ');
  const words = spaced.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  return words + Math.ceil(cjk / 2);
};

/** A line that starts a list item, a heading or a table row. */
const ITEM_START = /^(?:[-*•#>|]|\d+[.)]\s)/u;
/** A line that ends a sentence or introduces what follows. */
const LINE_END = /[.!?:;。！？]["'”’)\]」]*$/u;

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
 * {@link logicalLines}), each line cut into sentences by the rules of `language` (English's when absent); a
 * fragment of fewer than three words (an abbreviation's cut: "z. B.", "p. ex.") joins the sentence before it.
 * @example sentencesOf('Refunds take 5 days. Ask us.\n- Exchanges: 14 days') // ['Refunds take 5 days.', 'Ask us.', '- Exchanges: 14 days']
 * @example sentencesOf('返品は30日以内です。送料は無料です。', 'ja') // ['返品は30日以内です。', '送料は無料です。']
 */
export function sentencesOf(text: string, language?: string): string[] {
  const out: string[] = [];
  const segmenter = sentenceSegmenter(language);
  const abbreviation = ABBREVIATIONS[language ?? 'en'];
  for (const clean of logicalLines(text)) {
    let first = true;
    /** The segment before ended with an abbreviation: this one goes on with it. */
    let goesOn = false;
    for (const { segment } of segmenter.segment(clean)) {
      const s = segment.trim();
      if (!s) continue;
      const last = out.length - 1;
      if (!first && last >= 0 && (goesOn || wordsIn(s) < 3)) out[last] = `${out[last]} ${s}`;
      else out.push(s);
      goesOn = abbreviation?.test(s) === true;
      first = false;
    }
  }
  return out;
}
