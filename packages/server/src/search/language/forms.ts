import type { TokenLanguage } from './tokens.js';

// The question-form words of each language (issue #38): left out of a question's search and answer terms.

/**
 * Words that make a question's form, not its subject (the `how long`, `how much` of English): the answer holds
 * a number, a date or a place, not the word; and the modal verbs a visitor asks with (`puedo`, `se puede`,
 * `könnt ihr`), which the answer need not repeat. Folded (no diacritics, lower case); for Japanese and Chinese, the
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
    'peux',
    'pouvez',
    'faites',
    'avez',
    'voudrais',
    'aimerais',
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
    'kannst',
    'konnen',
    'konnt',
    'darf',
    'durfen',
    'muss',
    'mussen',
    'bekomme',
    'brauche',
    'mochte',
    'wurde',
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
    'puede',
    'pueden',
    'podemos',
    'hay',
    'tengo',
    'haceis',
    'teneis',
    'quiero',
    'necesito',
    'podeis',
  ],
  it: [
    'quanto',
    'quanta',
    'quanti',
    'quante',
    'quando',
    'dove',
    'come',
    'quale',
    'quali',
    'tempo',
    'posso',
    'puo',
    'possiamo',
    'potete',
  ],
  pt: [
    'quanto',
    'quanta',
    'quantos',
    'quantas',
    'quando',
    'onde',
    'como',
    'qual',
    'quais',
    'tempo',
    'posso',
    'pode',
    'podem',
    'podemos',
  ],
  nl: ['hoe', 'lang', 'veel', 'wanneer', 'waar', 'welke', 'kan', 'kunnen', 'mag', 'moet'],
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

/** Whether a (folded or not) word is a question-form word of `language`. */
export function isQuestionForm(word: string, language: TokenLanguage): boolean {
  return formSet(language).has(fold(word));
}

/** The question without its question-form words (whole words; in Japanese and Chinese, the strings). */
export function withoutForms(question: string, language: TokenLanguage): string {
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
