// What kind of answer a question expects (a duration, a time of day, a price, a place, a person…) and whether a
// sentence carries one. Table-driven: a language adds its table (answer-types/: its question forms, the words
// that carry an answer in its sentences, its type words) to TABLES. Pure functions, no I/O; extract.ts uses them
// to prefer, within a passage, the sentence that states the answer.
import { de } from './answer-types/de.js';
import { CARRIERS, en } from './answer-types/en.js';
import { es } from './answer-types/es.js';
import { fr } from './answer-types/fr.js';
import { ja } from './answer-types/ja.js';
import type { AnswerType, Expected, LanguageTable } from './answer-types/shared.js';

export type { AnswerType, Expected } from './answer-types/shared.js';

/** Each language's table, by ISO 639-1 code. */
const TABLES: ReadonlyMap<string, LanguageTable> = new Map(Object.entries({ en, fr, de, es, ja }));

/**
 * Types whose carriers are guesses (a capitalised word after "in" may be a place or a company, "team" may not
 * name who answers): they choose among a passage's sentences, never one passage over another. On SQuAD's held-out
 * split, letting "where" move passages turned 2 right answers wrong (bench/answers.ts).
 */
export const GUESSED_TYPES: ReadonlySet<AnswerType> = new Set(['place', 'person']);

/** Each language's type words ({@link LanguageTable.typeWords}), by ISO 639-1 code. */
export const TYPE_WORDS: Readonly<Record<string, Partial<Record<AnswerType, string>>>> = Object.fromEntries(
  [...TABLES].map(([language, table]) => [language, table.typeWords]),
);

/**
 * The answer types a question in `language` expects, the first the most (empty when its form says nothing:
 * "Can I…?", or the language has no rules).
 * @example expectedAnswer('What are your support hours?') // [{ type: 'time', weight: 1 }]
 * @example expectedAnswer('How much are the headphones?') // [{ type: 'price', weight: 1 }, { type: 'number', weight: 0.5 }]
 * @example expectedAnswer('Combien de jours pour un retour ?', 'fr') // [{ type: 'duration', weight: 1 }]
 */
export function expectedAnswer(question: string, language = 'en'): Expected {
  for (const rule of TABLES.get(language)?.rules ?? []) if (rule.asks.test(question)) return rule.expects;
  return [];
}

/** Whether a sentence carries an answer of this type (English's carriers, and those of `language`). */
export function carries(sentence: string, type: AnswerType, language?: string): boolean {
  const own = language ? TABLES.get(language)?.carriers[type] : undefined;
  return (
    CARRIERS[type].some((pattern) => pattern.test(sentence)) || own?.some((p) => p.test(sentence)) === true
  );
}

/**
 * How well a sentence carries what the question expects: the weight of the first expected type it carries
 * (1 for the question's own type, less for a looser one), 0 when it carries none.
 * @example carrierWeight('Call us 9:00–17:00.', expectedAnswer('What are your support hours?')) // 1
 * @example carrierWeight('Die Frist beträgt 30 Tage.', expectedAnswer('Wie lange habe ich Zeit?', 'de'), 'de') // 1
 */
export function carrierWeight(sentence: string, expected: Expected, language?: string): number {
  let best = 0;
  for (const { type, weight } of expected)
    if (weight > best && carries(sentence, type, language)) best = weight;
  return best;
}
