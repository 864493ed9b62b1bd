import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { queryLanguage, withLanguageTerms } from '../language/query.js';
import { passageTerms } from '../language/tokens.js';
import {
  byScore,
  bytesVector,
  commonQueries,
  compareModel,
  DEFAULT_BREADCRUMB_WEIGHT,
  modelFromRow,
  newPassageId,
  readModelRow,
  scopeCondition,
  unitVector,
  vectorBytes,
} from './common.js';
import { foldText, queryTerms } from './lexical-query.js';
import type {
  EmbeddingModel,
  PassageHit,
  PassageIndex,
  PassageScope,
  VectorStoreKind,
} from './passage-index.js';
import { checkFileOfBot, type EngineParts, replaceModel, sharedPort } from './shared-port.js';
import { candidateCount, isNarrowScope } from './vector-scope.js';

/** Options of the PostgreSQL passage index. */
export interface PostgresPassageIndexOptions {
  kysely: Kysely<Database>;
  /**
   * Store vectors with pgvector when `create extension if not exists vector` succeeds (default true);
   * false, or a server without the extension, stores them as float32 bytes searched exactly in JS.
   */
  pgvector?: boolean;
  /** Rank weight of the breadcrumb (tsvector weight B) beside the content's (A) 1; default 1 (tuned on SciFact). */
  breadcrumbWeight?: number;
  /** Rows read per round trip by the bytea vector scan; default 2000. */
  scanBatch?: number;
}

const INSERT_BATCH = 500;
/** pgvector's HNSW indexes vectors of at most 2,000 dimensions; wider ones are searched exactly. */
const PGVECTOR_HNSW_MAX_DIMENSIONS = 2000;
/** pgvector's largest hnsw.ef_search. */
const PGVECTOR_MAX_EF_SEARCH = 1000;

/** Finds the pgvector extension's schema and version, once; `forget` when the extension may have moved. */
function pgvectorSchemaLookup() {
  /** Schema of the pgvector extension, to qualify its type and operator whatever the search_path. */
  let vectorSchema: string | undefined;
  /** Whether its HNSW scans can go on past ef_search until enough rows pass the filter (pgvector ≥ 0.8). */
  let iterative = false;
  return {
    async of(trx: Kysely<Database>): Promise<string> {
      if (vectorSchema) return vectorSchema;
      const r = await sql<{ schema: string; version: string }>`
        select n.nspname as schema, e.extversion as version
        from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where e.extname = 'vector'`.execute(trx);
      const row = r.rows[0];
      if (!row) throw new Error('the index stores vectors with pgvector, but the vector extension is gone');
      const [major = 0, minor = 0] = row.version.split('.').map(Number);
      iterative = major > 0 || minor >= 8;
      vectorSchema = row.schema;
      return row.schema;
    },
    /** Whether the extension (looked up by `of`) has iterative index scans. */
    iterativeScans: () => iterative,
    forget() {
      vectorSchema = undefined;
    },
  };
}
type PgvectorSchema = ReturnType<typeof pgvectorSchemaLookup>;

const vectorLiteral = (v: Float32Array) => `[${Array.from(v).join(',')}]`;

/** Makes `model` the current one: pgvector's vector table when wanted and available, bytea otherwise. */
async function setModelIn(
  trx: Transaction<Database>,
  model: EmbeddingModel,
  wantPgvector: boolean,
  pgvector: PgvectorSchema,
) {
  await sql`lock table embedding_model in share row exclusive mode`.execute(trx);
  const current = await readModelRow(trx);
  if (current && current.id === model.id && current.dimensions === model.dimensions)
    return { changed: false, info: current };
  let store: VectorStoreKind = 'bytea';
  if (wantPgvector) {
    await sql`savepoint parley_pgvector`.execute(trx);
    try {
      await sql`create extension if not exists vector`.execute(trx);
      await sql`release savepoint parley_pgvector`.execute(trx);
      store = 'pgvector';
    } catch {
      await sql`rollback to savepoint parley_pgvector`.execute(trx);
    }
  }
  return replaceModel(trx, model, store, async () => {
    pgvector.forget();
    const type =
      store === 'pgvector'
        ? sql`${sql.id(await pgvector.of(trx))}.vector(${sql.raw(String(model.dimensions))})`
        : sql`bytea`;
    await sql`drop table if exists passage_vectors`.execute(trx);
    await sql`
      create table passage_vectors (
        passage_id text primary key references passages(id) on delete cascade,
        bot_id text not null,
        embedding ${type} not null
      )`.execute(trx);
    await sql`create index passage_vectors_bot on passage_vectors (bot_id)`.execute(trx);
    if (store === 'pgvector' && model.dimensions <= PGVECTOR_HNSW_MAX_DIMENSIONS)
      await sql`create index passage_vectors_hnsw on passage_vectors
        using hnsw (embedding ${sql.id(await pgvector.of(trx))}.vector_cosine_ops)`.execute(trx);
  });
}

/** Replaces a file's passages: the file's row locked, the model read for share, vectors in passage_vectors. */
function replacer(
  setModel: (trx: Transaction<Database>, model: EmbeddingModel) => ReturnType<typeof setModelIn>,
  pgvector: PgvectorSchema,
): EngineParts['replaceIn'] {
  return async (trx, input, embedded) => {
    const { fileId, botId, passages, model, language } = input;
    let store: VectorStoreKind | undefined;
    if (embedded && model) {
      // Held until commit: a model change waits for this write, or this write sees the new model.
      const current = modelFromRow(
        await trx
          .selectFrom('embedding_model')
          .select(['model_id', 'dimensions', 'vector_store'])
          .where('key', '=', 'current')
          .forShare()
          .executeTakeFirst(),
      );
      store =
        compareModel(current, model) === 'none'
          ? (await setModel(trx, model)).info.vectorStore
          : current?.vectorStore;
    }
    await checkFileOfBot(trx, input, true);
    await trx.deleteFrom('passages').where('file_id', '=', fileId).execute();
    const ids = passages.map(() => newPassageId());
    for (let i = 0; i < passages.length; i += INSERT_BATCH) {
      const rows = passages.slice(i, i + INSERT_BATCH).map((p, j) => {
        // The passage's tokens in its file's language (not English; with its heading's) as `simple` words, beside its text.
        const terms = passageTerms(p.content, language, p.breadcrumb);
        const own = terms === null ? sql`` : sql`|| setweight(to_tsvector('simple', ${terms}), 'A')`;
        return sql`(${ids[i + j]}, ${fileId}, ${botId}, ${p.position}, ${p.subtype}, ${p.pageNumber ?? null},
          ${p.content}, ${terms}, ${JSON.stringify(p.breadcrumb)}, ${p.embedding && model ? model.id : null},
          setweight(to_tsvector('english', ${foldText(p.content)}), 'A') ${own}
            || setweight(to_tsvector('english', ${foldText(p.breadcrumb.join(' '))}), 'B'))`;
      });
      await sql`insert into passages
        (id, file_id, bot_id, position, subtype, page_number, content, terms, breadcrumb, model_id, tsv)
        values ${sql.join(rows)}`.execute(trx);
    }
    if (embedded && store) {
      const schema = store === 'pgvector' ? await pgvector.of(trx) : undefined;
      const rows = passages.flatMap((p, i) => {
        if (!p.embedding) return [];
        const v = unitVector(p.embedding);
        const value = schema
          ? sql`${vectorLiteral(v)}::${sql.id(schema)}.vector`
          : sql`${vectorBytes(v)}::bytea`;
        return [sql`(${ids[i]}, ${botId}, ${value})`];
      });
      for (let i = 0; i < rows.length; i += INSERT_BATCH) {
        await sql`insert into passage_vectors (passage_id, bot_id, embedding)
          values ${sql.join(rows.slice(i, i + INSERT_BATCH))}`.execute(trx);
      }
    }
    return ids;
  };
}

/** Lexical search, bm25-like, with the content and breadcrumb weighed by `rankWeights`. */
function lexicalSearch(db: Kysely<Database>, rankWeights: RawBuilder<unknown>): EngineParts['lexical'] {
  return async (query, scope, n, language) => {
    const found = queryLanguage(query, language);
    const terms = withLanguageTerms(query, queryTerms(query), language);
    if (terms.length === 0) return [];
    // A query in a language of its own also matches its tokens as `simple` words (English: as before).
    const tsq = terms.map((t) =>
      found
        ? sql`(plainto_tsquery('english', ${t}) || plainto_tsquery('simple', ${t}))`
        : sql`plainto_tsquery('english', ${t})`,
    );
    // bm25-like: each term's length-normalized ts_rank times its idf. Document frequencies are counted
    // over the matching passages in scope (so scores reveal nothing of files the caller cannot see), the
    // passage count over the bot's; so every match in scope is ranked, and the limit can only come last.
    // The bot is matched with the words, before any join (`hits`, planned alone so no planner joins the
    // bot's index once per file): other bots' passages are never joined, detoasted or ranked (a bot of 10k
    // passages beside one of 100k: 3× faster). `|| ''` detoasts each matched tsvector once, not once per
    // term and ts_rank call.
    const score = sql.join(
      tsq.map(
        (q, i) =>
          sql`ln(1 + (total.n - df.${sql.raw(`t${i}`)} + 0.5) / (df.${sql.raw(`t${i}`)} + 0.5)) * ts_rank(${rankWeights}, matched.tsv, ${q}, 1)`,
      ),
      sql` + `,
    );
    const result = await sql<{ passageId: string; fileId: string; score: number }>`
        with hits as materialized (
          select passages.id, passages.file_id, passages.tsv from passages
          where passages.bot_id = ${scope.botId} and passages.tsv @@ (${sql.join(tsq, sql` || `)})
        ),
        matched as materialized (
          select hits.id, hits.file_id, hits.tsv || ''::tsvector as tsv
          from hits join files on files.id = hits.file_id
          where ${scopeCondition(scope)}
        ),
        df as materialized (
          select ${sql.join(tsq.map((q, i) => sql`count(*) filter (where matched.tsv @@ ${q})::float8 as ${sql.raw(`t${i}`)}`))}
          from matched
        ),
        total as materialized (select count(*)::float8 as n from passages where passages.bot_id = ${scope.botId})
        select matched.id as "passageId", matched.file_id as "fileId", (${score})::float8 as score
        from matched, df, total
        order by score desc, matched.id
        limit ${n}`.execute(db);
    return result.rows.map((r) => ({ ...r, score: Number(r.score) }));
  };
}

/**
 * pgvector: the nearest `k` of the bot's vectors by its HNSW index (when the planner takes it: for a bot
 * with few vectors it scans them exactly), the bot filtered inside the scan (iterative scans, pgvector ≥
 * 0.8), then the scope applied to those; the exact scan in scope when too few of them are in it.
 */
async function pgvectorNearest(
  db: Kysely<Database>,
  pgvector: PgvectorSchema,
  q: Float32Array,
  scope: PassageScope,
  n: number,
): Promise<PassageHit[]> {
  const schema = sql.id(await pgvector.of(db));
  const distance = sql`passage_vectors.embedding operator(${schema}.<=>) ${vectorLiteral(q)}::${schema}.vector`;
  const k = candidateCount(scope, n);
  if (!isNarrowScope(scope)) {
    const candidates = await db.transaction().execute(async (trx) => {
      await sql`select set_config('hnsw.ef_search', ${String(Math.min(PGVECTOR_MAX_EF_SEARCH, Math.max(40, k)))}, true)`.execute(
        trx,
      );
      if (pgvector.iterativeScans())
        await sql`select set_config('hnsw.iterative_scan', 'relaxed_order', true)`.execute(trx);
      return (
        await sql<{ passageId: string; distance: number }>`
          select passage_vectors.passage_id as "passageId", ${distance} as distance from passage_vectors
          where passage_vectors.bot_id = ${scope.botId}
          order by ${distance} limit ${k}`.execute(trx)
      ).rows;
    });
    if (candidates.length > 0) {
      const distanceOf = new Map(candidates.map((c) => [c.passageId, Number(c.distance)]));
      const found = await sql<{ passageId: string; fileId: string }>`
          select passages.id as "passageId", passages.file_id as "fileId"
          from passages join files on files.id = passages.file_id
          where passages.id = any(${[...distanceOf.keys()]}::text[]) and ${scopeCondition(scope)}`.execute(
        db,
      );
      if (found.rows.length >= n || candidates.length < k)
        return found.rows
          .map((r) => ({ ...r, score: 1 - (distanceOf.get(r.passageId) ?? 2) }))
          .sort(byScore)
          .slice(0, n);
    }
  }
  // Exact: every vector in scope (`+ 0` keeps the planner off the HNSW index, whose scan could stop short).
  const result = await sql<{ passageId: string; fileId: string; distance: number }>`
      select passages.id as "passageId", passages.file_id as "fileId", ${distance} as distance
      from passage_vectors
      join passages on passages.id = passage_vectors.passage_id
      join files on files.id = passages.file_id
      where passage_vectors.bot_id = ${scope.botId} and ${scopeCondition(scope)}
      order by (${distance}) + 0, passages.id
      limit ${n}`.execute(db);
  return result.rows
    .map((r) => ({ passageId: r.passageId, fileId: r.fileId, score: 1 - Number(r.distance) }))
    .sort(byScore);
}

/** Nearest vectors: pgvector (HNSW, exact in a narrow scope), or bytea vectors read `scanBatch` at a time and ranked in JS. */
function nearestSearch(
  db: Kysely<Database>,
  pgvector: PgvectorSchema,
  scanBatch: number,
): EngineParts['nearest'] {
  return async (vector, scope, n, readModel) => {
    const model = await readModel();
    if (!model) return [];
    const q = unitVector(vector);
    if (model.vectorStore === 'pgvector') return pgvectorNearest(db, pgvector, q, scope, n);
    // bytea: read the vectors in scope batch by batch and keep the best n.
    let best: PassageHit[] = [];
    let after = '';
    for (;;) {
      const batch = await sql<{ passageId: string; fileId: string; embedding: Uint8Array }>`
          select passages.id as "passageId", passages.file_id as "fileId", passage_vectors.embedding
          from passage_vectors
          join passages on passages.id = passage_vectors.passage_id
          join files on files.id = passages.file_id
          where passage_vectors.bot_id = ${scope.botId} and passages.id > ${after} and ${scopeCondition(scope)}
          order by passages.id
          limit ${scanBatch}`.execute(db);
      for (const r of batch.rows) {
        const v = bytesVector(r.embedding);
        let dot = 0;
        for (let i = 0; i < v.length; i++) dot += (v[i] as number) * (q[i] as number);
        best.push({ passageId: r.passageId, fileId: r.fileId, score: dot });
      }
      if (best.length > 4 * n) best = best.sort(byScore).slice(0, n);
      const last = batch.rows[batch.rows.length - 1];
      if (!last || batch.rows.length < scanBatch) break;
      after = last.passageId;
    }
    return best.sort(byScore).slice(0, n);
  };
}

/**
 * The passage index on PostgreSQL. Passages in `passages` with a `tsv` column (english configuration,
 * content weight A, breadcrumb weight B; text folded to lower case without diacritics before analysis,
 * queries too) under a GIN index. Lexical ranking is bm25-like: each query term's ts_rank (length-normalized)
 * times its idf. Vectors in `passage_vectors` (made when a model is set): pgvector `vector(n)` with exact
 * cosine search when the extension is there; otherwise float32 `bytea`, scanned in batches and ranked in JS —
 * exact but linear in the passages in scope (about 15 ms per 1,000 passages of 512 dimensions).
 * @example const index = postgresPassageIndex({ kysely: db.kysely });
 */
export function postgresPassageIndex(options: PostgresPassageIndexOptions): PassageIndex {
  const db = options.kysely;
  const wantPgvector = options.pgvector ?? true;
  const breadcrumbWeight = options.breadcrumbWeight ?? DEFAULT_BREADCRUMB_WEIGHT.postgres;
  const scanBatch = options.scanBatch ?? 2000;
  const common = commonQueries(db, { contentBytes: (c) => sql<number>`octet_length(${sql.ref(c)})` });
  // ts_rank's weights ({D, C, B, A}) must lie in 0…1: scale both so their ratio is the breadcrumb weight.
  const weightA = breadcrumbWeight > 1 ? 1 / breadcrumbWeight : 1;
  const weightB = Math.min(breadcrumbWeight, 1);
  const rankWeights = sql`array[0, 0, ${weightB}, ${weightA}]::float4[]`;
  const pgvector = pgvectorSchemaLookup();
  const setModel = (trx: Transaction<Database>, model: EmbeddingModel) =>
    setModelIn(trx, model, wantPgvector, pgvector);
  return sharedPort(db, common, {
    engine: 'postgres',
    setModelIn: setModel,
    replaceIn: replacer(setModel, pgvector),
    lexical: lexicalSearch(db, rankWeights),
    nearest: nearestSearch(db, pgvector, scanBatch),
  });
}
