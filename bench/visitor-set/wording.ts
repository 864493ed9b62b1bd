// The visitor set's wording classes (issue 33), computed, never labelled by hand: a question is a
// `paraphrase` when it shares no content word with the sentences of its source that hold its expected facts,
// `lexical` otherwise. Deliberately generous to `lexical`: two words count as shared when their Porter stems
// are equal, when one (of 3 letters or more) begins the other (pay / payment, deliver / delivery), or when
// their stems share their first 5 letters; numbers are content words.
import { stemmer } from 'stemmer';

/** A question's wording class. */
export type Wording = 'paraphrase' | 'lexical';

/**
 * Words that carry no content of their own: English function words, the words questions are built from
 * (how long, how much), greetings and fillers.
 */
const STOP_WORDS = new Set(
  `a about above after again against all am an and any anybody anyone anything are as at be because been before
  being below between both but by can cannot could did do does doing done down during each either else ever every
  few for from further had has have having he her here hers herself him himself his how i if in into is it its
  itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own
  same she should so some somebody someone something such than that the their theirs them themselves then there
  these they this those through to too under until up upon very was we were what whats when where which while who
  whom whose why will with would you your yours yourself yourselves
  im ive id ill youre youve dont doesnt didnt cant couldnt wont wouldnt isnt arent wasnt shouldnt theres s t d ll
  m re ve
  long much many get gets got getting go goes going able also please hi hello hey thanks thank ok okay yes yeah
  really still need needs want wants let lets like would kind sort way thing things there`
    .split(/\s+/)
    .filter(Boolean),
);

/** The words of a text: lower-cased runs of letters and digits, apostrophes dropped (don't → dont). */
export function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/['\u2019]/g, '')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** The content words of a text: its words without the stop words. */
export function contentWords(text: string): string[] {
  return wordsOf(text).filter((w) => !STOP_WORDS.has(w));
}

/** Whether two content words count as the same word (see the module's comment). */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 3 && long.startsWith(short)) return true;
  const sa = stemmer(a);
  const sb = stemmer(b);
  return sa === sb || (sa.length >= 5 && sb.length >= 5 && sa.slice(0, 5) === sb.slice(0, 5));
}

/** The content words of `question` that `answer` shares. */
export function sharedWords(question: string, answer: string): string[] {
  const theirs = contentWords(answer);
  return [...new Set(contentWords(question))].filter((w) => theirs.some((t) => sameWord(w, t)));
}

/** Text with every run of white space one space, lower-cased: what fact matching compares. */
export const flat = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The sentences of a document's text: its lines, and within a line of prose its sentences (split after `.`,
 * `!` or `?` followed by a space). A CSV's row is one sentence with its header line before it (a row is read
 * with its column names).
 */
export function sentencesOf(text: string, csv = false): string[] {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (csv) {
    const [header = '', ...rows] = lines;
    return rows.map((row) => `${header}\n${row}`);
  }
  // Paragraphs first (a hard-wrapped paragraph is one text), then sentences.
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, ' ').trim())
    .filter(Boolean);
  return paragraphs.flatMap((p) => p.split(/(?<=[.!?])\s+(?=\S)/));
}

/** The sentences of `text` that hold at least one of `facts`. */
export function answerSentences(text: string, facts: readonly string[], csv = false): string[] {
  const wanted = facts.map(flat);
  return sentencesOf(text, csv).filter((s) => wanted.some((f) => flat(s).includes(f)));
}

/** A question's wording against the sentences of its source holding its facts. */
export function wordingOf(question: string, answerText: readonly string[]): Wording {
  return sharedWords(question, answerText.join('\n')).length === 0 ? 'paraphrase' : 'lexical';
}
