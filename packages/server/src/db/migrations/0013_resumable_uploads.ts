import type { Kysely, Migration } from 'kysely';

// Resumable uploads (modules/files/resumable.ts): one session per upload version of a file, the bytes it has
// received so far as parts (each a blob of its own under `uploads/`), joined into the file's blob at the end.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('file_uploads')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('upload_version', 'integer', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('offset', 'bigint', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('file_uploads_file_version', ['file_id', 'upload_version'])
      .execute();
    await db.schema
      .createIndex('file_uploads_expires')
      .ifNotExists()
      .on('file_uploads')
      .column('expires_at')
      .execute();
    await db.schema
      .createTable('file_upload_parts')
      .ifNotExists()
      .addColumn('upload_id', 'text', (c) => c.notNull())
      .addColumn('offset', 'bigint', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('blob_key', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('file_upload_parts_pk', ['upload_id', 'offset'])
      .execute();
  },
};
