/**
 * The SQLite rows behind a vector search: the passages and files of the graph's candidates, read with their
 * scope, and sqlite-vec's exact KNN restricted to a scope (sqlite-vector.ts decides which is asked).
 */
import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { byScore, SEARCHABLE_STATUS, scopeCondition } from './common.js';
import type { PassageHit, PassageScope } from './passage-index.js';
import { isWholeBot } from './vector-scope.js';

export interface HitRow {
  seq: number;
  passageId: string;
  fileId: string;
}

export interface RowsRead {
  rows: HitRow[];
  missing: number[];
}

/**
 * The rows of a whole-bot scope's candidates, one statement whose text never changes (the scope rule of
 * `scopeCondition` for visibility "all" without tags or file ids: the bot's file, finished indexing).
 */
const WHOLE_BOT_ROWS = `
  select j.value as seq, passages.id as "passageId", passages.file_id as "fileId",
    (select 1 from files where files.id = passages.file_id and files.bot_id = ? and files.status = ?) as ok
  from json_each(?) j
  left join passages on passages.seq = j.value and passages.bot_id = ? and passages.model_id is not null`;

/** Candidates' rows (by passage seq): those gone (`missing`) and those in scope. */
async function inScope(db: Kysely<Database>, scope: PassageScope, seqs: number[]): Promise<RowsRead> {
  type Row = { seq: number; passageId: string | null; fileId: string | null; ok: number | null };
  const list = JSON.stringify(seqs);
  const r = isWholeBot(scope)
    ? await db.executeQuery<Row>(
        CompiledQuery.raw(WHOLE_BOT_ROWS, [scope.botId, SEARCHABLE_STATUS, list, scope.botId]),
      )
    : await sql<Row>`
      select j.value as seq, passages.id as "passageId", passages.file_id as "fileId",
        (select 1 from files where files.id = passages.file_id and ${scopeCondition(scope)}) as ok
      from json_each(${list}) j
      left join passages on passages.seq = j.value and passages.bot_id = ${scope.botId}
        and passages.model_id is not null`.execute(db);
  const rows: HitRow[] = [];
  const missing: number[] = [];
  for (const x of r.rows) {
    if (x.passageId === null || x.fileId === null) missing.push(Number(x.seq));
    else if (x.ok) rows.push({ seq: Number(x.seq), passageId: x.passageId, fileId: x.fileId });
  }
  return { rows, missing };
}

/**
 * The rows of the candidates needed for the `n` nearest in scope: those of the n nearest first; when all of
 * them are in scope and every other candidate scores lower, they are the answer. Otherwise (or on a tie at
 * the n-th) the others' rows too. Reading n rows rather than every candidate's matters when SQLite's page
 * cache is cold: each row is a page read.
 */
export async function rowsFor(
  db: Kysely<Database>,
  scope: PassageScope,
  candidates: { key: number; distance: number }[],
  n: number,
): Promise<RowsRead> {
  const keys = candidates.map((c) => c.key);
  if (n >= candidates.length) return inScope(db, scope, keys);
  let lowestKept = Number.POSITIVE_INFINITY;
  let highestRest = Number.NEGATIVE_INFINITY;
  candidates.forEach((c, i) => {
    const score = 1 - c.distance; // as the hits are scored
    if (i < n) lowestKept = Math.min(lowestKept, score);
    else highestRest = Math.max(highestRest, score);
  });
  // (A NaN score fails the comparison: every row is read.)
  if (!(highestRest < lowestKept)) return inScope(db, scope, keys);
  const first = await inScope(db, scope, keys.slice(0, n));
  if (first.rows.length === n) return first;
  const rest = await inScope(db, scope, keys.slice(n));
  return { rows: [...first.rows, ...rest.rows], missing: [...first.missing, ...rest.missing] };
}

/** sqlite-vec's exact KNN restricted to the passages in scope. */
export async function exactInScope(
  db: Kysely<Database>,
  q: Buffer,
  scope: PassageScope,
  n: number,
): Promise<PassageHit[]> {
  const result = await sql<{ passageId: string; fileId: string; distance: number }>`
      with knn as (
        select rowid, distance from passage_vectors
        where embedding match ${q} and k = ${n} and bot_id = ${scope.botId}
          and rowid in (
            select passages.seq from passages join files on files.id = passages.file_id
            where passages.bot_id = ${scope.botId} and ${scopeCondition(scope)}
          )
      )
      select passages.id as "passageId", passages.file_id as "fileId", knn.distance as distance
      from knn join passages on passages.seq = knn.rowid`.execute(db);
  return result.rows
    .map((r) => ({ passageId: r.passageId, fileId: r.fileId, score: 1 - r.distance }))
    .sort(byScore);
}
