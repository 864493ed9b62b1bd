// The language sets' figures (issue #38) as the answers benchmark prints them: per language and split, right
// answers and clarifications of the answerable questions, honest "not found" replies of the unanswerable ones,
// noise replies of all, and the reply time p95; the English visitor set's row beside them, from the same run.
import { table } from '../lib/format.js';
import { share } from '../visitor-set/bench.js';
import { KNOWLEDGE_BASES } from '../visitor-set/documents.js';
import { figuresOf, type ScoredQuestion } from '../visitor-set/score.js';
import type { SplitName } from '../visitor-set/set.js';

/** Targets per language (issue #38): right answers, honest "not found", at most this much noise. */
export const LANGUAGE_TARGETS = { right: 0.7, honest: 0.85, noise: 0.1 };

const isEnglish = (kb: string) => (KNOWLEDGE_BASES as readonly string[]).includes(kb);

/** The group a scored question is reported in: its language, or `en` for the English visitor set. */
export const languageOf = (s: ScoredQuestion) => (isEnglish(s.question.kb) ? 'en' : s.question.kb);

/** One row of the languages table: a language's (or English's) figures on one split of one build. */
export interface LanguageRow {
  language: string;
  split: SplitName;
  build: string;
  answerable: number;
  unanswerable: number;
  right: number;
  clarified: number;
  honest: number;
  noise: number;
  questions: number;
  p95: number;
}

/** The rows of scored questions: per language (English as `en`), per split, labelled with their build. */
export function languageRows(scored: readonly ScoredQuestion[], build: string): LanguageRow[] {
  const languages = [...new Set(scored.map(languageOf))];
  const splits: SplitName[] = ['tune', 'held-out'];
  return languages.flatMap((language) =>
    splits.map((split) => {
      const own = scored.filter((s) => languageOf(s) === language && s.question.split === split);
      const answerable = figuresOf(
        split,
        'answerable',
        own.filter((s) => s.question.answer !== null),
      );
      const unanswerable = figuresOf(
        split,
        'unanswerable',
        own.filter((s) => s.question.answer === null),
      );
      const all = figuresOf(split, 'all', own);
      return {
        language,
        split,
        build,
        answerable: answerable.questions,
        unanswerable: unanswerable.questions,
        right: answerable.right,
        clarified: answerable.clarified,
        honest: unanswerable.honest,
        noise: all.noise,
        questions: all.questions,
        p95: all.p95,
      };
    }),
  );
}

/** The languages table (Markdown). */
export function languageTable(rows: readonly LanguageRow[]): string {
  return table([
    [
      'language',
      'split',
      'build',
      'answerable / unanswerable',
      'right',
      'clarified',
      'honest "not found"',
      'noise replies',
      'reply p95 ms',
    ],
    ...rows.map((r) => [
      r.language,
      r.split,
      r.build,
      `${r.answerable} / ${r.unanswerable}`,
      share(r.right, r.answerable),
      share(r.clarified, r.answerable),
      share(r.honest, r.unanswerable),
      share(r.noise, r.questions),
      r.p95.toFixed(0),
    ]),
  ]);
}
