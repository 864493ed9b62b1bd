import type { Kysely, Migration } from 'kysely';

// Internal notes of the inbox desk (issue #35, item 4): what the workspace's people write beside a
// conversation, never sent to its visitor (no Chat API reads this table); gone with the conversation or bot.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('conversation_notes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('author_id', 'text', (c) => c.notNull())
      .addColumn('author_name', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('conversation_notes_conversation')
      .on('conversation_notes')
      .columns(['bot_id', 'conversation_id', 'created_at', 'id'])
      .execute();
  },
};
