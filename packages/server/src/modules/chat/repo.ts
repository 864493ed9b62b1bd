import { BOT_ANSWERS_IN } from '@parley/protocol';
import type { Insertable, Kysely, Updateable } from 'kysely';
import { fixedQuery } from '../../db/fixed-query.js';
import { keysetPage } from '../../db/keyset.js';
import { PerHandle } from '../../db/per-handle.js';
import type { Database } from '../../db/schema.js';
import type { ChatConversationsTable } from '../../db/tables/chat.js';
import type { Cursor } from '../../http/pagination.js';
import { eventQueries, messageQueries, participantQueries, signalQueries } from './repo-contents.js';
import { inboxQueries } from './repo-inbox.js';
import { type KeyedRows, keyedRows } from './repo-keyed.js';
import type { ChatUserRow, SecretsRow } from './rows.js';

export type { ChatUserRow, ConversationRow, EventRow, MessageRow, SecretsRow, SignalRow } from './rows.js';

/** The bot's chat secrets. */
function secretQueries(db: Kysely<Database>) {
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
  };
}

/** The chat users, and what deleting one takes with it. */
function userQueries(db: Kysely<Database>, keyed: KeyedRows) {
  return {
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
    /**
     * Deletes a user and everything it wrote: its messages, events and participations; conversations it
     * created and that have no other participant left go too, with all they hold.
     */
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
      for (const conversationId of orphaned)
        await conversationQueries(db, keyed).deleteConversation(botId, conversationId);
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
  };
}

/** Sets a conversation's time of last change (every message does: compiled once, see fixedQuery). */
const touchConversation = fixedQuery(3, (db, botId: string, id: string, at: string) =>
  db
    .updateTable('chat_conversations')
    .set({ updated_at: at })
    .where('bot_id', '=', botId)
    .where('id', '=', id),
);

/**
 * Sets a conversation's time of last change; answers whether the conversation exists. A function of its own:
 * a message's transaction calls it on the transaction's handle without making the chat repository for it.
 */
export async function touchConversationOf(
  db: Kysely<Database>,
  botId: string,
  id: string,
  at: string,
): Promise<boolean> {
  return Number((await touchConversation(db, botId, id, at)).numAffectedRows ?? 0) > 0;
}

/**
 * The bot's turn in a conversation: sets its time of last change only while the bot answers it (state `bot`
 * or `resolved`); answers whether it did. In the transaction that posts the bot's reply, so a change of owner
 * committed first makes it false (on PostgreSQL the update waits for a change of owner under way and then
 * reads the committed state), and one committed after waits for the reply's commit.
 */
export async function botTurnOf(
  db: Kysely<Database>,
  botId: string,
  id: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('chat_conversations')
    .set({ updated_at: at })
    .where('bot_id', '=', botId)
    .where('id', '=', id)
    .where('handoff_state', 'in', [...BOT_ANSWERS_IN])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The conversations of a bot. */
function conversationQueries(db: Kysely<Database>, keyed: KeyedRows) {
  return {
    conversation: (botId: string, id: string) => keyed.byId('chat_conversations', botId, id),
    insertConversationIfMissing: (row: Insertable<ChatConversationsTable>) =>
      keyed.insertIfMissing('chat_conversations', row),
    /** Sets a conversation's time of last change; answers whether the conversation exists. */
    touchConversation: (botId: string, id: string, at: string) => touchConversationOf(db, botId, id, at),
    /**
     * Changes who answers a conversation, only if it is still in the state (and with the person) `from` was
     * read in; answers whether it was.
     */
    setHandoff: async (
      botId: string,
      from: { id: string; handoff_state: string; assigned_to: string | null },
      values: Updateable<ChatConversationsTable>,
    ): Promise<boolean> => {
      const result = await db
        .updateTable('chat_conversations')
        .set(values)
        .where('bot_id', '=', botId)
        .where('id', '=', from.id)
        .where('handoff_state', '=', from.handoff_state)
        .where('assigned_to', from.assigned_to === null ? 'is' : '=', from.assigned_to)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Records when a person first replied in a conversation (later replies change nothing). */
    firstHumanReply: (botId: string, id: string, at: string) =>
      db
        .updateTable('chat_conversations')
        .set({ first_human_reply_at: at })
        .where('bot_id', '=', botId)
        .where('id', '=', id)
        .where('first_human_reply_at', 'is', null)
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
      // So do the desk's notes on it.
      for (const table of [
        'chat_messages',
        'chat_events',
        'chat_participants',
        'chat_signals',
        'conversation_notes',
      ] as const) {
        await db.deleteFrom(table).where('bot_id', '=', botId).where('conversation_id', '=', id).execute();
      }
      await db.deleteFrom('chat_conversations').where('bot_id', '=', botId).where('id', '=', id).execute();
    },
  };
}

/**
 * The repositories made so far, by database handle: building one makes some sixty closures, and a message's
 * request asks for one about ten times (the database's, then its transaction's), so each handle keeps its own.
 * A transaction's handle, and its repository with it, is let go with the transaction.
 */
const repos = new PerHandle<ChatRepo>();

/** Queries of the Chat API tables. Every query is scoped by bot. */
export function chatRepo(db: Kysely<Database>): ChatRepo {
  return repos.of(db, () => makeChatRepo(db));
}

function makeChatRepo(db: Kysely<Database>) {
  const keyed = keyedRows(db);
  return {
    ...secretQueries(db),
    ...userQueries(db, keyed),
    ...conversationQueries(db, keyed),
    ...participantQueries(db),
    ...messageQueries(db, keyed),
    ...eventQueries(db, keyed),
    ...signalQueries(db),
    ...inboxQueries(db),
  };
}
/** The chat repository. */
export type ChatRepo = ReturnType<typeof makeChatRepo>;
