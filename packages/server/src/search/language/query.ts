import { detectLanguage } from './detect.js';
import { isQuestionForm, withoutForms } from './forms.js';
import { isLanguageStopword, languageTokens, type TokenLanguage, tokenLanguage } from './tokens.js';

/**
 * The language of a search query when it has tokens of its own (not English), detected from its text with
 * `hint` (the conversation's locale) as the tie-breaker; with its tokens, duplicates dropped.
 */
export function queryLanguage(
  query: string,
  hint?: string,
): { language: TokenLanguage; tokens: string[] } | undefined {
  const language = tokenLanguage(detectLanguage(query, hint));
  if (!language) return undefined;
  return { language, tokens: [...new Set(languageTokens(withoutForms(query, language), language))] };
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
