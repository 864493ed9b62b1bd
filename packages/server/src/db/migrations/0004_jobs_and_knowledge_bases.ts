import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('run_after', 'text', (c) => c.notNull())
      .addColumn('locked_by', 'text')
      .addColumn('locked_until', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('jobs_claim').on('jobs').columns(['status', 'kind', 'run_after']).execute();
    await db.schema
      .alterTable('files')
      .addColumn('indexing_done', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('files')
      .addColumn('indexing_total', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('knowledge_bases')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('knowledge_bases_bot_name', ['bot_id', 'name'])
      .execute();
    await db.schema
      .createTable('knowledge_base_files')
      .addColumn('knowledge_base_id', 'text', (c) =>
        c.notNull().references('knowledge_bases.id').onDelete('cascade'),
      )
      .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
      .addColumn('linked_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('knowledge_base_files_pk', ['knowledge_base_id', 'file_id'])
      .execute();
    await db.schema
      .createIndex('knowledge_base_files_file')
      .on('knowledge_base_files')
      .column('file_id')
      .execute();
  },
};
