import { type Kysely, type Migration, sql } from 'kysely';

// A message's reply_to is set on the bot's answers only: the index of (bot, reply_to) had an entry, nearly
// always NULL, for every message, and each message's commit wrote a page of it. It now holds the answers.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`drop index if exists chat_messages_reply_to`.execute(db);
    await sql`create index chat_messages_reply_to on chat_messages(bot_id, reply_to) where reply_to is not null`.execute(
      db,
    );
  },
};
