import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { byScore, scopeCondition, TILE_PASSAGES } from './common.js';
import { ftsMatchExpression, queryTerms } from './lexical-query.js';
import type { PassageHit, PassageScope } from './passage-index.js';
import type { EngineParts } from './shared-port.js';

/**
 * Fewest passages (and tiles) a lexical search takes from FTS5 by their own bm25 before it looks at tiles and
 * scope; it takes 5 × the limit when that is more. The prototype of issue 14 took 400 passages and 50 tiles and
 * kept SciFact's nDCG@10.
 */
export const LEXICAL_CANDIDATES = 400;

/**
 * The FTS5 token of a bot in the `bot` column of `passages_fts` and `passage_tiles` (migration 0011): 'b', the
 * id's UTF-8 bytes in hex, '0'. The SQL twin is `'b' || hex(bot_id) || '0'` (unicode61 folds the case).
 */
export function botToken(botId: string): string {
  return `b${Buffer.from(botId, 'utf8').toString('hex')}0`;
}

/** The MATCH expression of `terms` (an OR of phrases) within the bot's rows only. */
export function botMatchExpression(botId: string, terms: string): string {
  return `bot : "${botToken(botId)}" AND (${terms})`;
}

/**
 * Writes the tiles of a file whose passages are all written (the old tiles went with their passages): one row
 * of `passage_tiles` per 8 consecutive positions, its rowid the smallest passage seq, tagged with the bot.
 */
export async function writeFileTiles(trx: Transaction<Database>, fileId: string): Promise<void> {
  await sql`
    insert into passage_tiles(rowid, text, bot)
    select min(seq), group_concat(content, char(10) order by position), 'b' || hex(min(bot_id)) || '0'
    from passages where file_id = ${fileId}
    group by position / ${sql.lit(TILE_PASSAGES)}`.execute(trx);
}

/**
 * The MATCH expression of a search of the bot: `terms` within the bot's rows, or `terms` alone when every
 * passage of the database is the bot's (two seeks of the bot index tell), since then the bot's column filter
 * would only cost (FTS5 reads the bot's whole doclist, twice, for the AND and for bm25's statistics).
 */
async function scopedMatch(db: Kysely<Database>, botId: string, terms: string): Promise<string> {
  const bots = await sql<{ lo: string | null; hi: string | null }>`
      select (select min(bot_id) from passages) as lo, (select max(bot_id) from passages) as hi`.execute(db);
  const only = bots.rows[0]?.lo === botId && bots.rows[0]?.hi === botId;
  return only ? terms : botMatchExpression(botId, terms);
}

/** The tile (its smallest passage seq) of the passage `passages` row, by the file's positions index. */
const tileOfPassage = sql<number>`(
  select min(tile.seq) from passages tile
  where tile.file_id = passages.file_id
    and tile.position >= passages.position / ${sql.lit(TILE_PASSAGES)} * ${sql.lit(TILE_PASSAGES)}
    and tile.position < (passages.position / ${sql.lit(TILE_PASSAGES)} + 1) * ${sql.lit(TILE_PASSAGES)}
)`;

/**
 * Lexical search: FTS5's bm25 of the passage (its breadcrumb weighed by `breadcrumbWeight`) plus `tileWeight`
 * times its tile's (see DEFAULT_TILE_WEIGHT): the words around a passage help rank it, never find it. Both
 * MATCH expressions name the bot (unless it is the only one), so other bots' rows are neither read nor scored.
 *
 * Bounded before any join: FTS5 answers the best `k` passages by their own bm25 and the best `k` tiles
 * (k = max(LEXICAL_CANDIDATES, 5 n)); only those passages are read, mapped to their tiles and checked against
 * the scope, and a passage whose tile is not among the best tiles gets no tile score. When fewer than `n` of
 * the `k` are in scope and FTS5 had more (a narrow scope: a few files, a rare tag), the search runs again over
 * every match of the bot in scope, with every tile's score.
 */
export function sqliteLexicalSearch(
  db: Kysely<Database>,
  breadcrumbWeight: number,
  tileWeight: number,
): EngineParts['lexical'] {
  return async (query, scope, n) => {
    const terms = ftsMatchExpression(queryTerms(query));
    if (terms === undefined) return [];
    const match = await scopedMatch(db, scope.botId, terms);
    const k = Math.max(LEXICAL_CANDIDATES, 5 * n);
    const own = await sql<{ seq: number; own: number }>`
        select rowid as seq, bm25(passages_fts, 1.0, ${breadcrumbWeight}, 0.0) as own from passages_fts
        where passages_fts match ${match} order by own, rowid limit ${k}`.execute(db);
    if (own.rows.length === 0) return [];
    const tiles =
      tileWeight === 0
        ? { rows: [] }
        : await sql<{ seq: number; own: number }>`
            select rowid as seq, bm25(passage_tiles, 1.0, 0.0) as own from passage_tiles
            where passage_tiles match ${match} order by own limit ${k}`.execute(db);
    const inScope = await sql<{ seq: number; passageId: string; fileId: string; tile: number }>`
        select passages.seq as seq, passages.id as "passageId", passages.file_id as "fileId",
          ${tileOfPassage} as tile
        from passages join files on files.id = passages.file_id
        where passages.seq in (select value from json_each(${JSON.stringify(own.rows.map((r) => r.seq))}))
          and passages.bot_id = ${scope.botId} and ${scopeCondition(scope)}`.execute(db);
    if (inScope.rows.length < n && own.rows.length === k)
      return scopedSearch(db, match, scope, n, breadcrumbWeight, tileWeight);
    const ownScore = new Map(own.rows.map((r) => [r.seq, -r.own]));
    const tileScore = new Map(tiles.rows.map((r) => [r.seq, -r.own]));
    return inScope.rows
      .map((r) => ({
        passageId: r.passageId,
        fileId: r.fileId,
        score: (ownScore.get(r.seq) ?? 0) + tileWeight * (tileScore.get(r.tile) ?? 0),
      }))
      .sort(byScore)
      .slice(0, n);
  };
}

/**
 * The narrow-scope path alone, as a lexical search: every match of the bot scored and joined before the
 * limit (how every search ran before issue 14; the search-speed benchmark's "before" row).
 */
export function sqliteScopedLexicalSearch(
  db: Kysely<Database>,
  breadcrumbWeight: number,
  tileWeight: number,
): EngineParts['lexical'] {
  return async (query, scope, n) => {
    const terms = ftsMatchExpression(queryTerms(query));
    if (terms === undefined) return [];
    return scopedSearch(
      db,
      await scopedMatch(db, scope.botId, terms),
      scope,
      n,
      breadcrumbWeight,
      tileWeight,
    );
  };
}

/** Every match of the bot in scope, each scored with its tile's bm25 (the narrow-scope path). */
async function scopedSearch(
  db: Kysely<Database>,
  match: string,
  scope: PassageScope,
  n: number,
  breadcrumbWeight: number,
  tileWeight: number,
): Promise<PassageHit[]> {
  const result = await sql<PassageHit>`
      with tiles(seq, score) as materialized (
        select rowid, -bm25(passage_tiles, 1.0, 0.0) from passage_tiles where passage_tiles match ${match}
      )
      select passages.id as "passageId", passages.file_id as "fileId",
        -bm25(passages_fts, 1.0, ${breadcrumbWeight}, 0.0) + ${tileWeight} * coalesce(tiles.score, 0) as score
      from passages_fts
      join passages on passages.seq = passages_fts.rowid
      join files on files.id = passages.file_id
      left join tiles on tiles.seq = ${tileOfPassage}
      where passages_fts match ${match} and passages.bot_id = ${scope.botId} and ${scopeCondition(scope)}
      order by score desc, passages.id
      limit ${n}`.execute(db);
  return result.rows;
}
