import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { partitionFiles, removeFile } from './hnsw-files.js';
import { openPartition, type PartitionHost, savePartition } from './hnsw-lifecycle.js';
import type { HnswVectorIndexOptions, Op, Partition } from './hnsw-partition.js';
import { DEFAULT_HNSW_PARAMETERS, type HnswParameters } from './hnsw-usearch.js';

export type { HnswEvent, HnswVectorIndexOptions, StoredVectorSource } from './hnsw-partition.js';

import { type HnswWorker, type HnswWorkerUser, hnswWorker } from './hnsw-worker-client.js';

let instances = 0;

/** `vectors` as an array owning its whole buffer, which can be moved to the worker (or copied to it without the rest of a larger buffer). */
const movable = (vectors: Float32Array) =>
  vectors.byteOffset === 0 &&
  vectors.byteLength === vectors.buffer.byteLength &&
  vectors.buffer instanceof ArrayBuffer
    ? vectors
    : vectors.slice();

/**
 * Approximate nearest-neighbour search (HNSW, usearch, cosine) over stored vectors, one graph per partition
 * (a bot), kept in a worker thread (hnsw-worker-client.ts, hnsw-graphs.ts): no insertion, build, load or
 * search of a graph runs on this thread. Kept beside the stored vectors, which stay the source of truth: a
 * partition is loaded from its file when the file's stamp (count, largest and sum of the keys) matches the
 * stored vectors, else rebuilt from them, which this thread reads and moves to the worker (a large one
 * while searches fall back to the exact scan: `nearest` answers undefined). Changes are sent as the
 * database commits them, in order with the searches: the worker queues new vectors for insertion (a chunk
 * at a time) and scores the queued ones exactly, so a search sees every change sent before it and never a
 * removed key. A changed partition is saved a while later (its stamp file is removed at its first change,
 * so a crash before the save leads to a rebuild, never to a stale graph). Saving also drops the keys
 * whose vectors went without a word (a cascade from a deleted file or bot) and adds any that are missing.
 * When the worker dies, searches scan exactly and the partitions are opened again a while later.
 */
export class HnswVectorIndex implements HnswWorkerUser {
  private readonly partitions = new Map<string, Partition>();
  private readonly parameters: HnswParameters;
  /** This index's partitions are named so in the shared worker. */
  private readonly prefix = `${++instances}\u0000`;
  private worker: HnswWorker | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Threads of every insertion: one count for all insertions into a graph (see hnsw-graphs.ts). */
  private readonly threads: number;
  private readonly host: PartitionHost;

  constructor(private readonly options: HnswVectorIndexOptions) {
    this.parameters = { ...DEFAULT_HNSW_PARAMETERS, ...options.parameters, dimensions: options.dimensions };
    this.threads = Math.max(
      1,
      Math.min(options.buildThreads ?? availableParallelism(), availableParallelism()),
    );
    if (options.dir) mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    this.host = {
      options,
      parameters: this.parameters,
      threads: this.threads,
      workerName: (name) => this.prefix + name,
      worker: () => this.worker,
      connect: () => this.connect(),
      stale: (name, p) => this.stale(name, p),
      changed: (name, p) => this.changed(name, p),
      send: (name, p, op) => this.send(name, p, op),
      releaseHeld: (name, p) => this.releaseHeld(name, p),
      scheduleSave: () => this.scheduleSave(),
      failed: (name, p, error) => this.failed(name, p, error),
    };
  }

  /**
   * The `k` nearest stored vectors of a partition to the unit vector `q` ({key, cosine distance}, nearest
   * first), every change sent before included; undefined while the partition is building (or failed to):
   * search exactly instead.
   */
  async nearest(
    partition: string,
    q: Float32Array,
    k: number,
  ): Promise<{ key: number; distance: number }[] | undefined> {
    if (this.closed) return undefined;
    const p = this.partition(partition);
    if (p.opening) await p.opening;
    const worker = this.worker;
    if (p.state !== 'ready' || !worker) return undefined;
    if (p.keys.size === 0) return [];
    try {
      // Copied by postMessage (an array owning its whole buffer: a view would take the rest of its buffer
      // along), not moved: moving a copy of it cost ~0.05 ms more per round trip, threads idle and caches cold.
      const found = await worker.request<{ keys: number[]; distances: number[] }>({
        kind: 'search',
        partition: this.prefix + partition,
        q: movable(q),
        k,
      });
      return found.keys.map((key, i) => ({ key, distance: found.distances[i] as number }));
    } catch {
      return undefined; // the worker died or lost the graph: told apart by `ended`/`lost`
    }
  }

  /**
   * Records that a partition's vectors of `keys` were replaced by `vectors` (unit, keys.length × dimensions);
   * an array owning its whole buffer is moved to the worker (empty here afterwards).
   */
  set(partition: string, keys: number[], vectors: Float32Array): void {
    if (keys.length > 0) this.apply(partition, { kind: 'set', keys, vectors });
  }

  /** Records that a partition's vectors of `keys` are gone. */
  remove(partition: string, keys: number[]): void {
    if (keys.length > 0) this.apply(partition, { kind: 'remove', keys });
  }

  /** Whether a partition is ready to search (loaded or built); starts opening it when it is not. */
  async ready(partition: string): Promise<boolean> {
    const p = this.partition(partition);
    if (p.opening) await p.opening;
    return p.state === 'ready';
  }

  /** Waits until every partition opening or building now is ready (or failed), and every change is inserted. */
  async settle(): Promise<void> {
    for (;;) {
      const waits = [...this.partitions.values()].flatMap((p) => [p.opening, p.building].filter((w) => w));
      if (waits.length > 0) await Promise.all(waits);
      else {
        if (this.worker?.alive && !this.closed) await this.worker.request({ kind: 'drain' }).catch(() => {});
        if ([...this.partitions.values()].every((p) => !p.opening && !p.building)) return;
      }
    }
  }

  /** Saves every changed partition now. */
  async flush(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    for (const [name, p] of this.partitions)
      if (p.dirty && p.state === 'ready') await savePartition(this.host, name, p);
  }

  /** Stops saving and frees the graphs; the files stay (a partition changed since its last save is rebuilt next time). */
  close(): void {
    this.closed = true;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.worker?.detach(this.prefix);
    this.worker = undefined;
  }

  /** Forgets every partition and deletes their files (the model changed). */
  drop(): void {
    this.close();
    this.partitions.clear();
    if (this.options.dir) rmSync(this.options.dir, { recursive: true, force: true });
  }

  /** Keys of the partition's graph, inserted or queued (for tests and checks). */
  size(partition: string): number | undefined {
    const p = this.partitions.get(partition);
    return p?.state === 'ready' ? p.keys.size : undefined;
  }

  /** Vectors of a ready partition still queued for insertion in the worker (for tests and checks). */
  async queued(partition: string): Promise<number | undefined> {
    const p = this.partitions.get(partition);
    if (p?.state !== 'ready' || !this.worker) return undefined;
    return this.worker.request<number>({ kind: 'queued', partition: this.prefix + partition });
  }

  /** The worker lost a partition's graph. */
  lost(partition: string, message: string): void {
    const p = this.partitions.get(partition);
    if (p) this.failed(partition, p, new Error(message));
  }

  /** The worker ended: every partition is scanned exactly until it is opened again. */
  ended(message: string): void {
    this.worker = undefined;
    for (const [name, p] of this.partitions) this.failed(name, p, new Error(message));
  }

  /** The worker, started (or started again after it died) when needed. */
  private connect(): HnswWorker {
    if (this.closed) throw new Error('HNSW index closed');
    if (!this.worker?.alive) {
      this.worker = hnswWorker();
      this.worker.attach(this.prefix, this);
    }
    return this.worker;
  }

  private partition(name: string): Partition {
    let p = this.partitions.get(name) as Partition | undefined;
    if (p?.retryAt !== undefined && Date.now() >= p.retryAt) {
      this.partitions.delete(name);
      p = undefined;
    }
    if (!p) {
      const created: Partition = { state: 'opening', keys: new Set(), held: [], dirty: false, version: 0 };
      this.partitions.set(name, created);
      created.opening = openPartition(this.host, name, created)
        .catch((error: unknown) => this.failed(name, created, error))
        .finally(() => {
          created.opening = undefined;
        });
      p = created;
    }
    return p;
  }

  /** Whether a partition was dropped, failed or replaced while this thread awaited something. */
  private stale(name: string, p: Partition): boolean {
    return this.closed || p.state === 'failed' || this.partitions.get(name) !== p;
  }

  private failed(name: string, p: Partition, error: unknown): void {
    if (p.state === 'failed') return;
    p.state = 'failed';
    p.held = [];
    p.retryAt = Date.now() + (this.options.retryMs ?? 60_000);
    if (this.worker?.alive) this.worker.send({ kind: 'drop', partition: this.prefix + name });
    this.options.onEvent?.({
      kind: 'failed',
      partition: name,
      message: error instanceof Error ? error.message : String(error),
    });
  }

  private apply(name: string, op: Op): void {
    if (this.closed) return;
    const p = this.partition(name);
    if (p.state === 'opening') p.held.push(op);
    // A failed partition is read again from the stored vectors at its next attempt.
    else if (p.state !== 'failed') this.send(name, p, op);
  }

  /** Sends a change to the worker, after the partition's graph (or its build) was sent. */
  private send(name: string, p: Partition, op: Op): void {
    const worker = this.worker;
    if (!worker) return;
    this.changed(name, p);
    const keys = Float64Array.from(op.keys);
    if (op.kind === 'remove') {
      for (const k of op.keys) p.keys.delete(k);
      worker.send({ kind: 'remove', partition: this.prefix + name, keys }, [keys.buffer]);
    } else {
      for (const k of op.keys) p.keys.add(k);
      const vectors = movable(op.vectors);
      worker.send({ kind: 'set', partition: this.prefix + name, keys, vectors }, [
        keys.buffer,
        vectors.buffer as ArrayBuffer,
      ]);
    }
  }

  private changed(name: string, p: Partition): void {
    if (!p.dirty) {
      p.dirty = true;
      // The file no longer matches the graph: without its stamp it is rebuilt if we stop before saving.
      if (this.options.dir) removeFile(partitionFiles(this.options.dir, name).meta);
    }
    p.version++;
    this.scheduleSave();
  }

  private releaseHeld(name: string, p: Partition): void {
    const held = p.held;
    p.held = [];
    for (const op of held) this.send(name, p, op);
  }

  private scheduleSave(): void {
    if (!this.options.dir || this.saveTimer || this.closed) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.flush().catch(() => {});
    }, this.options.saveDelayMs ?? 30_000);
    this.saveTimer.unref();
  }
}
