import { detectLanguage } from './detect.js';
import { isQuestionForm, withoutForms } from './forms.js';
import { germanNounsLoaded } from './german-lexicon.js';
import { isLanguageStopword, languageTokens, stemWord, type TokenLanguage, tokenLanguage } from './tokens.js';

/**
 * The language of a search query when it has tokens of its own (not English), detected from its text with
 * `hint` (the conversation's locale) as the tie-breaker; with its tokens, duplicates dropped.
 *
 * A German query in a process whose German noun list is not loaded yet (issues #36, #38: a process that met no
 * German file at start, or the first second after a start) does not wait for it: it starts its load in a worker
 * thread (compounds.ts) and is searched meanwhile as a Dutch one is, its long words also by the parts of every cut
 * ({@link compoundParts}), so a compound it types still finds the document that writes its parts apart. The
 * questions after the load are cut by the list, as documents are.
 */
export function queryLanguage(
  query: string,
  hint?: string,
): { language: TokenLanguage; tokens: string[] } | undefined {
  const language = tokenLanguage(detectLanguage(query, hint));
  if (!language) return undefined;
  const text = withoutForms(query, language);
  const tokens = languageTokens(text, language, 'async');
  if (COMPOUNDING.has(language) || (language === 'de' && !germanNounsLoaded()))
    tokens.push(...compoundParts(text, language));
  return { language, tokens: [...new Set(tokens)] };
}

/**
 * Languages that write compounds as one word and have no lexicon to cut them by: a question's compound is also
 * searched by its parts at every cut. Dutch; German compounds are cut by nouns in documents and questions alike
 * (compounds.ts, through languageTokens), German questions by every cut only until the nouns are loaded.
 */
const COMPOUNDING: ReadonlySet<TokenLanguage> = new Set(['nl']);
/** Letters of a question word read as a compound, and of each of its two parts. */
const COMPOUND_LETTERS = 9;
const PART_LETTERS = 4;

/**
 * The stems of the two parts of each long word of a question in a compounding language, at every place it could
 * be cut ({@link PART_LETTERS} letters or more each side and stem, a linking `s` dropped), stop words aside: a compound a
 * visitor types ("Rückgabefrist") then finds the document that writes its parts apart ("die Frist für die
 * Rückgabe"). No lexicon says where a compound is cut: the cuts that are no word match nothing in the index.
 * Searched so in Dutch (see COMPOUNDING); any language's may be asked for.
 * @example compoundParts('rückgabefrist', 'de') // ['ruck', 'gabefrist', …, 'ruckgab', 'frist', …]
 */
export function compoundParts(text: string, language: TokenLanguage): string[] {
  const out: string[] = [];
  for (const word of text.normalize('NFKC').match(/\p{L}+/gu) ?? []) {
    const letters = [...word];
    if (letters.length < COMPOUND_LETTERS) continue;
    for (let cut = PART_LETTERS; cut <= letters.length - PART_LETTERS; cut++) {
      const head = letters.slice(0, cut).join('');
      const tail = letters.slice(cut).join('');
      for (const part of [head.replace(/s$/u, ''), tail]) {
        if (part.length < PART_LETTERS || isLanguageStopword(part, language)) continue;
        const stem = stemWord(part, language);
        if (stem.length >= PART_LETTERS) out.push(stem);
      }
    }
  }
  return out;
}

/**
 * The lexical terms of a query: its folded words (`words`, what English search has always used) less the
 * stop words and question-form words ("combien", "wie lange") of its language, and its tokens in that language
 * (what a passage of that language is indexed with). English, or no language told: `words` alone, unchanged.
 */
export function withLanguageTerms(query: string, words: string[], hint?: string): string[] {
  const found = queryLanguage(query, hint);
  if (!found) return words;
  const kept = words.filter(
    (w) => !isLanguageStopword(w, found.language) && !isQuestionForm(w, found.language),
  );
  return [...new Set([...found.tokens, ...kept])];
}
