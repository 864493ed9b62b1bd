import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AskedQuestion, LaterAnswer, QaMatch } from './contract.js';
import { qaRepo } from './repo.js';

/** Most questions one call looks up (the inbox asks for a page of conversations at a time). */
const MAX_QUESTIONS = 500;

/**
 * Which asked questions an entry answers now that did not then (the inbox's "Answered by a Q&A entry since"):
 * each question is looked up as a reply would (`match`, remembered per bot revision), and counts when the entry
 * it finds was saved after the question was asked (created, changed, or switched on since).
 */
export function qaCorrections(deps: {
  db: Kysely<Database>;
  match: (botId: string, question: string) => Promise<QaMatch | undefined>;
}) {
  return {
    async answeredSince(
      botId: string,
      questions: readonly AskedQuestion[],
    ): Promise<Array<LaterAnswer | undefined>> {
      const asked = questions.slice(0, MAX_QUESTIONS);
      const matches: Array<QaMatch | undefined> = [];
      for (const q of asked) matches.push(await deps.match(botId, q.text));
      const ids = [...new Set(matches.flatMap((m) => (m ? [m.entryId] : [])))];
      const savedAt = await qaRepo(deps.db).savedAt(botId, ids);
      return questions.map((q, i) => {
        const entryId = matches[i]?.entryId;
        const since = entryId ? savedAt.get(entryId) : undefined;
        return entryId && since && Date.parse(since) > Date.parse(q.askedAt) ? { entryId, since } : undefined;
      });
    },
  };
}
