import { type Kysely, sql } from 'kysely';
import { fixedQuery } from '../../db/fixed-query.js';
import { keysetPage } from '../../db/keyset.js';
import type { Database } from '../../db/schema.js';
import type { Cursor } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import type { KeyedRows } from './repo-keyed.js';
import type { EventRow, MessageRow, SignalRow } from './rows.js';

/** A page of what a conversation holds: `limit + 1` rows after the cursor. */
export interface ConversationPage {
  botId: string;
  conversationId: string;
  limit: number;
  after: Cursor | undefined;
}

/** Who takes part in a conversation. */
export function participantQueries(db: Kysely<Database>) {
  return {
    isParticipant: async (botId: string, conversationId: string, userId: string): Promise<boolean> =>
      (await db
        .selectFrom('chat_participants')
        .select('user_id')
        .where('bot_id', '=', botId)
        .where('conversation_id', '=', conversationId)
        .where('user_id', '=', userId)
        .executeTakeFirst()) !== undefined,
    addParticipant: async (botId: string, conversationId: string, userId: string, at: string) => {
      const result = await db
        .insertInto('chat_participants')
        .values({ bot_id: botId, conversation_id: conversationId, user_id: userId, joined_at: at })
        .onConflict((oc) => oc.columns(['bot_id', 'conversation_id', 'user_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    removeParticipant: async (botId: string, conversationId: string, userId: string) => {
      const result = await db
        .deleteFrom('chat_participants')
        .where('bot_id', '=', botId)
        .where('conversation_id', '=', conversationId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    /** Participants (as users) in the order they joined. */
    listParticipants: (q: ConversationPage) => {
      const query = db
        .selectFrom('chat_participants as p')
        .innerJoin('chat_users as u', (j) =>
          j.onRef('u.bot_id', '=', 'p.bot_id').onRef('u.id', '=', 'p.user_id'),
        )
        .selectAll('u')
        .select('p.joined_at')
        .where('p.bot_id', '=', q.botId)
        .where('p.conversation_id', '=', q.conversationId);
      return keysetPage(query, { key: 'p.joined_at', id: 'p.user_id', direction: 'asc' }, q);
    },
  };
}

/** One message, every column (the message of a POST: compiled once, see fixedQuery). */
const insertMessage = fixedQuery(
  12,
  (
    db,
    id: string,
    bot_id: string,
    conversation_id: string,
    user_id: string,
    is_bot: number,
    payload: string,
    metadata: string | null,
    feedback: string | null,
    reply_to: string | null,
    created_at: string,
    answer: string | null,
    details: string | null,
  ) =>
    db.insertInto('chat_messages').values({
      id,
      bot_id,
      conversation_id,
      user_id,
      is_bot,
      payload,
      metadata,
      feedback,
      reply_to,
      created_at,
      answer,
      details,
    }),
);

/** Appends a signal, answering its cursor (compiled once, see fixedQuery). */
const insertSignal = fixedQuery(
  6,
  (
    db,
    bot_id: string,
    conversation_id: string,
    type: string,
    data: string,
    admin_only: number,
    created_at: string,
  ) =>
    db
      .insertInto('chat_signals')
      .values({ bot_id, conversation_id, type, data, admin_only, created_at })
      .returning('cursor'),
);

/** A new message row of `from` in a conversation: no feedback, a reply to nothing, `answer` its answer mode. */
export function newMessageRow(
  botId: string,
  conversationId: string,
  from: { userId: string; isBot: boolean; answer: string | null },
  json: { payload: string; metadata: string | null },
  at: string,
): MessageRow {
  return {
    id: newId('msg'),
    bot_id: botId,
    conversation_id: conversationId,
    user_id: from.userId,
    is_bot: from.isBot ? 1 : 0,
    payload: json.payload,
    metadata: json.metadata,
    feedback: null,
    reply_to: null,
    created_at: at,
    answer: from.answer,
    details: null,
  };
}

/**
 * Stores messages (one statement). A function of its own, as {@link storeSignal}: a message's transaction
 * calls it on the transaction's handle without making the chat repository for it.
 */
export async function storeMessages(db: Kysely<Database>, rows: MessageRow[]): Promise<void> {
  const [m] = rows;
  if (rows.length === 1 && m) {
    await insertMessage(
      db,
      m.id,
      m.bot_id,
      m.conversation_id,
      m.user_id,
      m.is_bot,
      m.payload,
      m.metadata,
      m.feedback,
      m.reply_to,
      m.created_at,
      m.answer ?? null,
      m.details ?? null,
    );
  } else if (rows.length > 1) {
    await db.insertInto('chat_messages').values(rows).execute();
  }
}

/** Appends a signal; answers its cursor. */
export async function storeSignal(db: Kysely<Database>, row: Omit<SignalRow, 'cursor'>): Promise<number> {
  const { rows } = await insertSignal(
    db,
    row.bot_id,
    row.conversation_id,
    row.type,
    row.data,
    row.admin_only,
    row.created_at,
  );
  const inserted = rows[0];
  if (!inserted) throw new Error('the signal was not stored');
  return Number(inserted.cursor);
}

/** The messages of a conversation. */
export function messageQueries(db: Kysely<Database>, keyed: KeyedRows) {
  return {
    insertMessages: (rows: MessageRow[]) => storeMessages(db, rows),
    message: (botId: string, id: string) => keyed.byId('chat_messages', botId, id),
    repliesTo: (botId: string, messageId: string) =>
      db
        .selectFrom('chat_messages')
        .select('id')
        .where('bot_id', '=', botId)
        .where('reply_to', '=', messageId)
        .execute(),
    setFeedback: (botId: string, id: string, feedback: string) =>
      db
        .updateTable('chat_messages')
        .set({ feedback })
        .where('bot_id', '=', botId)
        .where('id', '=', id)
        .execute(),
    deleteMessage: (botId: string, id: string) =>
      db.deleteFrom('chat_messages').where('bot_id', '=', botId).where('id', '=', id).execute(),
    /** Messages of a conversation, newest first. */
    listMessages: (q: ConversationPage) => {
      const query = db
        .selectFrom('chat_messages')
        .selectAll()
        .where('bot_id', '=', q.botId)
        .where('conversation_id', '=', q.conversationId);
      return keysetPage(query, { key: 'created_at', id: 'id', direction: 'desc' }, q);
    },
  };
}

/** The events of a conversation. */
export function eventQueries(db: Kysely<Database>, keyed: KeyedRows) {
  return {
    insertEvent: (row: EventRow) => db.insertInto('chat_events').values(row).execute(),
    event: (botId: string, id: string) => keyed.byId('chat_events', botId, id),
  };
}

/** The stored stream signals of a conversation. */
export function signalQueries(db: Kysely<Database>) {
  return {
    /** Appends a signal; answers its cursor. */
    insertSignal: (row: Omit<SignalRow, 'cursor'>) => storeSignal(db, row),
    /**
     * PostgreSQL: appends a signal; answers its cursor and the newest cursor of its conversation before it
     * (0 when none), read by the same statement (its snapshot does not hold the row it inserts). Exact only
     * while the bot's signal writers are held off (the writer's advisory lock).
     */
    insertSignalAfter: async (
      row: Omit<SignalRow, 'cursor'>,
    ): Promise<{ cursor: number; previous: number }> => {
      const inserted = await db
        .insertInto('chat_signals')
        .values(row)
        .returning([
          'cursor',
          sql<
            number | string | null
          >`(select max(p.cursor) from chat_signals p where p.bot_id = ${row.bot_id} and p.conversation_id = ${row.conversation_id})`.as(
            'previous',
          ),
        ])
        .executeTakeFirstOrThrow();
      return { cursor: Number(inserted.cursor), previous: Number(inserted.previous ?? 0) };
    },
    /**
     * Drops the stored signals that carry a message's content (`message_created`, `message_updated`), so a
     * deleted message is not replayed to a resuming stream, nor kept until the signals expire. Their data is
     * the message as JSON, which starts with its id.
     */
    purgeMessageSignals: async (botId: string, conversationId: string, messageIds: string[]) => {
      for (const id of messageIds) {
        const prefix = `{"id":${JSON.stringify(id)},`;
        await db
          .deleteFrom('chat_signals')
          .where('bot_id', '=', botId)
          .where('conversation_id', '=', conversationId)
          .where('type', 'in', ['message_created', 'message_updated'])
          .where(sql<string>`substr(data, 1, ${prefix.length})`, '=', prefix)
          .execute();
      }
    },
    /** Signals of a conversation after a cursor, in cursor order. */
    signalsAfter: (q: {
      botId: string;
      conversationId: string;
      after: number;
      admin: boolean;
      limit: number;
    }) => {
      let query = db
        .selectFrom('chat_signals')
        .selectAll()
        .where('bot_id', '=', q.botId)
        .where('conversation_id', '=', q.conversationId)
        .where('cursor', '>', q.after);
      if (!q.admin) query = query.where('admin_only', '=', 0);
      return query.orderBy('cursor', 'asc').limit(q.limit).execute();
    },
    /** The newest cursor of a conversation's signals (0 when none). */
    lastCursor: async (botId: string, conversationId: string): Promise<number> => {
      const row = await db
        .selectFrom('chat_signals')
        .select(sql<number | string | null>`max(cursor)`.as('c'))
        .where('bot_id', '=', botId)
        .where('conversation_id', '=', conversationId)
        .executeTakeFirst();
      return Number(row?.c ?? 0);
    },
    pruneSignals: async (before: string): Promise<number> => {
      const result = await db.deleteFrom('chat_signals').where('created_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
