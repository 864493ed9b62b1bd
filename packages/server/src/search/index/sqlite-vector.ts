import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { fixedQuery } from '../../db/fixed-query.js';
import { PerHandle } from '../../db/per-handle.js';
import type { Database } from '../../db/schema.js';
import { byScore, bytesVector, unitVector, vectorBytes } from './common.js';
import type { HnswParameters } from './hnsw-usearch.js';
import { type HnswEvent, HnswVectorIndex, type StoredVectorSource } from './hnsw-vector-index.js';
import { MAX_SEARCH_LIMIT, type PassageIndex } from './passage-index.js';
import type { EngineParts } from './shared-port.js';
import { exactInScope, rowsFor } from './sqlite-vector-rows.js';
import type { GraphChange, VectorGraphs } from './vector-graphs.js';
import { candidateCount, isNarrowScope } from './vector-scope.js';

/** How the SQLite passage index searches vectors. */
export interface SqliteVectorOptions {
  /**
   * The HNSW index (usearch) beside the stored vectors: its folder, by default `vector-index` beside the
   * database file (in memory for an in-memory database); false: every search is sqlite-vec's exact scan.
   */
  dir?: string | false | undefined;
  parameters?: Partial<Omit<HnswParameters, 'dimensions'>>;
  /** A changed partition is saved this long after its first change (default 30 s). */
  saveDelayMs?: number;
  /**
   * A bot's graph of at most this many vectors is searched once built; a larger one is searched by the
   * exact scan while it builds (default 2000). Every graph lives in the HNSW worker thread.
   */
  inlineBuildMax?: number;
  /** After a failure (or the end of the HNSW worker), a bot's graph is tried again this long later (default 60 s). */
  retryMs?: number;
  onEvent?: (event: HnswEvent) => void;
  /**
   * Where the vector changes of this handle's writes go instead of a graph of its own (a background thread's
   * passage index: the thread serving searches owns the graphs); its searches then scan exactly.
   */
  graphs?: VectorGraphs | undefined;
}

/** The stored vectors of a bot, read from `passages` (model_id set ⇔ a vector) and the vec0 table. */
function vectorSource(db: Kysely<Database>): StoredVectorSource {
  const rows = (r: { key: number; embedding: Uint8Array }[]) =>
    r.map((x) => ({ key: Number(x.key), vector: bytesVector(x.embedding) }));
  return {
    async keys(botId) {
      const r = await sql<{ seq: number }>`
        select seq from passages where bot_id = ${botId} and model_id is not null order by seq`.execute(db);
      return r.rows.map((x) => Number(x.seq));
    },
    async read(botId, afterKey, limit) {
      const r = await sql<{ key: number; embedding: Uint8Array }>`
        select passages.seq as key, passage_vectors.embedding as embedding
        from passages join passage_vectors on passage_vectors.rowid = passages.seq
        where passages.bot_id = ${botId} and passages.model_id is not null and passages.seq > ${afterKey}
        order by passages.seq limit ${limit}`.execute(db);
      return rows(r.rows);
    },
    async vectors(botId, keys) {
      const r = await sql<{ key: number; embedding: Uint8Array }>`
        select passages.seq as key, passage_vectors.embedding as embedding
        from passages join passage_vectors on passage_vectors.rowid = passages.seq
        where passages.seq in (select value from json_each(${JSON.stringify(keys)}))
          and passages.bot_id = ${botId} and passages.model_id is not null`.execute(db);
      return rows(r.rows);
    },
  };
}

/** Folder name of a model's partitions. */
const modelFolder = (model: { id: string; dimensions: number }) =>
  `${model.id.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 80)}-${model.dimensions}`;

/**
 * The HNSW index of one SQLite database, shared by every passage index of it in this process, so a write
 * through one is seen by the searches of all. One graph per bot; a model change drops them all.
 */
class SqliteHnsw implements VectorGraphs {
  private current: { key: string; dimensions: number; index: HnswVectorIndex } | undefined;
  private root: Promise<string | undefined> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: SqliteVectorOptions,
  ) {}

  /** Folder of the partitions: the option, or `vector-index` beside the database file (none in memory). */
  private folder(): Promise<string | undefined> {
    this.root ??= (async () => {
      if (typeof this.options.dir === 'string') return this.options.dir;
      const r = await sql<{
        file: string;
      }>`select file from pragma_database_list where name = 'main'`.execute(this.db);
      const file = r.rows[0]?.file;
      return file ? join(dirname(file), 'vector-index') : undefined;
    })();
    return this.root;
  }

  /** The index of the model, made (and other models' files removed) when the model changed. */
  async of(model: { id: string; dimensions: number }): Promise<HnswVectorIndex> {
    const key = `${model.id}\u0000${model.dimensions}`;
    if (this.current?.key === key) return this.current.index;
    const root = await this.folder();
    if (this.current?.key === key) return this.current.index;
    this.current?.index.drop();
    const folder = modelFolder(model);
    if (root) {
      let entries: string[] = [];
      try {
        entries = readdirSync(root);
      } catch {
        // not made yet
      }
      for (const e of entries) if (e !== folder) rmSync(join(root, e), { recursive: true, force: true });
    }
    const index = new HnswVectorIndex({
      modelId: model.id,
      dimensions: model.dimensions,
      source: vectorSource(this.db),
      dir: root ? join(root, folder) : undefined,
      ...(this.options.parameters ? { parameters: this.options.parameters } : {}),
      ...(this.options.saveDelayMs === undefined ? {} : { saveDelayMs: this.options.saveDelayMs }),
      ...(this.options.inlineBuildMax === undefined ? {} : { inlineBuildMax: this.options.inlineBuildMax }),
      ...(this.options.retryMs === undefined ? {} : { retryMs: this.options.retryMs }),
      ...(this.options.onEvent ? { onEvent: this.options.onEvent } : {}),
    });
    this.current = { key, dimensions: model.dimensions, index };
    return index;
  }

  /**
   * Starts a search of `partition` in the graph of the model seen last, before the caller reads the model
   * row: the read then overlaps the search, and the caller uses the answer only if `index` is still the
   * graph of the model it read. Undefined without a graph, or for a vector that cannot be of that model.
   */
  searchAhead(
    vector: Float32Array,
    partition: string,
    k: number,
  ):
    | { index: HnswVectorIndex; unit: Float32Array; found: ReturnType<HnswVectorIndex['nearest']> }
    | undefined {
    const current = this.current;
    if (!current || vector.length !== current.dimensions) return undefined;
    for (const x of vector) if (!Number.isFinite(x)) return undefined;
    const unit = unitVector(vector);
    // nearest() never rejects: a failure answers undefined.
    return { index: current.index, unit, found: current.index.nearest(partition, unit, k) };
  }

  /** Saves the changed graphs, then frees them (the HNSW worker ends once no index uses it). */
  async close(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    perDatabase.take(this.db);
    if (!current) return;
    // Best effort: a graph not saved is rebuilt at the next start.
    await current.index.flush().catch(() => undefined);
    current.index.close();
  }

  /** Drops the graphs of a model no longer current, and their files. */
  forget(): void {
    this.current?.index.drop();
    this.current = undefined;
  }
}

/** One HNSW index per database handle. */
const perDatabase = new PerHandle<SqliteHnsw>();

function hnswOf(db: Kysely<Database>, options: SqliteVectorOptions): SqliteHnsw {
  return perDatabase.of(db, () => new SqliteHnsw(db, options));
}

/**
 * Nearest vectors. A scope of a few files: sqlite-vec's exact scan of their passages. Otherwise the
 * nearest candidates of the bot's partition — from the HNSW graph (n + n/4 for the whole bot, 4n for a
 * narrower scope, then 8 times more), or sqlite-vec's exact KNN (4n) while the graph is building or when
 * it is off — kept when enough of them are in scope (then they hold the n nearest in scope); else the
 * exact scan restricted to the scope (filtered search that keeps recall). The graph of the model seen last
 * is asked before the model row is read (the read overlaps the search); its answer is dropped unless that
 * graph is still the model's.
 */
export function sqliteNearest(db: Kysely<Database>, options: SqliteVectorOptions): EngineParts['nearest'] {
  const hnsw = options.dir === false || options.graphs ? undefined : hnswOf(db, options);
  return async (vector, scope, n, readModel) => {
    const narrow = isNarrowScope(scope);
    const first = candidateCount(scope, n);
    const ahead = hnsw && !narrow ? hnsw.searchAhead(vector, scope.botId, first) : undefined;
    const model = await readModel();
    if (!model) return [];
    const unit = ahead?.unit ?? unitVector(vector);
    const q = vectorBytes(unit);
    if (narrow) return exactInScope(db, q, scope, n);
    const index = hnsw ? await hnsw.of(model) : undefined;
    // The graph is asked again for 8 times as many before the exact scan; sqlite-vec's KNN (while the
    // graph builds, or without one) is exact, so once is enough.
    for (const k of index ? [first, 8 * first] : [Math.max(4 * n, 64)]) {
      const kk = Math.min(MAX_SEARCH_LIMIT, k);
      let candidates = index
        ? await (ahead?.index === index && kk === first ? ahead.found : index.nearest(scope.botId, unit, kk))
        : undefined;
      const exactKnn = !candidates;
      if (!candidates) {
        const knn = await sql<{ seq: number; distance: number }>`
            select rowid as seq, distance from passage_vectors
            where embedding match ${q} and k = ${kk} and bot_id = ${scope.botId}`.execute(db);
        candidates = knn.rows.map((r) => ({ key: Number(r.seq), distance: r.distance }));
      }
      if (candidates.length === 0) break;
      const distance = new Map(candidates.map((c) => [c.key, c.distance]));
      const found = await rowsFor(db, scope, candidates, n);
      // Vectors gone without the index hearing of it (a file or bot deleted by cascade).
      if (index && found.missing.length > 0) index.remove(scope.botId, found.missing);
      if (found.rows.length >= n || candidates.length < kk)
        return found.rows
          .map((r) => ({ passageId: r.passageId, fileId: r.fileId, score: 1 - (distance.get(r.seq) ?? 2) }))
          .sort(byScore)
          .slice(0, n);
      if (exactKnn || kk === MAX_SEARCH_LIMIT) break;
    }
    return exactInScope(db, q, scope, n);
  };
}

/** The seq and bot of a file's embedded passages (every replacement: compiled once, see fixedQuery). */
const embeddedSeqs = fixedQuery(1, (db, fileId: string) => ({
  compile: () =>
    sql<{ seq: number; botId: string }>`
      select seq, bot_id as "botId" from passages where file_id = ${fileId} and model_id is not null`.compile(
      db,
    ),
}));

/** The seq and id of a file's embedded passages (compiled once). */
const embeddedIds = fixedQuery(1, (db, fileId: string) => ({
  compile: () =>
    sql<{ seq: number; id: string }>`
      select seq, id from passages where file_id = ${fileId} and model_id is not null`.compile(db),
}));

/**
 * The SQLite port with the HNSW graph kept up to date: after each committed replacement or deletion of a
 * file's passages, its old vectors leave the bot's graph and its new ones join; a model change drops the
 * graphs. Writes made otherwise (a file or bot deleted by cascade) are caught up with lazily.
 */
export function withSqliteHnsw(
  db: Kysely<Database>,
  port: PassageIndex,
  options: SqliteVectorOptions,
): PassageIndex {
  const hnsw: VectorGraphs | undefined =
    options.graphs ?? perDatabase.get(db) ?? (options.dir === false ? undefined : hnswOf(db, options));
  if (!hnsw) return port;
  const settled = async () => {
    await hnsw.settled?.();
  };
  const fileSeqs = async (fileId: string) => (await embeddedSeqs(db, fileId)).rows;
  /** The graph of the current model (a bot's partition opens, from its file, on its first change). */
  const openGraph = async () => {
    const model = await port.modelInfo();
    return model ? hnsw.of(model) : undefined;
  };
  return {
    ...port,
    async setModel(model) {
      const r = await port.setModel(model);
      if (r.changed) hnsw.forget();
      return r;
    },
    async replaceFilePassages(input) {
      const before = await fileSeqs(input.fileId);
      const modelBefore = await port.modelInfo();
      const ids = await port.replaceFilePassages(input);
      const model = await port.modelInfo();
      if (
        model &&
        modelBefore &&
        (model.id !== modelBefore.id || model.dimensions !== modelBefore.dimensions)
      )
        hnsw.forget();
      // The graph of the model just read (no second read of the model row).
      const graph = model ? await hnsw.of(model) : undefined;
      if (!graph) {
        await settled();
        return ids;
      }
      graph.remove(
        input.botId,
        before.map((r) => Number(r.seq)),
      );
      const positionOf = new Map(ids.map((id, i) => [id, i]));
      const rows = await embeddedIds(db, input.fileId);
      const keys: number[] = [];
      const vectors: Float32Array[] = [];
      for (const r of rows.rows) {
        const embedding = input.passages[positionOf.get(r.id) ?? -1]?.embedding;
        if (!embedding) continue;
        keys.push(Number(r.seq));
        vectors.push(unitVector(embedding));
      }
      const flat = new Float32Array(keys.length * (model?.dimensions ?? 0));
      vectors.forEach((v, i) => {
        flat.set(v, i * v.length);
      });
      graph.set(input.botId, keys, flat);
      await settled();
      return ids;
    },
    async deleteFile(fileId) {
      const before = await fileSeqs(fileId);
      await port.deleteFile(fileId);
      const graph = await openGraph();
      if (graph) for (const r of before) graph.remove(r.botId, [Number(r.seq)]);
      await settled();
    },
  };
}

/**
 * Applies a change a background thread's write made to the graphs of this handle (the thread that serves its
 * searches owns them); nothing when the handle has none (`dir: false`).
 */
export async function applyGraphChange(db: Kysely<Database>, change: GraphChange): Promise<void> {
  const hnsw = perDatabase.get(db);
  if (!hnsw) return;
  if (change.kind === 'forget') {
    hnsw.forget();
    return;
  }
  const graph = await hnsw.of(change.model);
  if (change.kind === 'set') graph.set(change.partition, change.keys, change.vectors);
  else graph.remove(change.partition, change.keys);
}

/** Test and bench hook: the HNSW index of a database handle, when one was made. */
export async function sqliteHnswIndexOf(
  db: Kysely<Database>,
  model: { id: string; dimensions: number },
): Promise<HnswVectorIndex | undefined> {
  return perDatabase.get(db)?.of(model);
}

/**
 * At shutdown, before the database closes: saves the HNSW graphs of a database handle that changed (so the
 * next start loads them instead of rebuilding them) and frees them, ending the HNSW worker once no index
 * uses it. Nothing to do for a handle without graphs (PostgreSQL, `dir: false`).
 */
export async function closeSqliteHnsw(db: Kysely<Database>): Promise<void> {
  await perDatabase.get(db)?.close();
}
