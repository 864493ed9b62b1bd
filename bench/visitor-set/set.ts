// The visitor set (issue 33) as the benchmark asks it: the written questions with their computed wording
// class and their split. Splits alternate within each knowledge base, answerable and unanswerable questions
// apart (the first of each goes to `tune`), so both halves hold every knowledge base and both kinds alike.
import {
  KNOWLEDGE_BASE_TITLES,
  KNOWLEDGE_BASES,
  type VisitorDocument,
  visitorDocuments,
} from './documents.js';
import { type ExpectedAnswer, type WrittenQuestion, writtenQuestions } from './questions.js';
import { answerSentences, sharedWords, type Wording } from './wording.js';

/** A half of the set: `tune` to choose knobs on, `held-out` only to measure. */
export type SplitName = 'tune' | 'held-out';

/** A question of the visitor set, ready to ask and score. */
export interface VisitorQuestion {
  /** `<kb>-<n>`, n counting the knowledge base's questions from 1 in the order written. */
  id: string;
  /** Its knowledge base (a KnowledgeBaseName, or a language set's language). */
  kb: string;
  text: string;
  answer: ExpectedAnswer | null;
  split: SplitName;
  /** Answerable questions only: `paraphrase` when it shares no content word with its answer sentences. */
  wording: Wording | null;
  /** The content words it shares with its answer sentences (empty for a paraphrase). */
  shared: string[];
  /** The sentences of its source that hold its facts. */
  answerSentences: string[];
}

/** A knowledge base of a set: its name (the `kb` of its documents and questions) and what its bot is. */
export interface SetBase {
  name: string;
  title: string;
}

/** The documents and questions of the visitor set (or of a language set, bench/language-sets). */
export interface VisitorSet {
  bases: SetBase[];
  documents: VisitorDocument[];
  questions: VisitorQuestion[];
}

/** The visitor set: every document, every question with its wording and split. */
export function visitorSet(): VisitorSet {
  const bases = KNOWLEDGE_BASES.map((name) => ({ name, title: KNOWLEDGE_BASE_TITLES[name] }));
  return setOf(bases, visitorDocuments(), writtenQuestions(), sharedWords);
}

/**
 * A set of `bases` from its documents and written questions: each question with its split and its wording
 * class (paraphrase when `shared`, the content words it shares with its answer sentences, finds none).
 */
export function setOf(
  bases: SetBase[],
  documents: VisitorDocument[],
  written: readonly WrittenQuestion[],
  shared: (question: string, answer: string, kb: string) => string[],
): VisitorSet {
  const docOf = new Map(documents.map((d) => [`${d.kb}/${d.key}`, d]));
  const seen = new Map<string, number>();
  const questions = written.map((q): VisitorQuestion => {
    const n = (seen.get(q.kb) ?? 0) + 1;
    seen.set(q.kb, n);
    const kind = `${q.kb}/${q.answer ? 'a' : 'u'}`;
    const nth = (seen.get(kind) ?? 0) + 1;
    seen.set(kind, nth);
    const split: SplitName = nth % 2 === 1 ? 'tune' : 'held-out';
    const base = { id: `${q.kb}-${n}`, kb: q.kb, text: q.text, answer: q.answer, split };
    if (!q.answer) return { ...base, wording: null, shared: [], answerSentences: [] };
    const doc = docOf.get(`${q.kb}/${q.answer.source}`);
    const sentences = doc ? answerSentences(doc.text, q.answer.facts, doc.format === 'csv') : [];
    const words = shared(q.text, sentences.join('\n'), q.kb);
    return {
      ...base,
      wording: words.length === 0 ? 'paraphrase' : 'lexical',
      shared: words,
      answerSentences: sentences,
    };
  });
  return { bases, documents, questions };
}
