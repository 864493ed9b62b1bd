import { type ColumnDefinitionBuilder, type Kysely, type Migration, PostgresAdapter } from 'kysely';

// The Chat API (modules/chat): per-bot chat users and secrets, conversations, participants, messages,
// events, and the durable signal log of the live streams (cursor = resume point, pruned after a retention).
// Users and conversations are keyed per bot, since a site may choose their ids (verified identity,
// get-or-create). A bot's chat data goes with the bot (cascade).
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const botRef = (c: ColumnDefinitionBuilder) => c.notNull().references('bots.id').onDelete('cascade');
    await db.schema
      .createTable('chat_secrets')
      .addColumn('bot_id', 'text', (c) => c.primaryKey().references('bots.id').onDelete('cascade'))
      .addColumn('user_key_secret', 'text', (c) => c.notNull())
      .addColumn('webhook_secret', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('rotated_at', 'text')
      .execute();
    await db.schema
      .createTable('chat_users')
      .addColumn('bot_id', 'text', botRef)
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('picture_url', 'text')
      .addColumn('data', 'text')
      .addColumn('user_key', 'text')
      .addColumn('is_bot', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('chat_users_pk', ['bot_id', 'id'])
      .execute();
    await db.schema
      .createTable('chat_conversations')
      .addColumn('bot_id', 'text', botRef)
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('chat_conversations_pk', ['bot_id', 'id'])
      .execute();
    await db.schema
      .createIndex('chat_conversations_bot_updated')
      .on('chat_conversations')
      .columns(['bot_id', 'updated_at', 'id'])
      .execute();
    await db.schema
      .createTable('chat_participants')
      .addColumn('bot_id', 'text', botRef)
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('joined_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('chat_participants_pk', ['bot_id', 'conversation_id', 'user_id'])
      .execute();
    await db.schema
      .createIndex('chat_participants_user')
      .on('chat_participants')
      .columns(['bot_id', 'user_id'])
      .execute();
    await db.schema
      .createTable('chat_messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('bot_id', 'text', botRef)
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('is_bot', 'integer', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('metadata', 'text')
      .addColumn('feedback', 'text')
      .addColumn('reply_to', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('chat_messages_conversation')
      .on('chat_messages')
      .columns(['bot_id', 'conversation_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('chat_messages_user')
      .on('chat_messages')
      .columns(['bot_id', 'user_id'])
      .execute();
    await db.schema
      .createIndex('chat_messages_reply_to')
      .on('chat_messages')
      .columns(['bot_id', 'reply_to'])
      .execute();
    await db.schema
      .createTable('chat_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('bot_id', 'text', botRef)
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('chat_events_conversation')
      .on('chat_events')
      .columns(['bot_id', 'conversation_id'])
      .execute();
    // The cursor only grows (SQLite AUTOINCREMENT never reuses a pruned value; a PostgreSQL identity never does).
    await db.schema
      .createTable('chat_signals')
      .addColumn('cursor', postgres ? 'bigint' : 'integer', (c) =>
        postgres ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
      )
      .addColumn('bot_id', 'text', botRef)
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('admin_only', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('chat_signals_conversation')
      .on('chat_signals')
      .columns(['bot_id', 'conversation_id', 'cursor'])
      .execute();
    await db.schema.createIndex('chat_signals_created').on('chat_signals').column('created_at').execute();
  },
};
