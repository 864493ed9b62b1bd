import { type Expression, expressionBuilder, type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import { fixedQuery } from '../../db/fixed-query.js';
import type { Database } from '../../db/schema.js';
import type { PassagesTable } from '../../db/tables/knowledge.js';
import { tagConditions } from '../../db/tag-filter.js';
import { newUlid } from '../../ids.js';
import type { PassageSubtype } from '../types.js';
import {
  type EmbeddingModel,
  EmbeddingModelMismatchError,
  type IndexedPassage,
  MAX_DIMENSIONS,
  MAX_SEARCH_LIMIT,
  type ModelInfo,
  type PassageScope,
  type StorageFigures,
  type StorageOwner,
  type StoredPassage,
  type VectorStoreKind,
} from './passage-index.js';

/** A new passage id, unique and time-sortable. */
export const newPassageId = (): string => `passage_${newUlid()}`;

/**
 * Rank weight of a passage's breadcrumb (its section titles) beside its content's 1, per engine, tuned on
 * SciFact's train split with each abstract's title as its breadcrumb (nDCG@10). SQLite bm25 column weight:
 * 0 → 0.679, 0.5 → 0.687, 1 → 0.692, 2 → 0.696, 3 → 0.700, 4 → 0.699; 2 rather than 3, since a heading is
 * shared by every passage of its section. PostgreSQL ts_rank weight B against A: 0.1 → 0.669, 0.5 → 0.675,
 * 1 → 0.680, 2 → 0.651.
 */
export const DEFAULT_BREADCRUMB_WEIGHT = { sqlite: 2, postgres: 1 } as const;

/** SQLite: passages per tile, the unit of context of the lexical search (fixed by migration 0005). */
export const TILE_PASSAGES = 8;

/**
 * SQLite: weight of a passage's tile (the 8 consecutive passages of its file it belongs to, ≈ 1,000 tokens)
 * in its lexical score, bm25(passage) + w · bm25(tile). Passages of ≤ 120 tokens split a document's
 * evidence: on SciFact's train split (abstracts uploaded as plain text, 4 passages each) bm25 over passages
 * scored 0.668 nDCG@10, over whole abstracts 0.692; with the tile at 1 → 0.691, 2 → 0.693, 3 → 0.692 (tiles of
 * 4 passages: 0.690, 0.694, 0.694). Passages of one tile share its score, so among them their own words
 * decide; the tile index has its own term statistics, so in a small collection, where nearly every tile
 * holds the words, its bm25 fades to nothing and passages rank by their own text alone.
 */
export const DEFAULT_TILE_WEIGHT = 2;

/** Status a file must have for its passages to be searched. */
export const SEARCHABLE_STATUS = 'indexing_completed';

/** A search limit clamped to 0…MAX_SEARCH_LIMIT (fractions dropped). */
export function clampLimit(limit: number): number {
  if (!Number.isFinite(limit) || limit <= 0) return 0;
  return Math.min(Math.floor(limit), MAX_SEARCH_LIMIT);
}

/**
 * The conditions on `files` (joined under that name) that a scope imposes. The visibility rule is the
 * files module's (modules/files/repo.ts), repeated here because search/ must not depend on a module.
 */
export function scopeCondition(scope: PassageScope): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'files'>();
  const conds: Expression<SqlBool>[] = [
    eb('files.bot_id', '=', scope.botId),
    eb('files.status', '=', SEARCHABLE_STATUS),
  ];
  const v = scope.visibility;
  if (v.kind === 'integration')
    conds.push(
      sql<SqlBool>`((files.owner_type = 'integration' and files.owner_id = ${v.integrationId}) or files.access_policies like '%"integrations"%')`,
    );
  if (scope.fileIds) conds.push(eb('files.id', 'in', scope.fileIds));
  if (scope.tags) conds.push(...tagConditions(eb, scope.tags, 'file_tags', 'file_id', 'files.id'));
  return eb.and(conds);
}

/** True when the scope can match nothing at all (an empty fileIds list). */
export const emptyScope = (scope: PassageScope): boolean =>
  scope.fileIds !== undefined && scope.fileIds.length === 0;

/** Checks the vectors of a write against its model; answers whether any passage carries one. */
export function checkEmbeddings(passages: IndexedPassage[], model: EmbeddingModel | undefined): boolean {
  const positions = new Set<number>();
  let any = false;
  for (const p of passages) {
    if (!Number.isInteger(p.position) || p.position < 0)
      throw new Error(`passage position must be a non-negative integer, got ${p.position}`);
    if (positions.has(p.position)) throw new Error(`two passages share position ${p.position}`);
    positions.add(p.position);
    if (!p.embedding) continue;
    any = true;
    if (!model) throw new Error('passages with embeddings need the model that made them');
    checkVector(p.embedding, model.dimensions);
  }
  return any;
}

/** Throws unless `v` has `dimensions` finite components. */
export function checkVector(v: Float32Array, dimensions: number): void {
  if (v.length !== dimensions)
    throw new Error(`vector has ${v.length} dimensions, the index's model has ${dimensions}`);
  for (const x of v) if (!Number.isFinite(x)) throw new Error('vector has a component that is not finite');
}

/** Throws unless the model's id and width are usable. */
export function checkModel(model: EmbeddingModel): void {
  if (!model.id) throw new Error('embedding model id must not be empty');
  if (!Number.isInteger(model.dimensions) || model.dimensions < 1 || model.dimensions > MAX_DIMENSIONS)
    throw new Error(`embedding dimensions must be an integer from 1 to ${MAX_DIMENSIONS}`);
}

/** A unit-length copy of `v` (a zero vector stays zero), so cosine similarity is a dot product. */
export function unitVector(v: Float32Array): Float32Array {
  let n = 0;
  // Indexed, not `for…of`: the typed array's iterator cost more than the arithmetic (every passage, twice).
  for (let i = 0; i < v.length; i++) {
    const x = v[i] as number;
    n += x * x;
  }
  const out = new Float32Array(v.length);
  if (n === 0) return out;
  const inv = 1 / Math.sqrt(n);
  for (let i = 0; i < v.length; i++) out[i] = (v[i] as number) * inv;
  return out;
}

/** The little-endian float32 bytes of a vector (sqlite-vec's and the bytea store's format). */
export function vectorBytes(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** Reads a vector back from its float32 bytes. */
export function bytesVector(bytes: Uint8Array): Float32Array {
  // A copy: the bytes may sit at an offset that is not a multiple of 4 (and Buffer#slice is no copy).
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

/** Orders hits best first, equal scores by passage id, so results never depend on the engine's order. */
export function byScore<T extends { score: number; passageId: string }>(a: T, b: T): number {
  return b.score - a.score || (a.passageId < b.passageId ? -1 : a.passageId > b.passageId ? 1 : 0);
}

/** Row of the model table as the port describes it. */
export function modelFromRow(
  row: { model_id: string; dimensions: number; vector_store: string } | undefined,
): ModelInfo | undefined {
  if (!row) return undefined;
  return {
    id: row.model_id,
    dimensions: Number(row.dimensions),
    vectorStore: row.vector_store as VectorStoreKind,
  };
}

/** The model row (every search and every file's indexing read it: compiled once, see fixedQuery). */
const modelRow = fixedQuery(0, (db) =>
  db
    .selectFrom('embedding_model')
    .select(['model_id', 'dimensions', 'vector_store'])
    .where('key', '=', 'current'),
);

/** The index's model, read through `db` (a transaction or the database). */
export async function readModelRow(db: Kysely<Database>): Promise<ModelInfo | undefined> {
  return modelFromRow((await modelRow(db)).rows[0]);
}

/** The model a write must use: answers undefined when the index has none yet; throws on a mismatch. */
export function compareModel(current: ModelInfo | undefined, given: EmbeddingModel): 'same' | 'none' {
  if (!current) return 'none';
  if (current.id !== given.id || current.dimensions !== given.dimensions)
    throw new EmbeddingModelMismatchError({ id: current.id, dimensions: current.dimensions }, given);
  return 'same';
}

/** A stored passage row as the port describes it. */
export function toStoredPassage(row: Omit<Selectable<PassagesTable>, 'terms'>): StoredPassage {
  return {
    id: row.id,
    fileId: row.file_id,
    botId: row.bot_id,
    position: Number(row.position),
    subtype: row.subtype as PassageSubtype,
    ...(row.page_number === null ? {} : { pageNumber: Number(row.page_number) }),
    content: row.content,
    breadcrumb: JSON.parse(row.breadcrumb) as string[],
    ...(row.model_id === null ? {} : { modelId: row.model_id }),
  };
}

const PASSAGE_COLUMNS = [
  'passages.id',
  'passages.file_id',
  'passages.bot_id',
  'passages.position',
  'passages.subtype',
  'passages.page_number',
  'passages.content',
  'passages.breadcrumb',
  'passages.model_id',
] as const;

/** Passages read by id, by file, or around a position. */
function passageReads(db: Kysely<Database>) {
  return {
    async getPassages(ids: string[]): Promise<StoredPassage[]> {
      if (ids.length === 0) return [];
      const byId = new Map<string, StoredPassage>();
      // Chunks keep the statement under every engine's parameter limit.
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db
          .selectFrom('passages')
          .select(PASSAGE_COLUMNS)
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
        for (const r of rows) byId.set(r.id, toStoredPassage(r));
      }
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    async listFilePassages(fileId: string, limit: number, afterPosition?: number): Promise<StoredPassage[]> {
      const n = clampLimit(limit);
      if (n === 0) return [];
      let q = db.selectFrom('passages').select(PASSAGE_COLUMNS).where('file_id', '=', fileId);
      if (afterPosition !== undefined) q = q.where('position', '>', afterPosition);
      const rows = await q.orderBy('position').limit(n).execute();
      return rows.map(toStoredPassage);
    },

    async neighbours(fileId: string, position: number, depth: number): Promise<StoredPassage[]> {
      const d = Math.max(0, Math.floor(depth));
      const rows = await db
        .selectFrom('passages')
        .select(PASSAGE_COLUMNS)
        .where('file_id', '=', fileId)
        .where('position', '>=', position - d)
        .where('position', '<=', position + d)
        .orderBy('position')
        .execute();
      return rows.map(toStoredPassage);
    },
  };
}

/**
 * What the passages of a bot or a workspace hold, the files indexed with another model or with none, and a
 * file's removal.
 */
function fileQueries(
  db: Kysely<Database>,
  options: { contentBytes: (column: string) => Expression<number | string | null> },
  readModel: () => ReturnType<typeof readModelRow>,
) {
  return {
    async storage(owner: StorageOwner): Promise<StorageFigures> {
      const model = await readModel();
      let q = db
        .selectFrom('passages')
        .select([
          sql<number | string>`count(*)`.as('passages'),
          sql<number | string>`count(case when passages.model_id = ${model?.id ?? null} then 1 end)`.as(
            'vectors',
          ),
          sql<number | string | null>`sum(${options.contentBytes('passages.content')})`.as('content_bytes'),
        ]);
      if ('botId' in owner) q = q.where('passages.bot_id', '=', owner.botId);
      else
        q = q
          .innerJoin('files', 'files.id', 'passages.file_id')
          .where('files.workspace_id', '=', owner.workspaceId);
      const row = await q.executeTakeFirstOrThrow();
      const vectors = Number(row.vectors);
      return {
        passages: Number(row.passages),
        vectors,
        vectorBytes: vectors * (model?.dimensions ?? 0) * 4,
        contentBytes: Number(row.content_bytes ?? 0),
      };
    },

    async staleFiles(limit: number): Promise<string[]> {
      const model = await readModel();
      const n = clampLimit(limit);
      if (!model || n === 0) return [];
      const rows = await db
        .selectFrom('passages')
        .select('file_id')
        .distinct()
        .where((eb) => eb.or([eb('model_id', 'is', null), eb('model_id', '!=', model.id)]))
        .orderBy('file_id')
        .limit(n)
        .execute();
      return rows.map((r) => r.file_id);
    },

    async unembeddedFiles(limit: number, afterFileId?: string): Promise<string[]> {
      const n = clampLimit(limit);
      if (n === 0) return [];
      let q = db
        .selectFrom('files')
        .select('files.id')
        .where('files.status', '=', SEARCHABLE_STATUS)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('passages')
              .select(sql`1`.as('one'))
              .whereRef('passages.file_id', '=', 'files.id')
              .where('passages.model_id', 'is', null),
          ),
        );
      if (afterFileId !== undefined) q = q.where('files.id', '>', afterFileId);
      const rows = await q.orderBy('files.id').limit(n).execute();
      return rows.map((r) => r.id);
    },

    async deleteFile(fileId: string): Promise<void> {
      await db.deleteFrom('passages').where('file_id', '=', fileId).execute();
    },
  };
}

/** The parts of the port that are the same on both engines: plain Kysely over `passages` and `files`. */
export function commonQueries(
  db: Kysely<Database>,
  options: { contentBytes: (column: string) => Expression<number | string | null> },
) {
  const readModel = () => readModelRow(db);

  return {
    readModel,
    ...passageReads(db),
    ...fileQueries(db, options, readModel),
  };
}
