/* The HNSW graphs a passage index's writes keep up to date, here or in the thread that owns them. */

/** The two changes a write makes to a model's graphs. */
export interface GraphWriter {
  set(partition: string, keys: number[], vectors: Float32Array): void;
  remove(partition: string, keys: number[]): void;
}

/** The HNSW graphs a handle's writes keep up to date: this thread's, or another thread's ({@link GraphChange}). */
export interface VectorGraphs {
  /** The graphs of `model` (made, and other models' dropped, when the model changed). */
  of(model: { id: string; dimensions: number }): Promise<GraphWriter | undefined>;
  /** Drops the graphs of a model no longer current. */
  forget(): void;
  /** Resolves once every change given so far is applied where searches see it (answered before a write returns). */
  settled?(): Promise<void>;
}

/** A change to the graphs, as a background thread sends it to the thread that owns them ({@link applyGraphChange}). */
export type GraphChange =
  | {
      kind: 'set';
      model: { id: string; dimensions: number };
      partition: string;
      keys: number[];
      vectors: Float32Array;
    }
  | { kind: 'remove'; model: { id: string; dimensions: number }; partition: string; keys: number[] }
  | { kind: 'forget' };

/**
 * The graphs of another thread, for a background thread's passage index: each change is sent (`send`), and
 * `settled` resolves once the owner has applied every change sent so far.
 */
export function remoteGraphs(
  send: (change: GraphChange) => void,
  settled: () => Promise<void>,
): VectorGraphs {
  return {
    async of(model) {
      const m = { id: model.id, dimensions: model.dimensions };
      return {
        set: (partition, keys, vectors) => send({ kind: 'set', model: m, partition, keys, vectors }),
        remove: (partition, keys) => send({ kind: 'remove', model: m, partition, keys }),
      };
    },
    forget: () => send({ kind: 'forget' }),
    settled,
  };
}
