import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

// Q&A entries of a bot (modules/qa, issue #34): an entry's wordings apart, one row each with its content
// words and, once the `qa_embed` job ran, its vector (little-endian float32) and the model that made it;
// `qa_revisions` counts each bot's changes, so every process knows when its cached wordings are stale.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    const blob = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
    await db.schema
      .createTable('qa_entries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
      .addColumn('knowledge_base_id', 'text', (c) => c.references('knowledge_bases.id').onDelete('set null'))
      .addColumn('questions', 'text', (c) => c.notNull())
      .addColumn('answer', 'text', (c) => c.notNull())
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('search_text', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('qa_entries_bot').on('qa_entries').columns(['bot_id', 'id']).execute();
    await db.schema
      .createTable('qa_wordings')
      .addColumn('entry_id', 'text', (c) => c.notNull().references('qa_entries.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('bot_id', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('terms', 'text', (c) => c.notNull())
      .addColumn('vector', sql.raw(blob))
      .addColumn('model_id', 'text')
      .addPrimaryKeyConstraint('qa_wordings_pk', ['entry_id', 'position'])
      .execute();
    await db.schema.createIndex('qa_wordings_bot').on('qa_wordings').column('bot_id').execute();
    await db.schema
      .createTable('qa_revisions')
      .addColumn('bot_id', 'text', (c) => c.primaryKey().references('bots.id').onDelete('cascade'))
      .addColumn('revision', 'integer', (c) => c.notNull())
      .execute();
  },
};
