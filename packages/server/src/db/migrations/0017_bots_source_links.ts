import type { Kysely, Migration } from 'kysely';

// Which sources of a bot's answers are linked (security issue #31): every existing bot gets `public`, the
// default (public_content files and a metadata sourceUrl only), no longer every private file.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('bots')
      .addColumn('source_links', 'text', (c) => c.notNull().defaultTo('public'))
      .execute();
  },
};
