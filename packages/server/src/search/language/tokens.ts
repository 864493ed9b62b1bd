import { newStemmer, type Stemmer } from 'snowball-stemmers';
import { deu, fra, ita, jpn, nld, por, spa, zho } from 'stopword';
import { fold, germanParts, type NounsLoad } from './compounds.js';

/**
 * Language-aware lexical tokens (issue #38): the words of a text in one language as the lexical index stores
 * them beside the passage's own text, computed here so SQLite FTS5 and PostgreSQL (`simple` tsvector) see the
 * same tokens. European languages: folded (lower case, no diacritics), stop words dropped, Snowball-stemmed.
 * German: a compound also as its parts' stems (compounds.ts). Japanese and Chinese: words by `Intl.Segmenter`, each longer word also as its character bigrams, so a
 * two-character word of a question ("返品") finds the longer word of a document ("返品期限") and back (a katakana
 * loanword whole only).
 * English has no such tokens: its passages and questions are indexed as they always were (FTS5's Porter).
 */

/** The languages with tokens of their own. */
export const TOKEN_LANGUAGES = ['fr', 'de', 'es', 'it', 'pt', 'nl', 'ja', 'zh'] as const;
export type TokenLanguage = (typeof TOKEN_LANGUAGES)[number];

const SNOWBALL: Record<Exclude<TokenLanguage, 'ja' | 'zh'>, string> = {
  fr: 'french',
  de: 'german',
  es: 'spanish',
  it: 'italian',
  pt: 'portuguese',
  nl: 'dutch',
};
// Function words the lists lack: French and Spanish "si" (if), Spanish "es" (is).
const STOPWORDS: Record<TokenLanguage, readonly string[]> = {
  fr: [...fra, 'si'],
  de: deu,
  es: [...spa, 'es', 'si'],
  it: ita,
  pt: por,
  nl: nld,
  ja: jpn,
  zh: zho,
};

/** The language of a BCP-47 tag (`de-AT` → `de`) when it has tokens of its own, else undefined. */
export function tokenLanguage(tag: string | undefined): TokenLanguage | undefined {
  const base = tag?.toLowerCase().split(/[-_]/)[0];
  return (TOKEN_LANGUAGES as readonly string[]).includes(base ?? '') ? (base as TokenLanguage) : undefined;
}

const stemmers = new Map<TokenLanguage, Stemmer>();
const stopSets = new Map<TokenLanguage, Set<string>>();

function stopSet(language: TokenLanguage): Set<string> {
  let set = stopSets.get(language);
  if (!set) {
    set = new Set(STOPWORDS[language].map((w) => (isCjk(language) ? w : fold(w))));
    stopSets.set(language, set);
  }
  return set;
}

function stemmer(language: Exclude<TokenLanguage, 'ja' | 'zh'>): Stemmer {
  let s = stemmers.get(language);
  if (!s) {
    s = newStemmer(SNOWBALL[language]);
    stemmers.set(language, s);
  }
  return s;
}

const isCjk = (language: TokenLanguage): language is 'ja' | 'zh' => language === 'ja' || language === 'zh';

/** Han, kana and Hangul: the scripts segmented and split into bigrams. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]/u;
const ONLY_KANA = /^[\p{Script=Hiragana}ー]+$/u;
/**
 * A katakana word (a loanword: コーヒー, フィルター): kept whole, without bigrams, as its pieces mean nothing
 * (コー, ーヒ) and meet other loanwords' (プレゼント's プレ in フレンチプレス, インボイス's イン in カフェイン).
 */
const ONLY_KATAKANA = /^[\p{Script=Katakana}ー・]+$/u;

/**
 * German separable verbs take `zu` inside their infinitive: `zurückzugeben` is `zurückgeben`, `anzumelden` is
 * `anmelden` (the rest of four letters or more, so `Anzug` and `Umzug` stay).
 */
const GERMAN_ZU =
  /^(ab|an|auf|aus|bei|ein|fest|her|hin|los|mit|nach|vor|weg|weiter|zuruck|zusammen|um|uber|durch)zu(\p{L}{4,})$/u;

/** The Snowball stem of a folded word. */
export function stemWord(word: string, language: TokenLanguage): string {
  if (isCjk(language)) return word;
  const folded = fold(word);
  return stemmer(language).stem(language === 'de' ? folded.replace(GERMAN_ZU, '$1$2') : folded);
}

/** True when `word` (any case, any diacritics) is a stop word of `language`. */
export function isLanguageStopword(word: string, language: TokenLanguage): boolean {
  return stopSet(language).has(isCjk(language) ? word : fold(word));
}

const segmenters = new Map<string, Intl.Segmenter>();
function wordSegmenter(language: TokenLanguage): Intl.Segmenter {
  let s = segmenters.get(language);
  if (!s) {
    s = new Intl.Segmenter(language, { granularity: 'word' });
    segmenters.set(language, s);
  }
  return s;
}

/**
 * A CJK word's tokens: the word (unless `whole` is false and it is longer than two characters), and its
 * character bigrams when it is longer than two characters.
 */
function cjkTokens(word: string, out: string[], whole = true): void {
  const chars = [...word];
  if (whole || chars.length <= 2) out.push(word);
  if (chars.length <= 2) return;
  for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
}

/**
 * The lexical tokens of `text` in `language`, in order, duplicates kept (they count in bm25): stems of the
 * words that are not stop words; in Japanese and Chinese, segmented words (hiragana-only particles and stop
 * words dropped) with their bigrams, and Latin words of the text folded and kept as they are.
 * @example languageTokens('Die Rückgabefrist beträgt 30 Tage', 'de') // ['ruckgabefrist', 'ruckgab', 'frist', 'betragt', '30']
 * @example languageTokens('返品期限は30日です', 'ja') // ['返品期限', '返品', '品期', '期限', '30', '日']
 * `load`: what a German text does while the noun list its compounds are cut by is not loaded (compounds.ts):
 * a document's tokens (the default) wait for it, a question's go on without it.
 */
export function languageTokens(text: string, language: TokenLanguage, load: NounsLoad = 'sync'): string[] {
  const out: string[] = [];
  const stops = stopSet(language);
  // Single Han characters in a row (the segmenter's fallback for Chinese words it does not know) are read as
  // one run, as its bigrams.
  let run = '';
  const endRun = () => {
    if (run) cjkTokens(run, out, false);
    run = '';
  };
  for (const part of wordSegmenter(language).segment(text.normalize('NFKC'))) {
    if (!part.isWordLike) continue;
    const word = part.segment;
    if (/^\p{Script=Han}$/u.test(word) && !stops.has(word)) {
      run += word;
      continue;
    }
    endRun();
    if (CJK.test(word)) {
      if (!isCjk(language)) {
        cjkTokens(word, out);
        continue;
      }
      if (stops.has(word) || ONLY_KANA.test(word)) continue;
      if (ONLY_KATAKANA.test(word)) out.push(word);
      else cjkTokens(word, out);
      continue;
    }
    const folded = fold(word).replace(/^['’]+|['’]+$/gu, '');
    if (!folded || stops.has(folded)) continue;
    if (isCjk(language)) {
      out.push(folded);
      continue;
    }
    // Elisions: l'adresse, d'un, dell'ordine → the word after the apostrophe.
    const elided = folded.replace(/^\p{L}{1,3}['’]/u, '');
    if (elided.length < 2 && !/\p{N}/u.test(elided)) continue;
    if (stops.has(elided)) continue;
    if (/\p{N}/u.test(elided)) {
      out.push(elided);
      continue;
    }
    const stem = stemWord(elided, language);
    out.push(stem);
    // A German compound also as its parts (compounds.ts), in a document as in a question.
    if (language === 'de')
      for (const part of germanParts(elided.replace(GERMAN_ZU, '$1$2'), load) ?? []) {
        const partStem = stemWord(part, language);
        if (partStem !== stem && !stops.has(part)) out.push(partStem);
      }
  }
  endRun();
  return out;
}

/** The tokens of `text` as the index stores them: one string, tokens separated by spaces; '' when none. */
export function lexicalTokenText(text: string, language: TokenLanguage): string {
  return languageTokens(text, language).join(' ');
}

/**
 * A passage's tokens in its file's `language` as the index stores them, or null when it has none (English):
 * its text's, and its section's heading's (the innermost of its `breadcrumb` below the document's title), so
 * that a question naming the topic finds the sentences under it by words (what units.ts does by meaning
 * where the embedder reads the language).
 */
export function passageTerms(
  content: string,
  language: string | null | undefined,
  breadcrumb: readonly string[] = [],
): string | null {
  const tokens = tokenLanguage(language ?? undefined);
  if (!tokens) return null;
  const heading = breadcrumb.length >= 2 ? breadcrumb.at(-1) : undefined;
  return (
    lexicalTokenText(heading && heading !== content ? `${heading}\n${content}` : content, tokens) || null
  );
}
