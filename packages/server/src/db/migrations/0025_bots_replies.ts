import type { Kysely, Migration } from 'kysely';

// The bot's own reply texts (issue #33, item 5): JSON {notFound?, intro?, clarify?}; `{}` (every default) for
// existing bots.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('bots')
      .addColumn('replies', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
  },
};
