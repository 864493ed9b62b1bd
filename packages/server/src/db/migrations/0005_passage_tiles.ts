import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

// SQLite: a second full-text index, of tiles of 8 consecutive passages of a file (positions 0–7, 8–15, …),
// whose bm25 the lexical search adds to each passage's own (search/index/sqlite-passage-index.ts). A tile's
// rowid is the smallest seq of its passages. Contentless: the text is not stored twice; the passage index
// writes the rows, a trigger deletes them. PostgreSQL is unchanged.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return;
    await sql`
      create virtual table passage_tiles using fts5(
        text, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'
      )`.execute(db);
    await sql`
      insert into passage_tiles(rowid, text)
      select min(seq), group_concat(content, char(10) order by position)
      from passages group by file_id, position / 8`.execute(db);
    await sql`
      create trigger passage_tiles_delete after delete on passages begin
        delete from passage_tiles where rowid = old.seq;
      end`.execute(db);
  },
};
