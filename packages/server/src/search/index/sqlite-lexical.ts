import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { withLanguageTerms } from '../language/query.js';
import { byScore, scopeCondition, TILE_PASSAGES } from './common.js';
import type { MemoryHit } from './lexical-memory.js';
import type { LexicalMemory, MemoryQuestion } from './lexical-memory-client.js';
import { ftsMatchExpression, queryTerms } from './lexical-query.js';
import type { PassageHit, PassageScope } from './passage-index.js';
import type { EngineParts } from './shared-port.js';
import type { SqliteReaders } from './sqlite-readers.js';

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
    select min(seq), group_concat(content || coalesce(char(10) || terms, ''), char(10) order by position),
      'b' || hex(min(bot_id)) || '0'
    from passages where file_id = ${fileId}
    group by position / ${sql.lit(TILE_PASSAGES)}`.execute(trx);
}

/**
 * The MATCH expression of a search of the bot: `terms` within the bot's rows, or `terms` alone when every
 * passage of the database is the bot's (two seeks of the bot index tell), since then the bot's column filter
 * would only cost (FTS5 reads the bot's whole doclist, twice, for the AND and for bm25's statistics). With it,
 * the span of passage seqs (the FTS5 rowids), for splitting the scans.
 */
async function scopedMatch(
  db: Kysely<Database>,
  botId: string,
  terms: string,
): Promise<{ match: string; lo: number; hi: number }> {
  const bots = await sql<{ lo: string | null; hi: string | null; first: number | null; last: number | null }>`
      select (select min(bot_id) from passages) as lo, (select max(bot_id) from passages) as hi,
        (select min(seq) from passages) as first, (select max(seq) from passages) as last`.execute(db);
  const row = bots.rows[0];
  const only = row?.lo === botId && row?.hi === botId;
  return {
    match: only ? terms : botMatchExpression(botId, terms),
    lo: row?.first ?? 0,
    hi: row?.last ?? 0,
  };
}

/** Lexical searches over more passages than this (by their span of seqs) are split across the readers. */
export const LEXICAL_SPLIT_MIN = 20_000;

/** How a lexical search splits its FTS5 scans across worker threads (sqlite-readers.ts). */
export interface LexicalSplit {
  /** The readers, or undefined to scan in-thread. */
  readers: () => Promise<SqliteReaders | undefined>;
  /** Told when a reader failed and the search scanned in the calling thread instead (for the logs). */
  onFallback?: (error: unknown) => void;
  /** Fewest passages (span of seqs) worth splitting; default LEXICAL_SPLIT_MIN. */
  min?: number;
}

interface Ranked {
  seq: number;
  own: number;
}

const byOwn = (a: Ranked, b: Ranked) => a.own - b.own || a.seq - b.seq;

/**
 * The best `k` passages by their own bm25 and the best `k` tiles, from FTS5. Split: each reader scans one
 * range of rowids, both tables, and the parts merge into what one scan answers (FTS5's bm25 takes its
 * statistics from the whole table, whatever the rowid range). A reader failing: in-thread.
 */
async function bestByOwn(
  db: Kysely<Database>,
  m: { match: string; lo: number; hi: number },
  k: number,
  weights: { breadcrumb: number; tile: number },
  split: LexicalSplit | undefined,
): Promise<{ own: Ranked[]; tiles: Ranked[] }> {
  const range = (from: number | undefined, to: number | undefined) =>
    from === undefined ? sql`` : sql`and rowid >= ${from} and rowid < ${to}`;
  const queries = (from?: number, to?: number) => ({
    own: sql<Ranked>`
        select rowid as seq, bm25(passages_fts, 1.0, ${weights.breadcrumb}, 0.0) as own from passages_fts
        where passages_fts match ${m.match} ${range(from, to)} order by own, rowid limit ${k}`,
    tiles: sql<Ranked>`
        select rowid as seq, bm25(passage_tiles, 1.0, 0.0) as own from passage_tiles
        where passage_tiles match ${m.match} ${range(from, to)} order by own, rowid limit ${k}`,
  });
  const readers =
    split && m.hi - m.lo >= (split.min ?? LEXICAL_SPLIT_MIN) ? await split.readers() : undefined;
  if (readers) {
    const step = Math.ceil((m.hi - m.lo + 1) / readers.size);
    const parts = Array.from({ length: readers.size }, (_, i) =>
      queries(m.lo + i * step, m.lo + (i + 1) * step),
    );
    try {
      const answers = await Promise.all(
        parts.map((q) => {
          const own = q.own.compile(db);
          const tiles = q.tiles.compile(db);
          return readers.run([
            { sql: own.sql, params: own.parameters },
            ...(weights.tile === 0 ? [] : [{ sql: tiles.sql, params: tiles.parameters }]),
          ]);
        }),
      );
      return {
        own: answers
          .flatMap((a) => (a[0] ?? []) as Ranked[])
          .sort(byOwn)
          .slice(0, k),
        tiles: answers
          .flatMap((a) => (a[1] ?? []) as Ranked[])
          .sort(byOwn)
          .slice(0, k),
      };
    } catch (error) {
      // A reader died or failed: this search scans in-thread; the next one starts the reader again.
      split?.onFallback?.(error);
    }
  }
  const q = queries();
  const own = (await q.own.execute(db)).rows;
  const tiles = weights.tile === 0 || own.length === 0 ? [] : (await q.tiles.execute(db)).rows;
  return { own, tiles };
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
 * every match of the bot in scope, with every tile's score. With `split` (and LEXICAL_SPLIT_MIN passages or
 * more), the two FTS5 scans run in the readers' worker threads, each over a range of rowids: the same answer,
 * in about 1/threads of the time on a quiet machine, and the main thread free meanwhile.
 */
export function sqliteLexicalSearch(
  db: Kysely<Database>,
  breadcrumbWeight: number,
  tileWeight: number,
  split?: LexicalSplit,
  memory?: () => Promise<LexicalMemory | undefined>,
): EngineParts['lexical'] {
  return async (query, scope, n, language) => {
    const words = withLanguageTerms(query, queryTerms(query), language);
    const terms = ftsMatchExpression(words);
    if (terms === undefined) return [];
    const k = Math.max(LEXICAL_CANDIDATES, 5 * n);
    const index = await memory?.();
    const question = { botId: scope.botId, terms: words, breadcrumbWeight, tileWeight };
    const inMemory = index && (await memoryLexical(db, index, question, scope, n, k, terms));
    if (inMemory) return inMemory;
    const m = await scopedMatch(db, scope.botId, terms);
    const best = await bestByOwn(db, m, k, { breadcrumb: breadcrumbWeight, tile: tileWeight }, split);
    if (best.own.length === 0) return [];
    const inScope = await sql<{ seq: number; passageId: string; fileId: string; tile: number }>`
        select passages.seq as seq, passages.id as "passageId", passages.file_id as "fileId",
          ${tileOfPassage} as tile
        from passages join files on files.id = passages.file_id
        where passages.seq in (select value from json_each(${JSON.stringify(best.own.map((r) => r.seq))}))
          and passages.bot_id = ${scope.botId} and ${scopeCondition(scope)}`.execute(db);
    if (inScope.rows.length < n && best.own.length === k)
      return scopedSearch(db, m.match, scope, n, breadcrumbWeight, tileWeight);
    const ownScore = new Map(best.own.map((r) => [r.seq, -r.own]));
    const tileScore = new Map(best.tiles.map((r) => [r.seq, -r.own]));
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
 * The in-memory index's best `k` passages of the bot (every match scored, with its tile, as FTS5 would) kept
 * when in scope, best `n` first; a narrow scope that keeps fewer than `n` of `k` is searched by FTS5 over every
 * match in scope.
 */
async function memoryHitsInScope(
  db: Kysely<Database>,
  hits: MemoryHit[],
  scope: PassageScope,
  n: number,
): Promise<PassageHit[]> {
  if (hits.length === 0) return [];
  const inScope = await sql<{ seq: number; passageId: string; fileId: string }>`
      select passages.seq as seq, passages.id as "passageId", passages.file_id as "fileId"
      from passages join files on files.id = passages.file_id
      where passages.seq in (select value from json_each(${JSON.stringify(hits.map((h) => h.seq))}))
        and passages.bot_id = ${scope.botId} and ${scopeCondition(scope)}`.execute(db);
  const score = new Map(hits.map((h) => [h.seq, h.score]));
  return inScope.rows
    .map((r) => ({ passageId: r.passageId, fileId: r.fileId, score: score.get(r.seq) ?? 0 }))
    .sort(byScore)
    .slice(0, n);
}

/**
 * The lexical search by the in-memory index, or undefined when it cannot answer (FTS5 then does). It asks
 * for the best 2n first (few rows to check against the scope), then, when the scope kept fewer than `n` of
 * them and there were more, for the best `k`; still fewer, and FTS5 ranks every match in scope.
 */
async function memoryLexical(
  db: Kysely<Database>,
  index: LexicalMemory,
  question: Omit<MemoryQuestion, 'k'>,
  scope: PassageScope,
  n: number,
  k: number,
  terms: string,
): Promise<PassageHit[] | undefined> {
  let asked = Math.min(k, 2 * n);
  for (;;) {
    const hits = await index.search({ ...question, k: asked });
    if (!hits) return undefined;
    const found = await memoryHitsInScope(db, hits, scope, n);
    if (found.length >= n || hits.length < asked) return found;
    if (asked >= k) break;
    asked = k;
  }
  const m = await scopedMatch(db, scope.botId, terms);
  return scopedSearch(db, m.match, scope, n, question.breadcrumbWeight, question.tileWeight);
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
  return async (query, scope, n, language) => {
    const terms = ftsMatchExpression(withLanguageTerms(query, queryTerms(query), language));
    if (terms === undefined) return [];
    return scopedSearch(
      db,
      (await scopedMatch(db, scope.botId, terms)).match,
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
