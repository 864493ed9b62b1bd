import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { executeSqlFile } from './sql-file.js';

// The Chat API's tables (0006_chat.sql), and the durable signal log of the live streams (cursor = resume point,
// pruned after a retention), whose key each engine makes its own way.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await executeSqlFile(db, '0006_chat');
    // The cursor only grows (SQLite AUTOINCREMENT never reuses a pruned value; a PostgreSQL identity never does).
    const cursor =
      db.getExecutor().adapter instanceof PostgresAdapter
        ? sql`bigint generated always as identity primary key`
        : sql`integer primary key autoincrement`;
    await sql`
      create table chat_signals (
        cursor ${cursor},
        bot_id text not null references bots(id) on delete cascade,
        conversation_id text not null,
        type text not null,
        data text not null,
        admin_only integer not null default 0,
        created_at text not null
      )`.execute(db);
    await sql`create index chat_signals_conversation on chat_signals (bot_id, conversation_id, cursor)`.execute(
      db,
    );
    await sql`create index chat_signals_created on chat_signals (created_at)`.execute(db);
  },
};
