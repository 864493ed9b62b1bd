import type { Kysely, Migration } from 'kysely';

// Human sign-in: an account's password (apart from the account row, so no listing ever reads it), the
// sessions a sign-in opens (only the SHA-256 of the cookie's value is stored), and failed sign-ins by key
// (an e-mail or a client address) for throttling across every process of a deployment.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('account_passwords')
      .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('hash', 'text', (c) => c.notNull().unique())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('user_agent', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('sessions_account').on('sessions').columns(['account_id', 'id']).execute();
    await db.schema
      .createTable('sign_in_failures')
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('failed_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('sign_in_failures_key')
      .on('sign_in_failures')
      .columns(['key', 'failed_at'])
      .execute();
    await db.schema.createIndex('sign_in_failures_at').on('sign_in_failures').column('failed_at').execute();
  },
};
