import type { Kysely, Transaction } from 'kysely';
import { fixedQuery } from '../../db/fixed-query.js';
import type { Database } from '../../db/schema.js';
import {
  checkEmbeddings,
  checkModel,
  checkVector,
  clampLimit,
  type commonQueries,
  emptyScope,
} from './common.js';
import type {
  EmbeddingModel,
  ModelInfo,
  PassageHit,
  PassageIndex,
  PassageScope,
  ReplaceFilePassagesInput,
  VectorStoreKind,
} from './passage-index.js';

/** Writes the index's model row: the model, and how its vectors are stored. */
async function writeModelRow(
  trx: Kysely<Database>,
  model: EmbeddingModel,
  store: VectorStoreKind,
): Promise<void> {
  const values = {
    model_id: model.id,
    dimensions: model.dimensions,
    vector_store: store,
    updated_at: new Date().toISOString(),
  };
  await trx
    .insertInto('embedding_model')
    .values({ key: 'current', ...values })
    .onConflict((oc) => oc.column('key').doUpdateSet(values))
    .execute();
}

/** The checked input of a passage replacement; answers whether its passages carry embeddings. */
export function checkReplaceInput(input: ReplaceFilePassagesInput): boolean {
  const embedded = checkEmbeddings(input.passages, input.model);
  if (input.model) checkModel(input.model);
  return embedded;
}

/** The bot of a file (every passage replacement checks it: compiled once, see fixedQuery). */
const botOfFile = fixedQuery(1, (db, fileId: string) =>
  db.selectFrom('files').select('bot_id').where('id', '=', fileId),
);

/**
 * Inside a passage replacement: throws unless the file exists and is the bot's (`lock`: its row locked until
 * commit, so a concurrent delete waits for the replacement).
 */
export async function checkFileOfBot(
  trx: Kysely<Database>,
  input: Pick<ReplaceFilePassagesInput, 'fileId' | 'botId'>,
  lock: boolean,
): Promise<void> {
  const { fileId, botId } = input;
  const file = lock
    ? await trx.selectFrom('files').select('bot_id').where('id', '=', fileId).forUpdate().executeTakeFirst()
    : (await botOfFile(trx, fileId)).rows[0];
  if (!file) throw new Error(`file ${fileId} does not exist`);
  if (file.bot_id !== botId) throw new Error(`file ${fileId} is not a file of bot ${botId}`);
}

/**
 * The port's replaceFilePassages over an engine's `write`: the input checked, then written in one transaction
 * (`embedded`: whether its passages carry embeddings); answers the new passages' ids.
 */
export function passageReplacer(
  db: Kysely<Database>,
  write: (
    trx: Transaction<Database>,
    input: ReplaceFilePassagesInput,
    embedded: boolean,
  ) => Promise<string[]>,
): (input: ReplaceFilePassagesInput) => Promise<string[]> {
  return async (input) => {
    const embedded = checkReplaceInput(input);
    return db.transaction().execute((trx) => write(trx, input, embedded));
  };
}

/** Inside a model change: no stored passage counts as embedded by a model any more. */
async function forgetPassageModels(trx: Kysely<Database>): Promise<void> {
  await trx.updateTable('passages').set({ model_id: null }).where('model_id', 'is not', null).execute();
}

/**
 * Inside a model change: records `model` as the index's model, its vectors stored as `store`. The model row
 * goes first (a writer holding it for share finishes before the vectors' table goes), then `rebuildVectors`
 * makes the empty vectors table of the new model, then no passage counts as embedded any more.
 */
export async function replaceModel(
  trx: Kysely<Database>,
  model: EmbeddingModel,
  store: VectorStoreKind,
  rebuildVectors: () => Promise<void>,
): Promise<{ changed: true; info: ModelInfo }> {
  await writeModelRow(trx, model, store);
  await rebuildVectors();
  await forgetPassageModels(trx);
  return { changed: true, info: { id: model.id, dimensions: model.dimensions, vectorStore: store } };
}

/** The port's setModel over an engine's `setModelIn` (run in a transaction of its own). */
export function modelSetter<R>(
  db: Kysely<Database>,
  setModelIn: (trx: Transaction<Database>, model: EmbeddingModel) => Promise<R>,
): (model: EmbeddingModel) => Promise<R> {
  return async (model) => {
    checkModel(model);
    return db.transaction().execute((trx) => setModelIn(trx, model));
  };
}

/** What an engine implements itself; {@link sharedPort} makes the port of them. */
export interface EngineParts {
  engine: PassageIndex['engine'];
  /** Sets the model inside `trx` (dropping the vectors of another one). */
  setModelIn: (trx: Transaction<Database>, model: EmbeddingModel) => ReturnType<PassageIndex['setModel']>;
  /** Replaces a file's passages inside `trx`, the input checked; answers their ids. */
  replaceIn: (
    trx: Transaction<Database>,
    input: ReplaceFilePassagesInput,
    embedded: boolean,
  ) => Promise<string[]>;
  /** Lexical search for `n` (≥ 1) hits in a scope that is not empty. */
  /** `language`: the query's language as its asker knows it (the tie-breaker of its detection: see lexicalSearch). */
  lexical: (query: string, scope: PassageScope, n: number, language?: string) => Promise<PassageHit[]>;
  /**
   * The `n` (≥ 1) nearest passages to `vector` in a scope that is not empty; none when `model()` (the
   * index's model, read when called; it throws when `vector` does not fit it) answers none. An engine may
   * start searching before it reads the model, so the read overlaps the search, if it uses the answer only
   * when it was searched for that very model.
   */
  nearest: (
    vector: Float32Array,
    scope: PassageScope,
    n: number,
    model: () => Promise<ModelInfo | undefined>,
  ) => Promise<PassageHit[]>;
}

/**
 * The passage index port of an engine's parts: the common queries, setModel and replaceFilePassages in a
 * transaction of their own, and searches that answer nothing for a zero limit, an empty scope or (vectors)
 * an index without a model.
 */
export function sharedPort(
  db: Kysely<Database>,
  common: ReturnType<typeof commonQueries>,
  parts: EngineParts,
): PassageIndex {
  return {
    engine: parts.engine,
    modelInfo: common.readModel,
    setModel: modelSetter(db, parts.setModelIn),
    replaceFilePassages: passageReplacer(db, parts.replaceIn),
    deleteFile: common.deleteFile,
    async lexicalSearch(
      query: string,
      scope: PassageScope,
      limit: number,
      language?: string,
    ): Promise<PassageHit[]> {
      const n = clampLimit(limit);
      if (n === 0 || emptyScope(scope)) return [];
      return parts.lexical(query, scope, n, language);
    },
    async vectorSearch(vector: Float32Array, scope: PassageScope, limit: number): Promise<PassageHit[]> {
      const n = clampLimit(limit);
      if (n === 0 || emptyScope(scope)) return [];
      return parts.nearest(vector, scope, n, async () => {
        const model = await common.readModel();
        if (model) checkVector(vector, model.dimensions);
        return model;
      });
    },
    getPassages: common.getPassages,
    listFilePassages: common.listFilePassages,
    neighbours: common.neighbours,
    storage: common.storage,
    staleFiles: common.staleFiles,
    unembeddedFiles: common.unembeddedFiles,
  };
}
