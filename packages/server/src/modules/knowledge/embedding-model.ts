import type { PeriodicTask } from '../../jobs/runner.js';
import type { Logger } from '../../logger.js';
import type { ModelInfo, PassageIndex } from '../../search/index/index.js';
import type { Embedder } from '../../search/types.js';
import type { FileIndexing } from '../files/contract.js';

/** How often a process with background work checks that the index holds vectors of its embedder's model. */
export const MODEL_CHECK_EVERY_MS = 60_000;

/** Files without vectors read from the index per page when an index with no model is switched. */
const UNEMBEDDED_PAGE = 500;

/** What keeps the passage index on the embedder's model. */
export interface EmbeddingModelDeps {
  index: Pick<PassageIndex, 'modelInfo' | 'setModel' | 'unembeddedFiles'>;
  embedder: Embedder;
  files: Pick<FileIndexing, 'reembedIndexed'>;
  logger: Logger;
}

/**
 * The passage index holds the vectors of one model. When the embedder is another (`PARLEY_EMBEDDER`, the
 * precision or the model folder changed between two starts), the index is switched to it: every stored vector
 * is dropped, and every indexed file is queued to embed its stored passages again (its document is not read
 * again); until a file is, it is found by words only. An index with no model whose indexed files have
 * passages without vectors (indexed with `none`) is switched too, queueing those files only; one with no
 * such passages (an empty database, files without passages) is left to the first file embedded. An index
 * already on the embedder's model whose indexed files have passages without vectors (indexed while the
 * deployment ran with `none` for a while, then went back to the model) gets those files queued. Searches
 * never compare a query's vector with vectors of another model. Every process of one deployment must run the
 * same embedder.
 */
export interface EmbeddingModelKeeper {
  /**
   * Whether the index's vectors are of the embedder's model, or it holds none: a vector search may compare
   * with them. Read from the index until it first holds, then known (it holds as long as the model stays).
   */
  matches(): Promise<boolean>;
  /**
   * Switches the index to the embedder's model when it holds vectors of another, or none while indexed files
   * have passages without vectors, queueing the (re-)embedding; on the embedder's model, queues the indexed
   * files with passages without vectors. Answers whether it switched or queued files. One at a time; an
   * embedder whose id is known only once its model is
   * loaded (a model folder) is used once first when `settle` is set, so that a provisional id never switches.
   */
  ensure(options?: { settle?: boolean }): Promise<boolean>;
  /**
   * Before an indexing job writes vectors of the embedder: {@link ensure}, unless the index was seen on the
   * embedder's model already (then nothing: the files with passages without vectors are the periodic check's,
   * not a query per file indexed).
   */
  beforeWrite(): Promise<void>;
  /** The check run at start and every minute by the processes that run background work. */
  periodic(): PeriodicTask;
}

/** The keeper of `deps.index`'s model (see {@link EmbeddingModelKeeper}). */
export function embeddingModelKeeper(deps: EmbeddingModelDeps): EmbeddingModelKeeper {
  const { index, embedder, files, logger } = deps;
  const isEmbedders = (model: ModelInfo) =>
    model.id === embedder.id && model.dimensions === embedder.dimensions;
  /** The embedder id the index was last seen to hold. */
  let matched: string | undefined;
  let switching: Promise<boolean> | undefined;

  /**
   * Whether the index must switch: vectors of another model, or none while files done indexing have passages
   * without vectors (indexed with `none`; a file still indexing gets its vectors from its own job).
   */
  async function mustSwitch(model: ModelInfo | undefined): Promise<boolean> {
    return model ? !isEmbedders(model) : (await index.unembeddedFiles(1)).length > 0;
  }

  /** Queues the files to embed: every indexed one after a change of model, those without vectors otherwise. */
  async function queueFiles(model: ModelInfo | undefined): Promise<number> {
    if (model) return files.reembedIndexed();
    let queued = 0;
    let after: string | undefined;
    for (;;) {
      const ids = await index.unembeddedFiles(UNEMBEDDED_PAGE, after);
      if (ids.length > 0) queued += await files.reembedIndexed(ids);
      if (ids.length < UNEMBEDDED_PAGE) return queued;
      after = ids[ids.length - 1];
    }
  }

  /** Queues the indexed files that have passages without vectors, on an index already of the embedder's model. */
  async function embedLeftovers(): Promise<boolean> {
    if ((await index.unembeddedFiles(1)).length === 0) return false;
    const queued = await queueFiles(undefined);
    if (queued === 0) return false;
    logger.warn(
      { model: embedder.id, files: queued },
      `${queued} indexed files have passages without vectors (indexed while no embedding model was configured); they are being embedded with ${embedder.id} in the background; until each is, search finds it by words only`,
    );
    return true;
  }

  async function switchIfOther(settle: boolean): Promise<boolean> {
    let model = await index.modelInfo();
    if (model && isEmbedders(model)) {
      matched = embedder.id;
      return embedLeftovers();
    }
    if (!(await mustSwitch(model))) return false;
    if (settle) {
      await embedder.embed(['model check']);
      model = await index.modelInfo();
      if (!(await mustSwitch(model))) return false;
    }
    // Queued first: a stop between the two leaves the model to switch at the next start, not files that would
    // never be embedded again. (Processes starting together may both queue a file: it is embedded twice.)
    const queued = await queueFiles(model);
    const { changed } = await index.setModel({ id: embedder.id, dimensions: embedder.dimensions });
    if (!changed) return false;
    matched = undefined;
    logger.warn(
      { from: model?.id ?? null, to: embedder.id, dimensions: embedder.dimensions, files: queued },
      model
        ? `The embedding model changed from ${model.id} to ${embedder.id}: its vectors were dropped and ${queued} indexed files are being embedded again in the background; until each is, search finds it by words only`
        : `Files were indexed without an embedding model; ${queued} are being embedded with ${embedder.id} in the background; until each is, search finds it by words only`,
    );
    return true;
  }

  const keeper: EmbeddingModelKeeper = {
    async matches() {
      if (matched === embedder.id) return true;
      const model = await index.modelInfo();
      if (model && !isEmbedders(model)) return false;
      if (model) matched = embedder.id;
      return true;
    },
    ensure(options = {}) {
      switching ??= switchIfOther(options.settle ?? false).finally(() => {
        switching = undefined;
      });
      return switching;
    },
    async beforeWrite() {
      if (matched !== embedder.id) await keeper.ensure();
    },
    periodic: () => ({
      name: 'embedding model check',
      everyMs: MODEL_CHECK_EVERY_MS,
      firstAfterMs: 0,
      run: () => keeper.ensure({ settle: true }),
    }),
  };
  return keeper;
}
