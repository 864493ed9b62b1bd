// The language sets (issue #38): for French, German, Spanish and Japanese, a fictional business's documents
// (a folder beside this module: two Markdown pages, an FAQ text and a CSV price list, written in the language)
// and at least 40 questions worded as its visitors type them, one in five that no document answers. Written by
// the visitor set's rules (bench/visitor-set: questions.json holds each question's source, topic and facts,
// or its text alone); the wording class is computed with the language's words (wording.ts). Each language is
// one knowledge base of the answers benchmark (bench/answers.ts --set fr|de|es|ja|languages), split into a tune
// half and a held-out half as the visitor set's knowledge bases are.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { folderDocuments } from '../visitor-set/documents.js';
import { type QuestionRecord, written } from '../visitor-set/questions.js';
import { setOf, type VisitorSet } from '../visitor-set/set.js';
import { SET_LANGUAGES, type SetLanguage, sharedWordsIn } from './wording.js';

export { SET_LANGUAGES, type SetLanguage } from './wording.js';

/** What each language's business is, as its bot would be described. */
export const LANGUAGE_SET_TITLES: Record<SetLanguage, string> = {
  fr: 'Maison Lumen, a lighting shop (French)',
  de: 'Radwerk, a bicycle shop and workshop (German)',
  es: 'Verde Vivo, a plant nursery (Spanish)',
  ja: 'Sakura Roastery, a coffee-bean shop (Japanese)',
};

/** The folder holding the language sets, from this module or its compiled copy in bench/dist. */
export function languageRoot(): string {
  for (const up of ['./', '../../../language-sets/']) {
    const dir = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(`${dir}wording.ts`)) return dir;
  }
  throw new Error('cannot find bench/language-sets from the benchmark file');
}

/** Whether `name` is the language of a set. */
export const isSetLanguage = (name: string): name is SetLanguage =>
  (SET_LANGUAGES as readonly string[]).includes(name);

/** The language sets of `languages` (all four by default), as one set of one knowledge base each. */
export function languageSets(languages: readonly SetLanguage[] = SET_LANGUAGES): VisitorSet {
  const root = languageRoot();
  const bases = languages.map((name) => ({ name, title: LANGUAGE_SET_TITLES[name] }));
  const documents = languages.flatMap((language) => folderDocuments(language, `${root}${language}/`));
  const questions = languages.flatMap((language) => {
    const records = JSON.parse(readFileSync(`${root}${language}/questions.json`, 'utf8')) as QuestionRecord[];
    return records.map((record) => written(language, record));
  });
  return setOf(bases, documents, questions, (question, answer, kb) =>
    isSetLanguage(kb) ? sharedWordsIn(question, answer, kb) : [],
  );
}

/** Sets asked together (the English visitor set and language sets): their bases, documents and questions. */
export function joinedSets(...sets: VisitorSet[]): VisitorSet {
  return {
    bases: sets.flatMap((s) => s.bases),
    documents: sets.flatMap((s) => s.documents),
    questions: sets.flatMap((s) => s.questions),
  };
}
