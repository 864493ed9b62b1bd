/**
 * What the HNSW vector index (hnsw-vector-index.ts) keeps of each partition on the main thread, its
 * options and events.
 */
import type { HnswParameters } from './hnsw-usearch.js';

/** Where the HNSW index reads the stored vectors, which stay the source of truth. */
export interface StoredVectorSource {
  /** Every key (passage seq) of a partition's stored vectors, ascending. */
  keys(partition: string): Promise<number[]>;
  /** A partition's stored vectors with a key above `afterKey`, by key, at most `limit` (unit length). */
  read(partition: string, afterKey: number, limit: number): Promise<{ key: number; vector: Float32Array }[]>;
  /** The stored vectors of the given keys of a partition (unknown keys left out). */
  vectors(partition: string, keys: number[]): Promise<{ key: number; vector: Float32Array }[]>;
}

/** What the index did, for logs and tests. */
export type HnswEvent =
  | { kind: 'loaded' | 'built' | 'saved'; partition: string; size: number; ms: number }
  | { kind: 'failed'; partition: string; message: string };

/** Options of {@link HnswVectorIndex}. */
export interface HnswVectorIndexOptions {
  /** The model of the vectors: a file of another model (or width) is stale. */
  modelId: string;
  dimensions: number;
  source: StoredVectorSource;
  /** Folder of the persisted partitions (made mode 0700, files 0600); none: kept in memory only. */
  dir?: string | undefined;
  parameters?: Partial<Omit<HnswParameters, 'dimensions'>>;
  /** Threads of every insertion (default: every core). */
  buildThreads?: number;
  /** A partition of at most this many vectors is searched once built; larger ones scan exactly until then. */
  inlineBuildMax?: number;
  /** A changed partition is saved this long after its first change (default 30 s). */
  saveDelayMs?: number;
  /** After a failure (or the worker's end), a partition is tried again this long later (default 60 s). */
  retryMs?: number;
  onEvent?: (event: HnswEvent) => void;
}

/** A change to a partition, applied in the order the database committed it. */
export type Op = { kind: 'remove'; keys: number[] } | { kind: 'set'; keys: number[]; vectors: Float32Array };

export interface Partition {
  /**
   * opening: reading the stored keys, loading or (a small one) building; building: a large one built in
   * the worker (searches scan exactly); ready: searched in the worker; failed: scanned exactly until retryAt.
   */
  state: 'opening' | 'building' | 'ready' | 'failed';
  /** The keys the worker's graph holds or has queued (this thread's mirror of them). */
  keys: Set<number>;
  /** Changes that arrived while the partition was opening, sent once the worker has its graph. */
  held: Op[];
  opening?: Promise<void> | undefined;
  building?: Promise<void> | undefined;
  /** Changed since it was last saved. */
  dirty: boolean;
  /** Bumped by every change, so a save knows whether its snapshot still holds. */
  version: number;
  retryAt?: number | undefined;
}
