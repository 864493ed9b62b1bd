import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../logger.js';
import type { EmbeddingModel, ModelInfo } from '../../search/index/index.js';
import { embeddingModelKeeper } from './embedding-model.js';

/**
 * A keeper over an index holding `stored`'s vectors, with an embedder of `id`, whose files done indexing with
 * passages without vectors are `unembedded` (they leave the list once queued); what it did is recorded.
 */
function keeperOf(
  stored: EmbeddingModel | undefined,
  id: string,
  failSetModel = 0,
  unembedded: string[] = [],
) {
  let model: ModelInfo | undefined = stored ? { ...stored, vectorStore: 'sqlite-vec' } : undefined;
  const log = { queued: 0, setModel: 0, embedded: 0, failures: failSetModel };
  /** The ids each queueing was given (undefined: every indexed file). */
  const queuedIds: Array<readonly string[] | undefined> = [];
  let waiting = [...unembedded].sort();
  const keeper = embeddingModelKeeper({
    index: {
      modelInfo: async () => model,
      unembeddedFiles: async (limit, after) =>
        waiting.filter((f) => after === undefined || f > after).slice(0, limit),
      async setModel(m) {
        log.setModel++;
        // A database write: the switch is in flight across a turn of the event loop.
        await new Promise((resolve) => setImmediate(resolve));
        if (log.failures > 0) {
          log.failures--;
          throw new Error('database busy');
        }
        const changed = model?.id !== m.id || model?.dimensions !== m.dimensions;
        model = { ...m, vectorStore: 'sqlite-vec' };
        return { changed, info: model };
      },
    },
    embedder: {
      id,
      dimensions: 8,
      async embed(texts) {
        log.embedded += texts.length;
        return texts.map(() => new Float32Array(8));
      },
      async close() {},
    },
    files: {
      async reembedIndexed(fileIds) {
        log.queued++;
        queuedIds.push(fileIds);
        if (!fileIds) return 3;
        waiting = waiting.filter((f) => !fileIds.includes(f));
        return fileIds.length;
      },
    },
    logger: silentLogger,
  });
  return { keeper, log, queuedIds, model: () => model };
}

describe('embeddingModelKeeper', () => {
  it('does nothing on an index of the same model, or of none with no passage without a vector', async () => {
    for (const stored of [{ id: 'm', dimensions: 8 }, undefined]) {
      const { keeper, log } = keeperOf(stored, 'm');
      expect(await keeper.ensure({ settle: true })).toBe(false);
      expect(await keeper.matches()).toBe(true);
      expect(log).toEqual({ queued: 0, setModel: 0, embedded: 0, failures: 0 });
    }
  });

  it('switches once however many ask at the same time, and matches from then on', async () => {
    const { keeper, log, model } = keeperOf({ id: 'old', dimensions: 8 }, 'new');
    expect(await keeper.matches()).toBe(false);
    expect(await Promise.all([keeper.ensure(), keeper.ensure(), keeper.ensure()])).toEqual([
      true,
      true,
      true,
    ]);
    expect(log).toMatchObject({ queued: 1, setModel: 1 });
    expect(model()?.id).toBe('new');
    expect(await keeper.matches()).toBe(true);
    expect(await keeper.ensure()).toBe(false);
    expect(log).toMatchObject({ queued: 1, setModel: 1 });
  });

  it('queues the files before it switches, and switches at the next check when the switch failed', async () => {
    const { keeper, log, model } = keeperOf({ id: 'old', dimensions: 8 }, 'new', 1);
    await expect(keeper.ensure()).rejects.toThrow('database busy');
    expect(log).toMatchObject({ queued: 1, setModel: 1 });
    expect(model()?.id).toBe('old');
    expect(await keeper.ensure()).toBe(true);
    expect(log).toMatchObject({ queued: 2, setModel: 2 });
    expect(model()?.id).toBe('new');
  });

  it('embeds once to settle the id before it decides, when asked to', async () => {
    const { keeper, log } = keeperOf({ id: 'old', dimensions: 8 }, 'new');
    expect(await keeper.ensure({ settle: true })).toBe(true);
    expect(log.embedded).toBe(1);
  });

  it('embeds, on an index of no model, only the files indexed without vectors (PARLEY_EMBEDDER=none before)', async () => {
    const ids = Array.from({ length: 501 }, (_, i) => `file_${String(i).padStart(4, '0')}`);
    const { keeper, log, queuedIds, model } = keeperOf(undefined, 'new', 0, ids);
    expect(await keeper.ensure({ settle: true })).toBe(true);
    // Read from the index a page at a time: every one of them queued, none twice.
    expect(queuedIds.map((q) => q?.length)).toEqual([500, 1]);
    expect(queuedIds.flatMap((q) => q ?? [])).toEqual(ids);
    expect(log).toMatchObject({ queued: 2, setModel: 1, embedded: 1 });
    expect(model()?.id).toBe('new');
    expect(await keeper.ensure()).toBe(false);
    expect(log).toMatchObject({ queued: 2, setModel: 1 });
  });
});
