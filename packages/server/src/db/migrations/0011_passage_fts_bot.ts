import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

// SQLite: the bot inside both full-text indexes, so a lexical search matches (and scores) only its bot's
// passages and tiles (search/index/sqlite-lexical.ts). A column `bot` holds one token per row, 'b', the
// bot id's UTF-8 bytes in hex, '0' (one unicode61 token whatever the id; ending in a digit, porter leaves it
// alone); it is ranked with weight 0. passages_fts reads it from the view passages_fts_source, so FTS5's
// rebuild and integrity-check see what the triggers wrote. FTS5 tables cannot gain a column: both are
// made again and refilled. PostgreSQL is unchanged.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return;
    const tokenizer = sql.lit('porter unicode61 remove_diacritics 2');
    for (const name of ['passages_fts_insert', 'passages_fts_delete', 'passages_fts_update'])
      await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
    await sql`drop table passages_fts`.execute(db);
    // Run again over a database rolled back to before it (the migration tests do), the view is there already.
    await sql`drop view if exists passages_fts_source`.execute(db);
    await sql`
      create view passages_fts_source as
      select seq, content, breadcrumb, 'b' || hex(bot_id) || '0' as bot from passages`.execute(db);
    await sql`
      create virtual table passages_fts using fts5(
        content, breadcrumb, bot, content='passages_fts_source', content_rowid='seq', tokenize=${tokenizer}
      )`.execute(db);
    await sql`insert into passages_fts(passages_fts) values ('rebuild')`.execute(db);
    await sql`
      create trigger passages_fts_insert after insert on passages begin
        insert into passages_fts(rowid, content, breadcrumb, bot)
          values (new.seq, new.content, new.breadcrumb, 'b' || hex(new.bot_id) || '0');
      end`.execute(db);
    await sql`
      create trigger passages_fts_delete after delete on passages begin
        insert into passages_fts(passages_fts, rowid, content, breadcrumb, bot)
          values ('delete', old.seq, old.content, old.breadcrumb, 'b' || hex(old.bot_id) || '0');
      end`.execute(db);
    await sql`
      create trigger passages_fts_update after update of content, breadcrumb, bot_id on passages begin
        insert into passages_fts(passages_fts, rowid, content, breadcrumb, bot)
          values ('delete', old.seq, old.content, old.breadcrumb, 'b' || hex(old.bot_id) || '0');
        insert into passages_fts(rowid, content, breadcrumb, bot)
          values (new.seq, new.content, new.breadcrumb, 'b' || hex(new.bot_id) || '0');
      end`.execute(db);
    // The tiles' delete trigger (0005) names the table, so it keeps working on the new one.
    await sql`drop table passage_tiles`.execute(db);
    await sql`
      create virtual table passage_tiles using fts5(
        text, bot, content='', contentless_delete=1, tokenize=${tokenizer}
      )`.execute(db);
    await sql`
      insert into passage_tiles(rowid, text, bot)
      select min(seq), group_concat(content, char(10) order by position), 'b' || hex(min(bot_id)) || '0'
      from passages group by file_id, position / 8`.execute(db);
  },
};
