import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { HUMAN_ANSWER, NOT_FOUND_ANSWER } from './repo-inbox.js';

/** The answer mode of a reply that asked back with choices (the answers module's `clarify`). */
export const CLARIFY_ANSWER = 'clarify';

/** One UTC day of a bot's messages, as counted by the database (PostgreSQL counts come back as text). */
export interface ActivityDayRow {
  day: string;
  visitor: number | string | null;
  bot: number | string | null;
  /** Messages of a person of the workspace (human handoff): never the bot's. */
  human: number | string | null;
  replies: number | string | null;
  not_found: number | string | null;
  /** Replies whose answer mode is the one asked for (e.g. `qa`). */
  with_mode: number | string | null;
  clarified: number | string | null;
  positive: number | string | null;
  negative: number | string | null;
}

/** A question a not-found reply answered, with the time of that reply. */
export interface UnansweredRow {
  /** The start of its stored payload (JSON, cut). */
  payload: string;
  at: string;
}

/**
 * What a bot reply's stored payload holds when the knowledge base had nothing (`notFoundText` is the answers
 * module's NOT_FOUND_TEXT; chat does not import answers: it is given). Replies the reply job records carry
 * the answer mode `not_found` too; either marks a not-found reply, so replies stored before the answer mode
 * existed, or posted without it, count as well.
 */
export const notFoundPattern = (notFoundText: string) => `%"text":${JSON.stringify(notFoundText)}%`;

/** Stored feedback (JSON) with this value; JSON escapes quotes in a comment, so this matches only the value. */
const feedbackIs = (value: 'positive' | 'negative') => `%"value":"${value}"%`;

/** The UTC day (YYYY-MM-DD) of an ISO timestamp column, on SQLite and PostgreSQL alike. */
const dayOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

/**
 * Aggregates of a bot's conversations since a time, per UTC day, computed by the database (one pass over the
 * bot's messages since `from`), and the visitor questions that got a not-found reply, newest first.
 */
export function activityQueries(db: Kysely<Database>) {
  return {
    /**
     * Messages per day: by visitors, by the bot, bot replies, not-found replies, thumbs up and down. Each
     * message's flags are worked out first (a materialized CTE) and only they are grouped: grouping the rows
     * themselves made SQLite copy every message's payload (visitors' up to 128 KB each) into its GROUP BY
     * sorter, which blocked the process for as long. Feedback is only ever given on bot messages.
     */
    activityDays: (botId: string, from: string, notFound: string, answerMode = '') =>
      db
        .with(
          (cte) => cte('m').materialized(),
          (q) =>
            q
              .selectFrom('chat_messages')
              .select([
                dayOf('created_at').as('day'),
                'is_bot',
                // A person's message (human handoff) is stored as not the visitor's, but it is no bot answer.
                sql<number>`case when is_bot = 1 and answer = ${HUMAN_ANSWER} then 1 else 0 end`.as('human'),
                sql<number>`case when is_bot = 1 and reply_to is not null then 1 else 0 end`.as('reply'),
                sql<number>`case when is_bot = 1 and (answer = ${NOT_FOUND_ANSWER} or (payload like ${notFound} and coalesce(answer, '') <> ${HUMAN_ANSWER})) then 1 else 0 end`.as(
                  'not_found',
                ),
                sql<number>`case when is_bot = 1 and answer = ${answerMode} then 1 else 0 end`.as(
                  'with_mode',
                ),
                sql<number>`case when is_bot = 1 and answer = ${CLARIFY_ANSWER} then 1 else 0 end`.as(
                  'clarified',
                ),
                sql<number>`case when is_bot = 1 and feedback like ${feedbackIs('positive')} then 1 else 0 end`.as(
                  'positive',
                ),
                sql<number>`case when is_bot = 1 and feedback like ${feedbackIs('negative')} then 1 else 0 end`.as(
                  'negative',
                ),
              ])
              .where('bot_id', '=', botId)
              .where('created_at', '>=', from),
        )
        .selectFrom('m')
        .select([
          'm.day',
          sql<number>`sum(case when is_bot = 0 then 1 else 0 end)`.as('visitor'),
          sql<number>`sum(case when is_bot = 1 and human = 0 then 1 else 0 end)`.as('bot'),
          sql<number>`sum(human)`.as('human'),
          sql<number>`sum(reply)`.as('replies'),
          sql<number>`sum(not_found)`.as('not_found'),
          sql<number>`sum(with_mode)`.as('with_mode'),
          sql<number>`sum(clarified)`.as('clarified'),
          sql<number>`sum(positive)`.as('positive'),
          sql<number>`sum(negative)`.as('negative'),
        ])
        .groupBy('m.day')
        .execute() as Promise<ActivityDayRow[]>,

    /**
     * Conversations started per day in which a visitor wrote: a webchat opened without a word (or the Console
     * designer's preview of the hosted chat) starts one that is no conversation to count.
     */
    conversationDays: (botId: string, from: string) =>
      db
        .selectFrom('chat_conversations as c')
        .select([
          dayOf('c.created_at').as('day'),
          sql<number | string>`count(*)`.as('started'),
          // Resolved by people: a person of the workspace replied in it (human handoff); by the bot otherwise.
          sql<number | string>`sum(case when c.first_human_reply_at is not null then 1 else 0 end)`.as(
            'by_people',
          ),
        ])
        .where('c.bot_id', '=', botId)
        .where('c.created_at', '>=', from)
        .where(
          sql<SqlBool>`exists (select 1 from chat_messages m where m.bot_id = c.bot_id and m.conversation_id = c.id and m.is_bot = 0)`,
        )
        .groupBy(dayOf('c.created_at'))
        .execute(),

    /** Requests for a person per UTC day of the (first) request: conversations whose visitor asked for one. */
    handoffDays: (botId: string, from: string) =>
      db
        .selectFrom('chat_conversations as c')
        .select([dayOf('c.handoff_requested_at').as('day'), sql<number | string>`count(*)`.as('requested')])
        .where('c.bot_id', '=', botId)
        .where('c.handoff_requested_at', '>=', from)
        .groupBy(dayOf('c.handoff_requested_at'))
        .execute(),

    /** When a person was asked for and when one first replied, of each conversation asked since `from` that got one. */
    humanWaits: (botId: string, from: string) =>
      db
        .selectFrom('chat_conversations as c')
        .select(['c.handoff_requested_at as requested', 'c.first_human_reply_at as replied'])
        .where('c.bot_id', '=', botId)
        .where('c.handoff_requested_at', '>=', from)
        .where('c.first_human_reply_at', 'is not', null)
        .execute() as Promise<Array<{ requested: string; replied: string }>>,

    /** The user messages (at most `limit`, with their time) a not-found reply since `from` answered, newest reply first. */
    /** `payload` is the first `prefixChars` characters of the question's stored payload (JSON, maybe cut). */
    unansweredQuestions: (
      botId: string,
      from: string,
      notFound: string,
      limit: number,
      prefixChars: number,
    ) =>
      db
        .selectFrom('chat_messages as b')
        .innerJoin('chat_messages as u', (join) =>
          join.onRef('u.bot_id', '=', 'b.bot_id').onRef('u.id', '=', 'b.reply_to'),
        )
        .select([sql<string>`substr(u.payload, 1, ${prefixChars})`.as('payload'), 'u.created_at as at'])
        .where('b.bot_id', '=', botId)
        .where('b.is_bot', '=', 1)
        .where('b.created_at', '>=', from)
        .where((eb) => eb.or([eb('b.answer', '=', NOT_FOUND_ANSWER), eb('b.payload', 'like', notFound)]))
        .orderBy('b.created_at', 'desc')
        .orderBy('b.id', 'desc')
        .limit(limit)
        .execute() as Promise<UnansweredRow[]>,
  };
}
