import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

// Languages (issue #38): the language of a file (detected from its text at indexing, or its metadata's
// `language`; null before indexing or when unknown) and a passage's lexical tokens in that language
// (search/language/tokens.ts; null for English and unknown), indexed beside its text: SQLite's FTS5 reads
// `content || char(10) || terms` (the view, its triggers and the tiles; the existing rows have no terms, so
// nothing is rebuilt); PostgreSQL's tsvector adds them as `simple` words when a passage is written.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('files').addColumn('language', 'text').execute();
    await db.schema.alterTable('passages').addColumn('terms', 'text').execute();
    if (db.getExecutor().adapter instanceof PostgresAdapter) return;
    const text = (row: 'new' | 'old') => sql.raw(`${row}.content || coalesce(char(10) || ${row}.terms, '')`);
    const bot = (row: 'new' | 'old') => sql.raw(`'b' || hex(${row}.bot_id) || '0'`);
    for (const name of ['passages_fts_insert', 'passages_fts_delete', 'passages_fts_update'])
      await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
    await sql`drop view if exists passages_fts_source`.execute(db);
    await sql`
      create view passages_fts_source as
      select seq, content || coalesce(char(10) || terms, '') as content, breadcrumb,
        'b' || hex(bot_id) || '0' as bot from passages`.execute(db);
    await sql`
      create trigger passages_fts_insert after insert on passages begin
        insert into passages_fts(rowid, content, breadcrumb, bot)
          values (new.seq, ${text('new')}, new.breadcrumb, ${bot('new')});
      end`.execute(db);
    await sql`
      create trigger passages_fts_delete after delete on passages begin
        insert into passages_fts(passages_fts, rowid, content, breadcrumb, bot)
          values ('delete', old.seq, ${text('old')}, old.breadcrumb, ${bot('old')});
      end`.execute(db);
    await sql`
      create trigger passages_fts_update after update of content, terms, breadcrumb, bot_id on passages begin
        insert into passages_fts(passages_fts, rowid, content, breadcrumb, bot)
          values ('delete', old.seq, ${text('old')}, old.breadcrumb, ${bot('old')});
        insert into passages_fts(rowid, content, breadcrumb, bot)
          values (new.seq, ${text('new')}, new.breadcrumb, ${bot('new')});
      end`.execute(db);
  },
};
