import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { executeSqlFile } from './sql-file.js';

// Passages of indexed files and their full-text index. The vector table is made by the passage index
// when an embedding model is first set, since its width is the model's (search/index/).
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    // Both engines' columns after the key: SQLite's key is seq, the rowid shared with the FTS5 and vec0 tables.
    const columns = sql`
      file_id text not null references files(id) on delete cascade,
      bot_id text not null,
      position integer not null,
      subtype text not null,
      page_number integer,
      content text not null,
      breadcrumb text not null default '[]',
      model_id text`;
    const unique = sql`constraint passages_file_position unique (file_id, position)`;
    if (postgres) {
      await sql`create table passages (id text primary key, ${columns}, tsv tsvector not null, ${unique})`.execute(
        db,
      );
      await sql`create index passages_tsv on passages using gin (tsv)`.execute(db);
    } else {
      await sql`create table passages (seq integer primary key, id text not null unique, ${columns}, ${unique})`.execute(
        db,
      );
      await sql`
        create virtual table passages_fts using fts5(
          content, breadcrumb, content='passages', content_rowid='seq',
          tokenize='porter unicode61 remove_diacritics 2'
        )`.execute(db);
      await sql`
        create trigger passages_fts_insert after insert on passages begin
          insert into passages_fts(rowid, content, breadcrumb) values (new.seq, new.content, new.breadcrumb);
        end`.execute(db);
      await sql`
        create trigger passages_fts_delete after delete on passages begin
          insert into passages_fts(passages_fts, rowid, content, breadcrumb)
            values ('delete', old.seq, old.content, old.breadcrumb);
        end`.execute(db);
      await sql`
        create trigger passages_fts_update after update of content, breadcrumb on passages begin
          insert into passages_fts(passages_fts, rowid, content, breadcrumb)
            values ('delete', old.seq, old.content, old.breadcrumb);
          insert into passages_fts(rowid, content, breadcrumb) values (new.seq, new.content, new.breadcrumb);
        end`.execute(db);
    }
    await executeSqlFile(db, '0003_passages');
  },
};
