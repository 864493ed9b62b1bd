import { type Kysely, sql } from 'kysely';
import { keysetPage } from '../../db/keyset.js';
import type { Database } from '../../db/schema.js';
import type { Cursor } from '../../http/pagination.js';
import type { EventRow, MessageRow, SignalRow } from './repo.js';
import type { KeyedRows } from './repo-keyed.js';

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

/** The messages of a conversation. */
export function messageQueries(db: Kysely<Database>, keyed: KeyedRows) {
  return {
    insertMessages: (rows: MessageRow[]) => db.insertInto('chat_messages').values(rows).execute(),
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
    insertSignal: async (row: Omit<SignalRow, 'cursor'>): Promise<number> => {
      const inserted = await db
        .insertInto('chat_signals')
        .values(row)
        .returning('cursor')
        .executeTakeFirstOrThrow();
      return Number(inserted.cursor);
    },
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
