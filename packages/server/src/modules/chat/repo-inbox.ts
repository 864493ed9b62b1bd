import { type Kysely, PostgresAdapter, type SqlBool, sql } from 'kysely';
import { keysetPage } from '../../db/keyset.js';
import { likeContaining } from '../../db/like.js';
import type { Database } from '../../db/schema.js';
import type { Cursor } from '../../http/pagination.js';
import type { ConversationPage } from './repo-contents.js';

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
export const NEGATIVE_FEEDBACK = '%"value":"negative"%';

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
  handoff_state: string;
  waiting_since: string | null;
  assigned_to: string | null;
  assigned_name: string | null;
  created_by: string;
  /** The e-mail address the visitor left (the webchat's form when nobody came). */
  visitor_email: string | null;
  visitor_name: string | null;
  visitor_data: string | null;
  visitor_is_bot: number | null;
  /** The metadata of the latest visitor message (the webchat's page and language). */
  visitor_metadata: string | null;
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
  /** Only conversations in this handoff state (`pending`: oldest waiting first). */
  state?: string | undefined;
  /** Only conversations assigned to this account. */
  assignedTo?: string | undefined;
  /** Words in a message, or in the visitor's name or data (e-mail), case-insensitive. */
  search?: string | undefined;
}

/** The words of a stored message payload (JSON text): its text, Markdown or title. */
function payloadWords(postgres: boolean) {
  return postgres
    ? sql<string>`coalesce(m.payload::json->>'text', m.payload::json->>'markdown', m.payload::json->>'title', '')`
    : sql<string>`coalesce(json_extract(m.payload, '$.text'), json_extract(m.payload, '$.markdown'), json_extract(m.payload, '$.title'), '')`;
}

/** Conversations with `search` in a message's words or in their visitor's name or data (e-mail). */
function matching(search: string, postgres: boolean) {
  const pattern = likeContaining(search.toLowerCase());
  return sql<SqlBool>`(exists (select 1 from ${OF_C} and lower(${payloadWords(postgres)}) like ${pattern} escape '\\')
    or lower(coalesce(u.name, '')) like ${pattern} escape '\\'
    or lower(coalesce(u.data, '')) like ${pattern} escape '\\'
    or lower(coalesce(c.visitor_email, '')) like ${pattern} escape '\\')`;
}

/** The order of the Waiting tab: the oldest waiting first. */
const WAITING_KEY = sql<string>`coalesce(c.waiting_since, c.created_at)`;

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
      .leftJoin('chat_users as u', (j) =>
        j.onRef('u.bot_id', '=', 'c.bot_id').onRef('u.id', '=', 'c.created_by'),
      )
      .select(['c.id', 'c.created_at', 'c.updated_at', 'c.created_by'])
      .select(['c.handoff_state', 'c.waiting_since', 'c.assigned_to', 'c.assigned_name', 'c.visitor_email'])
      .select(['u.name as visitor_name', 'u.data as visitor_data', 'u.is_bot as visitor_is_bot'])
      .select([
        sql<number | string>`(select count(*) from ${OF_C})`.as('message_count'),
        sql<string | null>`(select m.payload from ${OF_C} ${LATEST})`.as('last_payload'),
        sql<number | null>`(select m.is_bot from ${OF_C} ${LATEST})`.as('last_is_bot'),
        sql<string | null>`(select m.created_at from ${OF_C} ${LATEST})`.as('last_at'),
        sql<string | null>`(select m.payload from ${OF_C} and m.is_bot = 0 ${LATEST})`.as('last_question'),
        sql<number | string>`case when ${hasNegative} then 1 else 0 end`.as('negative'),
        sql<number | string>`case when ${hasUnanswered} then 1 else 0 end`.as('unanswered'),
        sql<string | null>`(select m.metadata from ${OF_C} and m.is_bot = 0 ${LATEST})`.as(
          'visitor_metadata',
        ),
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
      const { filter } = q;
      let query = conversations().where('c.bot_id', '=', q.botId).where(hasMessages);
      if (filter.negative) query = query.where(hasNegative);
      if (filter.unanswered) query = query.where(hasUnanswered);
      if (filter.state) query = query.where('c.handoff_state', '=', filter.state);
      if (filter.assignedTo) query = query.where('c.assigned_to', '=', filter.assignedTo);
      if (filter.search)
        query = query.where(matching(filter.search, db.getExecutor().adapter instanceof PostgresAdapter));
      const order =
        filter.state === 'pending'
          ? { key: WAITING_KEY, id: 'c.id', direction: 'asc' as const }
          : { key: 'c.updated_at', id: 'c.id', direction: 'desc' as const };
      return keysetPage(query, order, q);
    },
    /** How many conversations each tab of the desk holds: waiting, assigned to `accountId`, all, resolved. */
    inboxCounts: async (botId: string, accountId: string) => {
      const n = (condition: ReturnType<typeof sql<SqlBool>>) =>
        sql<number | string>`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`;
      const row = await db
        .selectFrom('chat_conversations as c')
        .where('c.bot_id', '=', botId)
        .where(hasMessages)
        .select([
          n(sql<SqlBool>`c.handoff_state = 'pending'`).as('waiting'),
          n(sql<SqlBool>`c.handoff_state = 'assigned' and c.assigned_to = ${accountId}`).as('mine'),
          sql<number | string>`count(*)`.as('all'),
          n(sql<SqlBool>`c.handoff_state = 'resolved'`).as('resolved'),
        ])
        .executeTakeFirstOrThrow();
      return {
        waiting: Number(row.waiting),
        mine: Number(row.mine),
        all: Number(row.all),
        resolved: Number(row.resolved),
      };
    },
    /** One conversation of the inbox. */
    inboxConversation: (botId: string, id: string): Promise<InboxRow | undefined> =>
      conversations().where('c.bot_id', '=', botId).where('c.id', '=', id).executeTakeFirst(),
    /** `limit + 1` messages of a conversation after the cursor, oldest first, with their author's name. */
    inboxMessages: (q: ConversationPage) => {
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
