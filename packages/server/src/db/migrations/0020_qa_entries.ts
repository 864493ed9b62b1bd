import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { executeSqlFile } from './sql-file.js';

// Q&A entries of a bot (0020_qa_entries.sql), and their wordings apart: one row each with its content words
// and, once the `qa_embed` job ran, its vector (little-endian float32: a blob, bytea on PostgreSQL) and the
// model that made it.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await executeSqlFile(db, '0020_qa_entries');
    const blob = db.getExecutor().adapter instanceof PostgresAdapter ? sql`bytea` : sql`blob`;
    await sql`
      create table qa_wordings (
        entry_id text not null references qa_entries(id) on delete cascade,
        position integer not null,
        bot_id text not null,
        text text not null,
        terms text not null,
        vector ${blob},
        model_id text,
        constraint qa_wordings_pk primary key (entry_id, position)
      )`.execute(db);
    await sql`create index qa_wordings_bot on qa_wordings (bot_id)`.execute(db);
  },
};
