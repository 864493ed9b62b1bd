import type { InboxConversation } from '@parley/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { QaService } from '../qa/contract.js';
import { NEGATIVE_FEEDBACK, NOT_FOUND_ANSWER } from './repo-inbox.js';

/** What the inbox asks the Q&A entries: which asked questions an entry saved since answers. */
export type InboxEntries = Pick<QaService, 'answeredSince'>;

/** The text of a stored visitor payload (a text or Markdown message), or undefined. */
function questionText(payload: string): string | undefined {
  try {
    const p = JSON.parse(payload) as { text?: unknown; markdown?: unknown };
    const text =
      typeof p.text === 'string' ? p.text : typeof p.markdown === 'string' ? p.markdown : undefined;
    return text?.trim() ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The visitor questions of these conversations that a bot reply found nothing for or got a thumbs down on: the
 * question (the message the reply answered, `reply_to`), its conversation and when it was asked, oldest first.
 */
function questionsToCorrect(db: Kysely<Database>, botId: string, conversationIds: string[]) {
  return db
    .selectFrom('chat_messages as b')
    .innerJoin('chat_messages as q', (j) =>
      j.onRef('q.bot_id', '=', 'b.bot_id').onRef('q.id', '=', 'b.reply_to'),
    )
    .select(['q.conversation_id', 'q.payload', 'q.created_at'])
    .where('b.bot_id', '=', botId)
    .where('b.conversation_id', 'in', conversationIds)
    .where('b.is_bot', '=', 1)
    .where((eb) =>
      eb.or([eb('b.answer', '=', NOT_FOUND_ANSWER), eb('b.feedback', 'like', NEGATIVE_FEEDBACK)]),
    )
    .orderBy('q.created_at')
    .execute();
}

/**
 * The conversations with `answeredByEntry` where a question of theirs that went unanswered (or got a thumbs down)
 * is answered now by an entry saved after it was asked (the inbox's "Answered by a Q&A entry since"). Only
 * conversations flagged unanswered or negative are looked at; without `entries` they are returned as they are.
 */
export async function withCorrections(
  db: Kysely<Database>,
  entries: InboxEntries | undefined,
  workspaceId: string,
  botId: string,
  conversations: InboxConversation[],
): Promise<InboxConversation[]> {
  const flagged = conversations.filter((c) => c.unanswered || c.negativeFeedback).map((c) => c.id);
  if (!entries || flagged.length === 0) return conversations;
  const asked = (await questionsToCorrect(db, botId, flagged)).flatMap((row) => {
    const text = questionText(row.payload);
    return text ? [{ conversationId: row.conversation_id, text, askedAt: row.created_at }] : [];
  });
  if (asked.length === 0) return conversations;
  const answers = await entries.answeredSince(workspaceId, botId, asked);
  const corrected = new Map<string, NonNullable<InboxConversation['answeredByEntry']>>();
  asked.forEach((q, i) => {
    const answer = answers[i];
    if (answer && !corrected.has(q.conversationId))
      corrected.set(q.conversationId, { entryId: answer.entryId, since: answer.since, question: q.text });
  });
  return conversations.map((c) => {
    const answeredByEntry = corrected.get(c.id);
    return answeredByEntry ? { ...c, answeredByEntry } : c;
  });
}
