// The language sets' wording classes (issue #38), computed as the visitor set's are (visitor-set/wording.ts),
// with each language's own words: a question is a `paraphrase` when it shares no content word with the
// sentences of its source that hold its expected facts. Deliberately generous to `lexical`: two words count as
// shared when they are equal without diacritics, when one (of 3 letters or more) begins the other, when their
// Snowball stems are equal or share their first 5 letters, and in German when one (of 5 letters or more) is
// inside the other (compounds: Versandkosten / Kosten). Japanese: words of two characters or more by
// Intl.Segmenter (its one-character words are mostly verb stems, counters and suffixes: 届, 日, 方), hiragana-only
// words dropped; shared when one is inside the other or they share two characters in a row. Numbers are content
// words. Independent of the server's own analysis (search/language), so the class does not follow what is measured.
import { newStemmer } from 'snowball-stemmers';
import { deu, fra, jpn, spa } from 'stopword';

/** The languages of the language sets. */
export const SET_LANGUAGES = ['fr', 'de', 'es', 'ja'] as const;
export type SetLanguage = (typeof SET_LANGUAGES)[number];

const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** Words that carry no content: each language's stop words, its question words, greetings and fillers. */
const EXTRA_STOP_WORDS: Record<SetLanguage, string> = {
  fr: `combien quand comment quel quelle quels quelles ou pourquoi temps est-ce faut peut puis dois doit bonjour
    merci salut svp stp ok oui non ca cela chez vous vos votre nous je j il y a faire fait possible avoir est si`,
  de: `wie lange viel viele wann wo welche welcher welches warum gibt kann konnen muss bekomme hallo danke bitte ok
    ja nein mal euch ihr ich man geht gehts es`,
  es: `cuanto cuanta cuantos cuantas cuando donde como que cual cuales tiempo puedo puede hay tengo hola gracias ok
    si no vale ustedes me mi es esta`,
  ja: '',
};

const STOP_WORDS: Record<SetLanguage, Set<string>> = {
  fr: new Set([...fra, ...EXTRA_STOP_WORDS.fr.split(/\s+/)].map(fold)),
  de: new Set([...deu, ...EXTRA_STOP_WORDS.de.split(/\s+/)].map(fold)),
  es: new Set([...spa, ...EXTRA_STOP_WORDS.es.split(/\s+/)].map(fold)),
  ja: new Set([
    ...jpn,
    'ですか',
    'ますか',
    'ください',
    '教え',
    'でき',
    'いつ',
    'どこ',
    'いくら',
    '何',
    'どのくらい',
  ]),
};

const STEMMERS = {
  fr: newStemmer('french'),
  de: newStemmer('german'),
  es: newStemmer('spanish'),
};

const segmenter = new Intl.Segmenter('ja', { granularity: 'word' });

/** The content words of a text in `language`. */
export function contentWordsIn(text: string, language: SetLanguage): string[] {
  const stops = STOP_WORDS[language];
  if (language === 'ja') {
    return [...segmenter.segment(text.normalize('NFKC'))]
      .filter((s) => s.isWordLike)
      .map((s) => s.segment.toLowerCase())
      .filter((w) => [...w].length >= 2 && !stops.has(w) && !/^[\p{Script=Hiragana}ー]+$/u.test(w));
  }
  return (fold(text.normalize('NFKC')).match(/[\p{L}\p{N}]+/gu) ?? []).filter(
    (w) => (w.length > 1 || /\p{N}/u.test(w)) && !stops.has(w),
  );
}

/** Whether two content words of `language` count as the same word (see the module's comment). */
export function sameWordIn(a: string, b: string, language: SetLanguage): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (language === 'ja') {
    if (long.includes(short)) return true;
    for (let i = 0; i + 1 < short.length; i++) if (long.includes(short.slice(i, i + 2))) return true;
    return false;
  }
  if (short.length >= 3 && long.startsWith(short)) return true;
  if (language === 'de' && short.length >= 5 && long.includes(short)) return true;
  const stemmer = STEMMERS[language];
  const sa = stemmer.stem(a);
  const sb = stemmer.stem(b);
  return sa === sb || (sa.length >= 5 && sb.length >= 5 && sa.slice(0, 5) === sb.slice(0, 5));
}

/** The content words of `question` that `answer` shares, in `language`. */
export function sharedWordsIn(question: string, answer: string, language: SetLanguage): string[] {
  const theirs = contentWordsIn(answer, language);
  return [...new Set(contentWordsIn(question, language))].filter((w) =>
    theirs.some((t) => sameWordIn(w, t, language)),
  );
}
