import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

// SQLite: which files' passages changed, for the in-memory lexical index (search/index/lexical-memory-worker.ts),
// which reads the files changed since the version it last saw. A row per file, its version the largest so
// far plus one, written by triggers, so every connection's and process's writes (deletes by cascade too) are
// seen. Every file with passages is listed at once, so a new index reads them all. PostgreSQL is unchanged.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return;
    await sql`
      create table if not exists passage_changes (file_id text primary key, version integer not null)`.execute(
      db,
    );
    await sql`create index if not exists passage_changes_version on passage_changes(version)`.execute(db);
    await sql`
      insert or replace into passage_changes(file_id, version)
      select file_id, row_number() over (order by file_id) from (select distinct file_id from passages)`.execute(
      db,
    );
    const bump = (row: 'new' | 'old') => sql`
      insert or replace into passage_changes(file_id, version)
        values (${sql.raw(row)}.file_id, coalesce((select max(version) from passage_changes), 0) + 1);`;
    await sql`
      create trigger if not exists passage_changes_insert after insert on passages begin ${bump('new')} end`.execute(
      db,
    );
    await sql`
      create trigger if not exists passage_changes_delete after delete on passages begin ${bump('old')} end`.execute(
      db,
    );
    await sql`
      create trigger if not exists passage_changes_update
      after update of content, breadcrumb, bot_id, file_id, position on passages begin
        ${bump('old')} ${bump('new')}
      end`.execute(db);
  },
};
