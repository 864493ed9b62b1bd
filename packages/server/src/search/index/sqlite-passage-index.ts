import { type Kysely, sql, type Transaction } from 'kysely';
import { fixedQuery } from '../../db/fixed-query.js';
import type { Database } from '../../db/schema.js';
import { passageTerms } from '../language/tokens.js';
import {
  commonQueries,
  compareModel,
  DEFAULT_BREADCRUMB_WEIGHT,
  DEFAULT_TILE_WEIGHT,
  newPassageId,
  readModelRow,
  unitVector,
  vectorBytes,
} from './common.js';
import { lexicalMemoryOf } from './lexical-memory-client.js';
import type { EmbeddingModel, PassageIndex } from './passage-index.js';
import { checkFileOfBot, type EngineParts, replaceModel, sharedPort } from './shared-port.js';
import { type LexicalSplit, sqliteLexicalSearch, writeFileTiles } from './sqlite-lexical.js';
import { sqliteReadersOf } from './sqlite-readers.js';
import { type SqliteVectorOptions, sqliteNearest, withSqliteHnsw } from './sqlite-vector.js';

/** Options of the SQLite passage index. */
export interface SqlitePassageIndexOptions {
  /** The database, opened with sqlite-vec loaded (db/database.ts does it). */
  kysely: Kysely<Database>;
  /** bm25 weight of the breadcrumb (section titles) beside the content's 1; default 2 (tuned on SciFact). */
  breadcrumbWeight?: number;
  /** Weight of the passage's tile (the 8 consecutive passages it belongs to) in its lexical score; default 2. */
  tileWeight?: number;
  /** The HNSW vector index beside the stored vectors (default: on, in `vector-index` beside the database file). */
  vectorIndex?: SqliteVectorOptions;
  /**
   * Worker threads a large lexical search is split across (sqlite-readers.ts); default 1: in the calling
   * thread. The server passes `PARLEY_SEARCH_THREADS`.
   */
  lexicalThreads?: number;
  /** Fewest passages a lexical search is split for (default LEXICAL_SPLIT_MIN; tests use fewer). */
  lexicalSplitMin?: number;
  /** A split lexical search whose reader thread failed (it then scanned in the calling thread), for the logs. */
  onLexicalFallback?: (error: unknown) => void;
  /**
   * Lexical search through the in-memory index (lexical-memory.ts, in a worker thread; FTS5 answers until it
   * has read the passages, and whenever it cannot); default false. The server passes `PARLEY_LEXICAL_MEMORY`.
   */
  lexicalMemory?: boolean;
  /** The in-memory lexical index failed or its worker died (FTS5 answered), for the logs. */
  onLexicalMemoryFailure?: (error: unknown) => void;
}

/* The fixed queries of every replacement, compiled once (see fixedQuery). */

/** A file's passages gone (their tiles and vectors by trigger). */
const deletePassages = fixedQuery(1, (db, fileId: string) =>
  db.deleteFrom('passages').where('file_id', '=', fileId),
);

/** The seq of each passage of a file, by id. */
const passageSeqs = fixedQuery(1, (db, fileId: string) => ({
  compile: () =>
    sql<{ seq: number; id: string }>`select seq, id from passages where file_id = ${fileId}`.compile(db),
}));

const INSERT_BATCH = 500;
const VECTOR_BATCH = 100;

/** (Re)creates the vec0 table of a model, and the trigger that empties it when a passage goes. */
async function createVectorTable(trx: Transaction<Database>, model: EmbeddingModel): Promise<void> {
  await sql`drop trigger if exists passages_vectors_delete`.execute(trx);
  await sql`drop table if exists passage_vectors`.execute(trx);
  await sql`
    create virtual table passage_vectors using vec0(
      embedding float[${sql.raw(String(model.dimensions))}] distance_metric=cosine,
      bot_id text partition key
    )`.execute(trx);
  await sql`
    create trigger passages_vectors_delete after delete on passages begin
      delete from passage_vectors where rowid = old.seq;
    end`.execute(trx);
}

/** Makes `model` the current one unless it is already. */
async function setModelIn(trx: Transaction<Database>, model: EmbeddingModel) {
  const current = await readModelRow(trx);
  if (current && current.id === model.id && current.dimensions === model.dimensions)
    return { changed: false, info: current };
  return replaceModel(trx, model, 'sqlite-vec', () => createVectorTable(trx, model));
}

/** Replaces a file's passages, their tiles (once all are there) and their vectors (by passage seq). */
const replaceIn: EngineParts['replaceIn'] = async (trx, input, embedded) => {
  const { fileId, botId, passages, model, language } = input;
  await checkFileOfBot(trx, input, false);
  if (embedded && model) {
    const current = await readModelRow(trx);
    if (compareModel(current, model) === 'none') await setModelIn(trx, model);
  }
  await deletePassages(trx, fileId);
  const ids = passages.map(() => newPassageId());
  for (let i = 0; i < passages.length; i += INSERT_BATCH) {
    await trx
      .insertInto('passages')
      .values(
        passages.slice(i, i + INSERT_BATCH).map((p, j) => ({
          id: ids[i + j] as string,
          file_id: fileId,
          bot_id: botId,
          position: p.position,
          subtype: p.subtype,
          page_number: p.pageNumber ?? null,
          content: p.content,
          terms: passageTerms(p.content, language, p.breadcrumb),
          breadcrumb: JSON.stringify(p.breadcrumb),
          model_id: p.embedding && model ? model.id : null,
        })),
      )
      .execute();
  }
  // The file's tiles, once all its passages are there (the old ones went with their passages).
  await writeFileTiles(trx, fileId);
  if (embedded) {
    const seqs = await passageSeqs(trx, fileId);
    const seqOf = new Map(seqs.rows.map((r) => [r.id, r.seq]));
    const rows = passages.flatMap((p, i) =>
      p.embedding
        ? [
            sql`(${BigInt(seqOf.get(ids[i] as string) as number)}, ${vectorBytes(unitVector(p.embedding))}, ${botId})`,
          ]
        : [],
    );
    for (let i = 0; i < rows.length; i += VECTOR_BATCH) {
      await sql`insert into passage_vectors(rowid, embedding, bot_id) values ${sql.join(
        rows.slice(i, i + VECTOR_BATCH),
      )}`.execute(trx);
    }
  }
  return ids;
};

/** How the lexical search is split across worker threads, if it is. */
function lexicalSplit(db: Kysely<Database>, options: SqlitePassageIndexOptions): LexicalSplit | undefined {
  const threads = options.lexicalThreads ?? 1;
  if (threads < 2) return undefined;
  return {
    readers: () => sqliteReadersOf(db, threads),
    ...(options.lexicalSplitMin === undefined ? {} : { min: options.lexicalSplitMin }),
    ...(options.onLexicalFallback ? { onFallback: options.onLexicalFallback } : {}),
  };
}

/**
 * The passage index on SQLite: passages in `passages`, their text in the FTS5 table `passages_fts`
 * (porter, unicode61, diacritics removed; kept in sync by triggers), tiles of 8 consecutive passages of a
 * file in the contentless FTS5 table `passage_tiles` (rowid: the tile's smallest passage seq; written here,
 * deleted by a trigger), their vectors in the sqlite-vec table
 * `passage_vectors` (vec0, cosine, partitioned by bot; made when a model is set, emptied by a trigger
 * when a passage goes), searched through an HNSW graph per bot (sqlite-vector.ts) kept beside them.
 * Needs sqlite-vec loaded on the connection.
 * @example const index = sqlitePassageIndex({ kysely: db.kysely });
 */
export function sqlitePassageIndex(options: SqlitePassageIndexOptions): PassageIndex {
  const db = options.kysely;
  const breadcrumbWeight = options.breadcrumbWeight ?? DEFAULT_BREADCRUMB_WEIGHT.sqlite;
  const tileWeight = options.tileWeight ?? DEFAULT_TILE_WEIGHT;
  const common = commonQueries(db, { contentBytes: (c) => sql<number>`length(cast(${sql.ref(c)} as blob))` });
  const vectors = options.vectorIndex ?? {};
  const port = sharedPort(db, common, {
    engine: 'sqlite',
    setModelIn,
    replaceIn,
    lexical: sqliteLexicalSearch(
      db,
      breadcrumbWeight,
      tileWeight,
      lexicalSplit(db, options),
      options.lexicalMemory ? () => lexicalMemoryOf(db, options.onLexicalMemoryFailure) : undefined,
    ),
    nearest: sqliteNearest(db, vectors),
  });
  return withSqliteHnsw(db, port, vectors);
}
