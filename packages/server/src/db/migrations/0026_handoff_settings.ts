import { type Kysely, type Migration, sql } from 'kysely';

// Human handoff, the rest of issue #35: a bot's handoff settings (JSON BotHandoff: wait, opening hours, the
// not-found offer, the handoff webhook; `{}` for existing bots), when a person was first asked for in a
// conversation (its earlier waits are taken as that time) and the e-mail address a visitor left.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('bots')
      .addColumn('handoff', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
    for (const name of ['handoff_requested_at', 'visitor_email'])
      await db.schema.alterTable('chat_conversations').addColumn(name, 'text').execute();
    await sql`update chat_conversations set handoff_requested_at = waiting_since where waiting_since is not null`.execute(
      db,
    );
  },
};
