import type { Kysely, Migration } from 'kysely';

// Sign-in throttling and invitation squatting (security issue #31, findings 5 and 8). `sign_in_failures.attempt`:
// an attempt's rows are written (reserved) before its password is checked, so concurrent attempts cannot
// overrun the limits, and a success takes back exactly its own rows. `accounts.unclaimed_via`: the workspace
// whose invitation made the account, while nobody has signed into it (an invitation from another workspace
// may then reset it); existing accounts are claimed.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sign_in_failures').addColumn('attempt', 'text').execute();
    await db.schema
      .createIndex('sign_in_failures_attempt')
      .on('sign_in_failures')
      .column('attempt')
      .execute();
    await db.schema.alterTable('accounts').addColumn('unclaimed_via', 'text').execute();
  },
};
