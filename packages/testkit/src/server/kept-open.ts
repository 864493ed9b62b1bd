import type { Embedder } from '../../../server/src/search/types.js';

/**
 * `inner` for apps that close their embedder when they close (app.ts): the same model and calls, but its `close`
 * leaves `inner` open, so one loaded model serves the apps of a whole file, which closes `inner` once at its end.
 * @example
 * const model = new UseLiteEmbedder();
 * afterAll(() => model.close());
 * const t = useTestApp({ embedder: keptOpen(model) });
 */
export function keptOpen(inner: Embedder): Embedder {
  return {
    get id() {
      return inner.id;
    },
    get dimensions() {
      return inner.dimensions;
    },
    embed: (texts, signal, priority) => inner.embed(texts, signal, priority),
    close: async () => {},
  };
}
