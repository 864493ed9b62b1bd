import type { Kysely, Migration } from 'kysely';

// Website sources of knowledge bases (issue #36): the source with its crawl state, progress and last runs;
// and each page it crawled into a file, with what a conditional GET and the unchanged check need.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('knowledge_sources')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('knowledge_base_id', 'text', (c) =>
        c.notNull().references('knowledge_bases.id').onDelete('cascade'),
      )
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('schedule', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('stop_requested', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('progress', 'text', (c) => c.notNull())
      .addColumn('runs', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('next_sync_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('knowledge_sources_kb')
      .on('knowledge_sources')
      .column('knowledge_base_id')
      .execute();
    await db.schema
      .createIndex('knowledge_sources_due')
      .on('knowledge_sources')
      .column('next_sync_at')
      .execute();
    await db.schema
      .createTable('knowledge_source_pages')
      .addColumn('source_id', 'text', (c) =>
        c.notNull().references('knowledge_sources.id').onDelete('cascade'),
      )
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('etag', 'text')
      .addColumn('last_modified', 'text')
      .addColumn('content_hash', 'text', (c) => c.notNull())
      .addColumn('gone_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('fetched_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('knowledge_source_pages_pk', ['source_id', 'url'])
      .execute();
  },
};
