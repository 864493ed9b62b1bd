import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AskedQuestion, LaterAnswer, QaMatch } from './contract.js';
import { qaRepo } from './repo.js';

/**
 * Whether a reply to the question answers with the passages rather than with the entry `match` found (the answers
 * module's yieldsToPassages, given by the app).
 */
export type YieldsToPassages = (
  workspaceId: string,
  botId: string,
  question: string,
  match: QaMatch,
) => Promise<boolean>;

/** Most questions one call looks up (the inbox asks for a page of conversations at a time). */
const MAX_QUESTIONS = 500;

/**
 * Which asked questions an entry answers now that did not then (the inbox's "Answered by a Q&A entry since"):
 * each question is looked up as a reply would (`match`, remembered per bot revision), and counts when the entry
 * it finds was saved after the question was asked (created, changed, or switched on since) and a reply would answer
 * with it rather than with the passages (`yieldsToPassages`, the reply's decision; absent: the entry answers).
 */
export function qaCorrections(deps: {
  db: Kysely<Database>;
  match: (botId: string, question: string) => Promise<QaMatch | undefined>;
  yieldsToPassages?: YieldsToPassages | undefined;
}) {
  return {
    async answeredSince(
      workspaceId: string,
      botId: string,
      questions: readonly AskedQuestion[],
    ): Promise<Array<LaterAnswer | undefined>> {
      const asked = questions.slice(0, MAX_QUESTIONS);
      const matches: Array<QaMatch | undefined> = [];
      for (const q of asked) matches.push(await deps.match(botId, q.text));
      const ids = [...new Set(matches.flatMap((m) => (m ? [m.entryId] : [])))];
      const savedAt = await qaRepo(deps.db).savedAt(botId, ids);
      const answers: Array<LaterAnswer | undefined> = [];
      for (const [i, q] of questions.entries()) {
        const match = matches[i];
        const since = match ? savedAt.get(match.entryId) : undefined;
        const later = match && since && Date.parse(since) > Date.parse(q.askedAt);
        const yields = later && (await deps.yieldsToPassages?.(workspaceId, botId, q.text, match));
        answers.push(later && !yields ? { entryId: match.entryId, since } : undefined);
      }
      return answers;
    },
  };
}
