/**
 * Turning a natural-language query into lexical search terms: words split on white space, stripped of the
 * punctuation around them, stopwords dropped, duplicates dropped. Each term is searched as a quoted phrase
 * and the terms are OR-ed: FTS5's implicit AND would demand every word of a question, which kills recall.
 */

/** English stopwords (the common NLTK list), compared after lower-casing and folding diacritics. */
const STOPWORDS = new Set(
  `a about above after again against ain all am an and any are aren aren't as at be because been before being
  below between both but by can couldn couldn't d did didn didn't do does doesn doesn't doing don don't down
  during each few for from further had hadn hadn't has hasn hasn't have haven haven't having he her here hers
  herself him himself his how i if in into is isn isn't it it's its itself just ll m ma me mightn mightn't more
  most mustn mustn't my myself needn needn't no nor not now o of off on once only or other our ours ourselves
  out over own re s same shan shan't she she's should should've shouldn shouldn't so some such t than that
  that'll the their theirs them themselves then there these they this those through to too under until up ve
  very was wasn wasn't we were weren weren't what when where which while who whom why will with won won't
  wouldn wouldn't y you you'd you'll you're you've your yours yourself yourselves`.split(/\s+/),
);

/** Most terms one query contributes; the rest are ignored (a 1 KB query has at most ~200 words). */
export const MAX_QUERY_TERMS = 64;

/** Lower-cases and removes diacritics: `Café` → `cafe`. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** True when `word` (any case, any diacritics) is an English stopword. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(foldText(word).replaceAll('’', "'"));
}

/**
 * The search terms of a query, folded (lower case, no diacritics), stopwords removed, in order of first
 * appearance. A query made only of stopwords keeps them, so it still finds something.
 * @example queryTerms('What is the Café’s "opening" time?') // ['cafe’s', 'opening', 'time']
 */
export function queryTerms(query: string, maxTerms = MAX_QUERY_TERMS): string[] {
  const words: string[] = [];
  for (const raw of query.split(/[\s\p{Z}\p{Cc}\p{Cf}]+/u)) {
    // Keep what lies between the first and last letter or digit: "(hello)," → hello, "e-mail" stays.
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (word) words.push(foldText(word));
  }
  const unique = [...new Set(words)];
  const content = unique.filter((w) => !isStopword(w));
  return (content.length > 0 ? content : unique).slice(0, maxTerms);
}

/**
 * An FTS5 MATCH expression that ORs the terms, each as a quoted phrase, so no character of the query can
 * be read as FTS5 syntax (quotes are doubled; `*`, `:`, `^`, NEAR, AND, OR, NOT, parentheses stay literal).
 * Answers undefined when there is nothing to search for.
 * @example ftsMatchExpression(['cafe', 'e-mail']) // '"cafe" OR "e-mail"'
 */
export function ftsMatchExpression(terms: string[]): string | undefined {
  if (terms.length === 0) return undefined;
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}
