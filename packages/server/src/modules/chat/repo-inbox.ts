import { type Kysely, type SqlBool, sql } from 'kysely';
import { keysetPage } from '../../db/keyset.js';
import type { Database } from '../../db/schema.js';
import type { Cursor } from '../../http/pagination.js';

/** The answer mode of a bot reply that found nothing in the knowledge base. */
export const NOT_FOUND_ANSWER = 'not_found';
/** The answer mode of the bot's messages that tell the visitor who answers now (human handoff). */
export const HANDOFF_ANSWER = 'handoff';
/** The answer mode of a person's messages (the inbox shows their author as `agent`). */
export const HUMAN_ANSWER = 'human';

/**
 * A stored feedback (JSON) whose value is negative. JSON escapes every quote inside a comment, so the
 * unescaped `"value":"negative"` can only be the feedback's own value.
 */
const NEGATIVE_FEEDBACK = '%"value":"negative"%';

/** A conversation of the inbox: its row and what its messages tell (computed per row of the page). */
export interface InboxRow {
  id: string;
  created_at: string;
  updated_at: string;
  message_count: number | string;
  last_payload: string | null;
  last_is_bot: number | null;
  last_at: string | null;
  last_question: string | null;
  negative: number | string;
  unanswered: number | string;
}

/** The messages of conversation `c` (a correlated subquery's `from … where`). */
const OF_C = sql`chat_messages m where m.bot_id = c.bot_id and m.conversation_id = c.id`;
/** The latest message of `c` first. */
const LATEST = sql`order by m.created_at desc, m.id desc limit 1`;
/** Whether anybody wrote in `c`: a webchat opened without a word (or the Console's designer preview) starts one. */
const hasMessages = sql<SqlBool>`exists (select 1 from ${OF_C})`;
const hasNegative = sql<SqlBool>`exists (select 1 from ${OF_C} and m.feedback like ${NEGATIVE_FEEDBACK})`;
const hasUnanswered = sql<SqlBool>`exists (select 1 from ${OF_C} and m.is_bot = 1 and m.answer = ${NOT_FOUND_ANSWER})`;

/** Filters of the inbox list. */
export interface InboxFilter {
  negative?: boolean | undefined;
  unanswered?: boolean | undefined;
}

/**
 * The inbox of a bot: its conversations newest-updated first (index chat_conversations_bot_updated), each with
 * its message count, latest message and flags, read by subqueries on chat_messages_conversation (bot,
 * conversation, created_at, id) for the rows of the page only; and a conversation's messages oldest first
 * with their authors' names.
 */
export function inboxQueries(db: Kysely<Database>) {
  function conversations() {
    return db
      .selectFrom('chat_conversations as c')
      .select(['c.id', 'c.created_at', 'c.updated_at'])
      .select([
        sql<number | string>`(select count(*) from ${OF_C})`.as('message_count'),
        sql<string | null>`(select m.payload from ${OF_C} ${LATEST})`.as('last_payload'),
        sql<number | null>`(select m.is_bot from ${OF_C} ${LATEST})`.as('last_is_bot'),
        sql<string | null>`(select m.created_at from ${OF_C} ${LATEST})`.as('last_at'),
        sql<string | null>`(select m.payload from ${OF_C} and m.is_bot = 0 ${LATEST})`.as('last_question'),
        sql<number | string>`case when ${hasNegative} then 1 else 0 end`.as('negative'),
        sql<number | string>`case when ${hasUnanswered} then 1 else 0 end`.as('unanswered'),
      ]);
  }
  return {
    /**
     * `limit + 1` conversations of the bot after the cursor, most recent activity first; only those with a
     * message (an empty conversation holds nothing to read).
     */
    inboxConversations: (q: {
      botId: string;
      limit: number;
      after: Cursor | undefined;
      filter: InboxFilter;
    }): Promise<InboxRow[]> => {
      let query = conversations().where('c.bot_id', '=', q.botId).where(hasMessages);
      if (q.filter.negative) query = query.where(hasNegative);
      if (q.filter.unanswered) query = query.where(hasUnanswered);
      return keysetPage(query, { key: 'c.updated_at', id: 'c.id', direction: 'desc' }, q);
    },
    /** One conversation of the inbox. */
    inboxConversation: (botId: string, id: string): Promise<InboxRow | undefined> =>
      conversations().where('c.bot_id', '=', botId).where('c.id', '=', id).executeTakeFirst(),
    /** `limit + 1` messages of a conversation after the cursor, oldest first, with their author's name. */
    inboxMessages: (q: {
      botId: string;
      conversationId: string;
      limit: number;
      after: Cursor | undefined;
    }) => {
      const query = db
        .selectFrom('chat_messages as m')
        .leftJoin('chat_users as u', (j) =>
          j.onRef('u.bot_id', '=', 'm.bot_id').onRef('u.id', '=', 'm.user_id'),
        )
        .selectAll('m')
        .select('u.name as user_name')
        .where('m.bot_id', '=', q.botId)
        .where('m.conversation_id', '=', q.conversationId);
      return keysetPage(query, { key: 'm.created_at', id: 'm.id', direction: 'asc' }, q);
    },
  };
}
