import { contentTerms, stemsOf } from '../terms.js';
import { languageTokens, type TokenLanguage, tokenLanguage } from './tokens.js';

/**
 * The content terms of a question and the terms of a text, in the question's language (issue #38): what the
 * extractive answer weighs, matches and gates on. English (or no language of its own): Porter stems of the
 * folded words, as always (search/terms.ts). Other languages: the tokens the lexical index stores for them
 * (tokens.ts: Snowball stems without stop words; Japanese and Chinese words with their bigrams), so a German
 * question meets a German document on the same stems the search found it by.
 */

/**
 * Words that make a question's form, not its subject (the `how long`, `how much` of English): the answer holds
 * a number, a date or a place, not the word. Folded (no diacritics, lower case); for Japanese and Chinese, the
 * strings removed from the question before it is segmented.
 */
const QUESTION_FORMS: Partial<Record<TokenLanguage, readonly string[]>> = {
  fr: [
    'combien',
    'quand',
    'comment',
    'quel',
    'quelle',
    'quels',
    'quelles',
    'ou',
    'pourquoi',
    'temps',
    'faut',
    'peut',
    'puis',
    'dois',
    'doit',
    'est-ce',
  ],
  de: [
    'wie',
    'lange',
    'viel',
    'viele',
    'wann',
    'wo',
    'welche',
    'welcher',
    'welches',
    'warum',
    'gibt',
    'kann',
    'muss',
    'bekomme',
  ],
  es: [
    'cuanto',
    'cuanta',
    'cuantos',
    'cuantas',
    'cuando',
    'donde',
    'como',
    'que',
    'cual',
    'cuales',
    'tiempo',
    'puedo',
    'hay',
    'tengo',
  ],
  it: ['quanto', 'quanta', 'quanti', 'quante', 'quando', 'dove', 'come', 'quale', 'quali', 'tempo', 'posso'],
  pt: ['quanto', 'quanta', 'quantos', 'quantas', 'quando', 'onde', 'como', 'qual', 'quais', 'tempo', 'posso'],
  nl: ['hoe', 'lang', 'veel', 'wanneer', 'waar', 'welke', 'kan', 'moet'],
  ja: [
    '何日',
    '何時間',
    '何時',
    '何年',
    '何か月',
    '何ヶ月',
    '何週間',
    '何分',
    '何円',
    '何',
    'いつ',
    'どこ',
    'いくら',
    'どのくらい',
    'どれくらい',
    'どのぐらい',
    'どれぐらい',
    'どう',
    'どんな',
    'ですか',
    'ますか',
    'できますか',
  ],
  zh: ['多少', '多久', '什么', '哪里', '几天', '怎么', '吗'],
};

const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

const formSets = new Map<TokenLanguage, Set<string>>();
function formSet(language: TokenLanguage): Set<string> {
  let set = formSets.get(language);
  if (!set) {
    set = new Set(QUESTION_FORMS[language] ?? []);
    formSets.set(language, set);
  }
  return set;
}

/** The question without its question-form words (whole words; in Japanese and Chinese, the strings). */
function withoutForms(question: string, language: TokenLanguage): string {
  if (language === 'ja' || language === 'zh') {
    let text = question;
    // Longest first: 何日 before 何.
    for (const form of [...formSet(language)].sort((a, b) => b.length - a.length))
      text = text.split(form).join(' ');
    return text;
  }
  const forms = formSet(language);
  return question
    .split(/([^\p{L}\p{N}'’-]+)/u)
    .map((part) => (forms.has(fold(part)) ? ' ' : part))
    .join('');
}

/**
 * The content terms of a question in `language`: English's Porter stems (contentTerms) unless the language has
 * tokens of its own; then its tokens without its question-form words, duplicates dropped.
 * @example questionTerms('Wie lange dauert die Rückgabe?', 'de') // ['dauert', 'ruckgab']
 */
export function questionTerms(question: string, language?: string): string[] {
  const own = tokenLanguage(language);
  if (!own) return contentTerms(question);
  return [...new Set(languageTokens(withoutForms(question, own), own))];
}

/**
 * The terms of a text in `language`, to tell which of a question's terms it holds: English's Porter stems of
 * every word (stemsOf), or the language's tokens.
 */
export function textTerms(text: string, language?: string): Set<string> {
  const own = tokenLanguage(language);
  return own ? new Set(languageTokens(text, own)) : stemsOf(text);
}
