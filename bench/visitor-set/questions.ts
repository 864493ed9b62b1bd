// The visitor set's questions (issue 33), kept as data in questions.json beside this module: written as
// visitors type them into a chat box (short, informal, often lower-case), not as the documents word it. Each
// knowledge base lists its questions in the order written; an answerable one names its source document, the
// topic it belongs to (a heading or title of that document) and the facts any right answer states; one with
// only `text` is a plausible question the documents do not answer (some asked of the wrong business). Whether
// a question shares words with its answer is computed (wording.ts), never written here.
import { readFileSync } from 'node:fs';
import { KNOWLEDGE_BASES, type KnowledgeBaseName, sourceRoot } from './documents.js';

/** What answers a question: its document, the topic it belongs to, and what a right answer must state. */
export interface ExpectedAnswer {
  /** The file key of the document that answers. */
  source: string;
  /** The heading or title (of that document) the answer sits under. */
  topic: string;
  /** Every one of them must be in the reply (case and spacing aside). */
  facts: string[];
}

/** A question of the visitor set as written. */
export interface WrittenQuestion {
  kb: string;
  text: string;
  /** null: no document of its knowledge base answers it. */
  answer: ExpectedAnswer | null;
}

/** A question as questions.json holds it: `text` alone for one its knowledge base does not answer. */
export interface QuestionRecord {
  text: string;
  source?: string;
  topic?: string;
  facts?: string[];
}

/** A question of knowledge base `kb` as written (its record checked). */
export function written(kb: string, record: QuestionRecord): WrittenQuestion {
  const { text, source, topic, facts } = record;
  if (typeof text !== 'string' || !text) throw new Error(`questions.json: a ${kb} question without text`);
  if (source === undefined && topic === undefined && facts === undefined) return { kb, text, answer: null };
  if (typeof source !== 'string' || typeof topic !== 'string' || !Array.isArray(facts) || facts.length === 0)
    throw new Error(`questions.json: "${text}" needs a source, a topic and facts, or none of them`);
  return { kb, text, answer: { source, topic, facts } };
}

/** The questions of questions.json's content (knowledge base -> its questions in the order written). */
export function questionsOf(byKb: Partial<Record<KnowledgeBaseName, QuestionRecord[]>>): WrittenQuestion[] {
  return KNOWLEDGE_BASES.flatMap((kb) => (byKb[kb] ?? []).map((record) => written(kb, record)));
}

/** Every question of the visitor set, knowledge base by knowledge base, in the order written. */
export function writtenQuestions(): WrittenQuestion[] {
  return questionsOf(JSON.parse(readFileSync(`${sourceRoot()}questions.json`, 'utf8')));
}
