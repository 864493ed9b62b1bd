import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('files')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint')
      .addColumn('declared_size', 'bigint', (c) => c.notNull())
      .addColumn('sha256', 'text')
      .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('access_policies', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('index', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('indexing_configuration', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('failed_status_reason', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('owner_type', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text')
      .addColumn('blob_key', 'text')
      .addColumn('upload_version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('files_bot_key', ['bot_id', 'key'])
      .execute();
    await db.schema
      .createIndex('files_bot_created')
      .on('files')
      .columns(['bot_id', 'created_at', 'id'])
      .execute();
    await db.schema.createIndex('files_workspace').on('files').column('workspace_id').execute();
    await db.schema.createIndex('files_expires').on('files').column('expires_at').execute();
    await db.schema
      .createTable('file_tags')
      .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('file_tags_pk', ['file_id', 'key'])
      .execute();
    // Blobs to delete once their record is gone: durable, so a crash between the two never leaks bytes.
    await db.schema
      .createTable('blob_garbage')
      .addColumn('blob_key', 'text', (c) => c.primaryKey())
      .addColumn('queued_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('file_tags_key_value').on('file_tags').columns(['key', 'value']).execute();
  },
};
