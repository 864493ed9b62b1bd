import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { scopeCondition, TILE_PASSAGES } from './common.js';
import { ftsMatchExpression, queryTerms } from './lexical-query.js';
import type { EngineParts } from './shared-port.js';

/** Lexical search: FTS5's bm25 of the passage, its breadcrumb weighed by `breadcrumbWeight`, plus its tile's. */
export function sqliteLexicalSearch(
  db: Kysely<Database>,
  breadcrumbWeight: number,
  tileWeight: number,
): EngineParts['lexical'] {
  return async (query, scope, n) => {
    const match = ftsMatchExpression(queryTerms(query));
    if (match === undefined) return [];
    // The passages holding a query word, each scored by its own bm25 plus its tile's (see
    // DEFAULT_TILE_WEIGHT): the words around a passage help rank it, never find it.
    const result = await sql<{ passageId: string; fileId: string; score: number }>`
        with tiles(seq, score) as materialized (
          select rowid, -bm25(passage_tiles) from passage_tiles where passage_tiles match ${match}
        )
        select passages.id as "passageId", passages.file_id as "fileId",
          -bm25(passages_fts, 1.0, ${breadcrumbWeight}) + ${tileWeight} * coalesce(tiles.score, 0) as score
        from passages_fts
        join passages on passages.seq = passages_fts.rowid
        join files on files.id = passages.file_id
        left join tiles on tiles.seq = (
          select min(tile.seq) from passages tile
          where tile.file_id = passages.file_id
            and tile.position >= passages.position / ${sql.lit(TILE_PASSAGES)} * ${sql.lit(TILE_PASSAGES)}
            and tile.position < (passages.position / ${sql.lit(TILE_PASSAGES)} + 1) * ${sql.lit(TILE_PASSAGES)}
        )
        where passages_fts match ${match} and passages.bot_id = ${scope.botId} and ${scopeCondition(scope)}
        order by score desc, passages.id
        limit ${n}`.execute(db);
    return result.rows;
  };
}
