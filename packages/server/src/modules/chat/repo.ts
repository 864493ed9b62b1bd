import { type Kysely, type Selectable, sql } from 'kysely';
import { keysetPage } from '../../db/keyset.js';
import type {
  ChatConversationsTable,
  ChatEventsTable,
  ChatMessagesTable,
  ChatSecretsTable,
  ChatSignalsTable,
  ChatUsersTable,
  Database,
} from '../../db/schema.js';
import type { Cursor } from '../../http/pagination.js';

/** A chat user row. */
export type ChatUserRow = Selectable<ChatUsersTable>;
/** A conversation row. */
export type ConversationRow = Selectable<ChatConversationsTable>;
/** A message row. */
export type MessageRow = Selectable<ChatMessagesTable>;
/** An event row. */
export type EventRow = Selectable<ChatEventsTable>;
/** A stored stream signal. */
export type SignalRow = Selectable<ChatSignalsTable>;
/** A bot's chat secrets. */
export type SecretsRow = Selectable<ChatSecretsTable>;

/** A page of what a conversation holds: `limit + 1` rows after the cursor. */
interface ConversationPage {
  botId: string;
  conversationId: string;
  limit: number;
  after: Cursor | undefined;
}

/** The chat tables whose rows are keyed by bot and id. */
type KeyedTable = 'chat_users' | 'chat_conversations' | 'chat_messages' | 'chat_events';
/** The key columns of those tables. */
interface Key {
  bot_id: string;
  id: string;
}

/**
 * Queries over one of the tables keyed by bot and id. Kysely cannot type a query over a table picked by a
 * type parameter, so these see only the two key columns every one of these tables has.
 */
function keyedRows(db: Kysely<Database>) {
  const keyed = db as unknown as Kysely<Record<KeyedTable, Key>>;
  return {
    /** The row of this id, of this bot. */
    byId: <T extends KeyedTable>(table: T, botId: string, id: string) =>
      keyed
        .selectFrom(table as KeyedTable)
        .selectAll()
        .where('bot_id', '=', botId)
        .where('id', '=', id)
        .executeTakeFirst() as Promise<Selectable<Database[T]> | undefined>,
    /** Inserts a whole row (typed by the caller) unless one of the same bot and id exists; answers whether it was. */
    insertIfMissing: async (table: KeyedTable, row: Key): Promise<boolean> => {
      const result = await keyed
        .insertInto(table)
        .values(row)
        .onConflict((oc) => oc.columns(['bot_id', 'id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}

/** Queries of the Chat API tables. Every query is scoped by bot. */
export function chatRepo(db: Kysely<Database>) {
  const keyed = keyedRows(db);
  return {
    secrets: (botId: string) =>
      db.selectFrom('chat_secrets').selectAll().where('bot_id', '=', botId).executeTakeFirst(),
    /** Inserts secrets unless the bot has some already (first one wins across processes). */
    insertSecretsIfMissing: (row: SecretsRow) =>
      db
        .insertInto('chat_secrets')
        .values(row)
        .onConflict((oc) => oc.column('bot_id').doNothing())
        .execute(),
    replaceSecrets: (row: SecretsRow) =>
      db
        .insertInto('chat_secrets')
        .values(row)
        .onConflict((oc) =>
          oc.column('bot_id').doUpdateSet({
            user_key_secret: row.user_key_secret,
            webhook_secret: row.webhook_secret,
            rotated_at: row.rotated_at,
          }),
        )
        .execute(),

    user: (botId: string, id: string) => keyed.byId('chat_users', botId, id),
    usersByIds: (botId: string, ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([] as ChatUserRow[])
        : db
            .selectFrom('chat_users')
            .selectAll()
            .where('bot_id', '=', botId)
            .where('id', 'in', ids)
            .execute(),
    /** Inserts a user unless one with this id exists; answers whether it was inserted. */
    insertUserIfMissing: (row: ChatUserRow) => keyed.insertIfMissing('chat_users', row),
    updateUser: (botId: string, id: string, values: Partial<ChatUserRow>) =>
      db.updateTable('chat_users').set(values).where('bot_id', '=', botId).where('id', '=', id).execute(),
    /**
     * Deletes a user and everything it wrote: its messages, events and participations; conversations it
     * created and that have no other participant left go too, with all they hold.
     */
    /** What a user leaves behind in conversations: its messages and participations (for their signals). */
    traces: async (botId: string, id: string) => ({
      messages: await db
        .selectFrom('chat_messages')
        .select(['id', 'conversation_id'])
        .where('bot_id', '=', botId)
        .where('user_id', '=', id)
        .execute(),
      participations: (
        await db
          .selectFrom('chat_participants')
          .select('conversation_id')
          .where('bot_id', '=', botId)
          .where('user_id', '=', id)
          .execute()
      ).map((r) => r.conversation_id),
    }),
    deleteUser: async (botId: string, id: string): Promise<string[]> => {
      const created = await db
        .selectFrom('chat_conversations')
        .select('id')
        .where('bot_id', '=', botId)
        .where('created_by', '=', id)
        .execute();
      const orphaned: string[] = [];
      for (const { id: conversationId } of created) {
        const others = await db
          .selectFrom('chat_participants')
          .select('user_id')
          .where('bot_id', '=', botId)
          .where('conversation_id', '=', conversationId)
          .where('user_id', '!=', id)
          .executeTakeFirst();
        if (!others) orphaned.push(conversationId);
      }
      for (const conversationId of orphaned) await chatRepo(db).deleteConversation(botId, conversationId);
      await db.deleteFrom('chat_messages').where('bot_id', '=', botId).where('user_id', '=', id).execute();
      await db.deleteFrom('chat_events').where('bot_id', '=', botId).where('user_id', '=', id).execute();
      await db
        .deleteFrom('chat_participants')
        .where('bot_id', '=', botId)
        .where('user_id', '=', id)
        .execute();
      await db.deleteFrom('chat_users').where('bot_id', '=', botId).where('id', '=', id).execute();
      return orphaned;
    },

    conversation: (botId: string, id: string) => keyed.byId('chat_conversations', botId, id),
    insertConversationIfMissing: (row: ConversationRow) => keyed.insertIfMissing('chat_conversations', row),
    touchConversation: (botId: string, id: string, at: string) =>
      db
        .updateTable('chat_conversations')
        .set({ updated_at: at })
        .where('bot_id', '=', botId)
        .where('id', '=', id)
        .execute(),
    /** Conversations newest-updated first; of one participant, or all of the bot when `userId` is undefined. */
    listConversations: (q: {
      botId: string;
      userId: string | undefined;
      limit: number;
      after: Cursor | undefined;
    }) => {
      let query = db.selectFrom('chat_conversations as c').selectAll('c').where('c.bot_id', '=', q.botId);
      if (q.userId !== undefined) {
        const userId = q.userId;
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('chat_participants as p')
              .select('p.user_id')
              .whereRef('p.bot_id', '=', 'c.bot_id')
              .whereRef('p.conversation_id', '=', 'c.id')
              .where('p.user_id', '=', userId),
          ),
        );
      }
      return keysetPage(query, { key: 'c.updated_at', id: 'c.id', direction: 'desc' }, q);
    },
    deleteConversation: async (botId: string, id: string) => {
      // Stored signals carry message contents: they go with the conversation.
      for (const table of ['chat_messages', 'chat_events', 'chat_participants', 'chat_signals'] as const) {
        await db.deleteFrom(table).where('bot_id', '=', botId).where('conversation_id', '=', id).execute();
      }
      await db.deleteFrom('chat_conversations').where('bot_id', '=', botId).where('id', '=', id).execute();
    },

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

    insertEvent: (row: EventRow) => db.insertInto('chat_events').values(row).execute(),
    event: (botId: string, id: string) => keyed.byId('chat_events', botId, id),

    /** Appends a signal; answers its cursor. */
    insertSignal: async (row: Omit<SignalRow, 'cursor'>): Promise<number> => {
      const inserted = await db
        .insertInto('chat_signals')
        .values(row)
        .returning('cursor')
        .executeTakeFirstOrThrow();
      return Number(inserted.cursor);
    },
    /** Signals of a conversation after a cursor, in cursor order. */
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
/** The chat repository. */
export type ChatRepo = ReturnType<typeof chatRepo>;
