import type { Kysely, Migration } from 'kysely';

// Rate limits shared by every process (http/rate-limit-store.ts): one counter per key and window, the end of
// the window in epoch ms on the database's clock; the index lets the sweep delete ended windows cheaply.
// Only PostgreSQL counts here (SQLite is one process, counted in memory); the table is made on both.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rate_limits')
      .ifNotExists()
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('resets_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('rate_limits_resets_at')
      .ifNotExists()
      .on('rate_limits')
      .column('resets_at')
      .execute();
  },
};
