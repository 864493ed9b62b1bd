/**
 * Opening and saving a partition of the HNSW vector index (hnsw-vector-index.ts) on the main thread: the
 * stored vectors (the source of truth) are read here and moved to the worker, which loads, builds and saves
 * the graph files; the stamp files are written here.
 */

import { partitionFiles, stampMatches, stampOf, writeStamp } from './hnsw-files.js';
import type { HnswVectorIndexOptions, Op, Partition, StoredVectorSource } from './hnsw-partition.js';
import type { HnswParameters } from './hnsw-usearch.js';
import type { HnswWorker } from './hnsw-worker-client.js';

/** What opening and saving a partition need of the index. */
export interface PartitionHost {
  readonly options: HnswVectorIndexOptions;
  readonly parameters: HnswParameters;
  /** Threads of every insertion into a graph. */
  readonly threads: number;
  /** The partition's name in the worker. */
  workerName(name: string): string;
  /** The worker the index uses, if any. */
  worker(): HnswWorker | undefined;
  /** The worker, started when needed. */
  connect(): HnswWorker;
  /** Whether the partition was dropped, failed or replaced meanwhile. */
  stale(name: string, p: Partition): boolean;
  /** Records a change (dirty, stamp file removed, save scheduled). */
  changed(name: string, p: Partition): void;
  /** Sends a change to the worker. */
  send(name: string, p: Partition, op: Op): void;
  /** Sends the changes held while the partition opened. */
  releaseHeld(name: string, p: Partition): void;
  scheduleSave(): void;
  failed(name: string, p: Partition, error: unknown): void;
}

/** Loads the partition's file when it matches the stored vectors, else rebuilds it. */
export async function openPartition(h: PartitionHost, name: string, p: Partition): Promise<void> {
  const started = performance.now();
  const keys = await h.options.source.keys(name);
  if (h.stale(name, p)) return;
  const worker = h.connect();
  const files = h.options.dir ? partitionFiles(h.options.dir, name) : undefined;
  if (files && stampMatches(files.meta, h.options.modelId, h.parameters, keys)) {
    const size = await worker
      .request<number>({
        kind: 'load',
        partition: h.workerName(name),
        parameters: h.parameters,
        threads: h.threads,
        path: files.graph,
      })
      .catch(() => undefined);
    if (h.stale(name, p)) return;
    if (size === keys.length) {
      p.keys = new Set(keys);
      p.state = 'ready';
      h.releaseHeld(name, p);
      h.options.onEvent?.({ kind: 'loaded', partition: name, size, ms: performance.now() - started });
      return;
    }
  }
  return rebuild(h, name, p, started);
}

/**
 * Rebuilds a partition from the stored vectors in the worker. Changes from now on are sent after the
 * snapshot: applied in order, they end where the database is.
 */
async function rebuild(h: PartitionHost, name: string, p: Partition, started: number): Promise<void> {
  const { keys, vectors } = await readAll(h.options.source, name, h.parameters.dimensions);
  if (h.stale(name, p)) return;
  const worker = h.connect();
  p.keys = new Set(keys);
  const built = worker.request<number>(
    {
      kind: 'build',
      partition: h.workerName(name),
      parameters: h.parameters,
      threads: h.threads,
      keys,
      vectors,
    },
    [keys.buffer as ArrayBuffer, vectors.buffer as ArrayBuffer],
  );
  p.state = 'building';
  h.changed(name, p);
  h.releaseHeld(name, p);
  const done = built.then((size) => {
    if (p.state !== 'building') return;
    p.state = 'ready';
    h.scheduleSave();
    h.options.onEvent?.({ kind: 'built', partition: name, size, ms: performance.now() - started });
  });
  // A small partition is searched once built; a large one scans exactly meanwhile.
  if (p.keys.size <= (h.options.inlineBuildMax ?? 2000) || !h.options.dir) return done;
  p.building = done
    .catch((error: unknown) => h.failed(name, p, error))
    .finally(() => {
      p.building = undefined;
    });
}

/**
 * Saves a partition, its graph first reconciled with the stored vectors (keys gone without a word
 * removed, missing ones added), then stamped with them.
 */
export async function savePartition(h: PartitionHost, name: string, p: Partition): Promise<void> {
  const started = performance.now();
  const version = p.version;
  const { gone, added } = await reconcile(h.options.source, name, p.keys, h.parameters.dimensions);
  const worker = h.worker();
  if (h.stale(name, p) || p.state !== 'ready' || p.version !== version || !worker) {
    h.scheduleSave(); // changed meanwhile: next time
    return;
  }
  if (gone.length > 0) h.send(name, p, { kind: 'remove', keys: gone });
  if (added) h.send(name, p, { kind: 'set', ...added });
  const keys = [...p.keys].sort((a, b) => a - b);
  const saving = p.version;
  const files = partitionFiles(h.options.dir as string, name);
  const size = await worker.request<number>({
    kind: 'save',
    partition: h.workerName(name),
    path: files.graph,
  });
  // Changed while the worker saved: the file holds the graph before that change; stamped next time.
  if (h.stale(name, p) || p.version !== saving || size !== keys.length) {
    h.scheduleSave();
    return;
  }
  writeStamp(files.meta, h.options.modelId, h.parameters, stampOf(keys));
  p.dirty = false;
  h.options.onEvent?.({ kind: 'saved', partition: name, size, ms: performance.now() - started });
}

const READ_BATCH = 5000;

/** Every stored vector of a partition, by key (keys.length × dimensions components), read in batches. */
export async function readAll(
  source: StoredVectorSource,
  name: string,
  dimensions: number,
): Promise<{ keys: Float64Array; vectors: Float32Array }> {
  const keys: number[] = [];
  const chunks: Float32Array[] = [];
  let after = -1;
  for (;;) {
    const rows = await source.read(name, after, READ_BATCH);
    for (const r of rows) {
      keys.push(r.key);
      chunks.push(r.vector);
    }
    const last = rows[rows.length - 1];
    if (!last || rows.length < READ_BATCH) break;
    after = last.key;
  }
  const vectors = new Float32Array(keys.length * dimensions);
  for (const [i, v] of chunks.entries()) vectors.set(v, i * dimensions);
  return { keys: Float64Array.from(keys), vectors };
}

/**
 * How a partition's graph of `keys` differs from its stored vectors: the keys gone without a word (a
 * cascade from a deleted file or bot) and the stored vectors it misses.
 */
export async function reconcile(
  source: StoredVectorSource,
  name: string,
  keys: Set<number>,
  dimensions: number,
): Promise<{ gone: number[]; added: { keys: number[]; vectors: Float32Array } | undefined }> {
  const stored = await source.keys(name);
  const storedSet = new Set(stored);
  const gone = [...keys].filter((k) => !storedSet.has(k));
  const missing = stored.filter((k) => !keys.has(k));
  const rows = missing.length > 0 ? await source.vectors(name, missing) : [];
  if (rows.length === 0) return { gone, added: undefined };
  const vectors = new Float32Array(rows.length * dimensions);
  for (const [i, r] of rows.entries()) vectors.set(r.vector, i * dimensions);
  return { gone, added: { keys: rows.map((r) => r.key), vectors } };
}
