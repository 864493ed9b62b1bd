import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Index } from 'usearch';
import { siblingModule, spawnWorker } from '../embed/spawn-worker.js';
import type { HnswBuildRequest } from './hnsw-build-worker.js';
import { DEFAULT_HNSW_PARAMETERS, type HnswParameters, newUsearchIndex } from './hnsw-usearch.js';

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
  /** Threads of a build (default: every core). */
  buildThreads?: number;
  /** A partition of at most this many vectors is built at once on the calling thread; larger ones in a worker. */
  inlineBuildMax?: number;
  /** A changed partition is saved this long after its first change (default 30 s). */
  saveDelayMs?: number;
  onEvent?: (event: HnswEvent) => void;
}

/** A change to a partition, applied in the order the database committed it. */
type Op = { kind: 'remove'; keys: number[] } | { kind: 'set'; keys: number[]; vectors: Float32Array };

interface Partition {
  /** Set once loaded or built; searches before that fall back to the exact scan. */
  index?: Index | undefined;
  /** The keys in `index`. */
  keys: Set<number>;
  /** Changes that arrived while the partition was opening or building, replayed once it is ready. */
  pending: Op[];
  /** Resolves when the partition is ready, or is building in the background. */
  opening?: Promise<void> | undefined;
  /** Resolves when a build in a worker is done (and loaded, or failed). */
  building?: Promise<void> | undefined;
  /** Changed since it was last saved. */
  dirty: boolean;
  /** Bumped by every change, so a save knows whether its snapshot still holds. */
  version: number;
  /** After a failure, no new attempt before this time (ms since the epoch). */
  retryAt?: number | undefined;
}

/** What is stored beside a partition's index file: a file whose stamp is not the database's is rebuilt. */
interface PartitionMeta {
  format: 1;
  modelId: string;
  parameters: HnswParameters;
  /** Count, largest and sum of the keys of the stored vectors the file holds. */
  stamp: { count: number; maxKey: number; keySum: number };
}

const FORMAT = 1;
const READ_BATCH = 5000;
const RETRY_MS = 60_000;

const stampOf = (keys: number[]) => ({
  count: keys.length,
  maxKey: keys.length === 0 ? 0 : Math.max(...keys.slice(-1)),
  keySum: keys.reduce((s, k) => s + k, 0),
});

const toBigKeys = (keys: number[]) => BigUint64Array.from(keys, (k) => BigInt(k));

/**
 * Approximate nearest-neighbour search (HNSW, usearch, cosine) over stored vectors, one graph per partition
 * (a bot). Kept beside the stored vectors, which stay the source of truth: a partition is loaded from its
 * file when the file's stamp (count, largest and sum of the keys) matches the stored vectors, else rebuilt
 * from them — small partitions at once, large ones in a worker thread while searches fall back to the
 * exact scan (`nearest` answers undefined). Changes are applied as the database commits them, and a
 * changed partition is saved a while later (its stamp file is removed at its first change, so a crash
 * before the save leads to a rebuild, never to a stale graph). Saving also drops the keys whose vectors
 * went without a word (a cascade from a deleted file or bot) and adds any that are missing.
 */
export class HnswVectorIndex {
  private readonly partitions = new Map<string, Partition>();
  private readonly parameters: HnswParameters;
  private saveTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /**
   * Threads of every insertion. usearch sizes a graph's per-thread contexts when it grows its capacity,
   * for the thread count of the insertion that grew it; a later insertion on more threads than that fails
   * ("Reserve capacity ahead of insertions!"), so all insertions into a graph use this one count.
   */
  private readonly threads: number;

  constructor(private readonly options: HnswVectorIndexOptions) {
    this.parameters = { ...DEFAULT_HNSW_PARAMETERS, ...options.parameters, dimensions: options.dimensions };
    this.threads = Math.max(
      1,
      Math.min(options.buildThreads ?? availableParallelism(), availableParallelism()),
    );
    if (options.dir) mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  }

  /**
   * The `k` nearest stored vectors of a partition to the unit vector `q` ({key, cosine distance}, nearest
   * first); undefined while the partition is building (or failed to): search exactly instead.
   */
  async nearest(
    partition: string,
    q: Float32Array,
    k: number,
  ): Promise<{ key: number; distance: number }[] | undefined> {
    const p = this.partition(partition);
    if (p.opening) await p.opening;
    const index = p.index;
    if (!index) return undefined;
    if (p.keys.size === 0) return [];
    const found = index.search(q, k, 1);
    const out: { key: number; distance: number }[] = [];
    for (let i = 0; i < found.keys.length; i++)
      out.push({ key: Number(found.keys[i]), distance: found.distances[i] as number });
    return out;
  }

  /** Records that a partition's vectors of `keys` were replaced by `vectors` (unit, keys.length × dimensions). */
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
    return p.index !== undefined;
  }

  /** Waits until every partition opening or building now is ready (or failed). */
  async settle(): Promise<void> {
    for (;;) {
      const opening = [...this.partitions.values()].flatMap((p) => (p.opening ? [p.opening] : []));
      const building = [...this.partitions.values()].flatMap((p) => (p.building ? [p.building] : []));
      if (opening.length + building.length === 0) return;
      await Promise.all([...opening, ...building]);
    }
  }

  /** Saves every changed partition now. */
  async flush(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    for (const [name, p] of this.partitions) if (p.dirty && p.index) await this.save(name, p);
  }

  /** Stops saving; the files stay (a partition changed since its last save is rebuilt next time). */
  close(): void {
    this.closed = true;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
  }

  /** Forgets every partition and deletes their files (the model changed). */
  drop(): void {
    this.close();
    this.partitions.clear();
    if (this.options.dir) rmSync(this.options.dir, { recursive: true, force: true });
  }

  /** Keys of the partition's graph (for tests and checks). */
  size(partition: string): number | undefined {
    const p = this.partitions.get(partition);
    return p?.index ? p.keys.size : undefined;
  }

  private partition(name: string): Partition {
    let p = this.partitions.get(name) as Partition | undefined;
    if (p?.retryAt !== undefined && Date.now() >= p.retryAt) {
      this.partitions.delete(name);
      p = undefined;
    }
    if (!p) {
      const created: Partition = {
        keys: new Set(),
        pending: [],
        dirty: false,
        version: 0,
      };
      this.partitions.set(name, created);
      created.opening = this.open(name, created)
        .catch((error: unknown) => this.failed(name, created, error))
        .finally(() => {
          created.opening = undefined;
        });
      p = created;
    }
    return p;
  }

  private failed(name: string, p: Partition, error: unknown): void {
    p.index = undefined;
    p.retryAt = Date.now() + RETRY_MS;
    this.options.onEvent?.({
      kind: 'failed',
      partition: name,
      message: error instanceof Error ? error.message : String(error),
    });
  }

  private apply(name: string, op: Op): void {
    if (this.closed) return;
    const p = this.partition(name);
    if (!p.index) {
      p.pending.push(op);
      return;
    }
    this.applyTo(name, p, op);
  }

  private applyTo(name: string, p: Partition, op: Op): void {
    const index = p.index as Index;
    if (!p.dirty) {
      p.dirty = true;
      // The file no longer matches the graph: without its stamp it is rebuilt if we stop before saving.
      if (this.options.dir) unlinkSync_(this.metaPath(name));
    }
    p.version++;
    const present = op.keys.filter((k) => p.keys.has(k));
    if (present.length > 0) {
      index.remove(toBigKeys(present));
      for (const k of present) p.keys.delete(k);
    }
    if (op.kind === 'set') {
      index.add(toBigKeys(op.keys), op.vectors, this.threads);
      for (const k of op.keys) p.keys.add(k);
    }
    this.scheduleSave();
  }

  private scheduleSave(): void {
    if (!this.options.dir || this.saveTimer || this.closed) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.flush().catch(() => {});
    }, this.options.saveDelayMs ?? 30_000);
    this.saveTimer.unref();
  }

  private fileBase(name: string): string {
    const safe = /^[A-Za-z0-9_-]{1,80}$/.test(name)
      ? name
      : createHash('sha256').update(name).digest('hex').slice(0, 40);
    return join(this.options.dir as string, safe);
  }
  private indexPath(name: string): string {
    return `${this.fileBase(name)}.usearch`;
  }
  private metaPath(name: string): string {
    return `${this.fileBase(name)}.json`;
  }

  private readMeta(name: string): PartitionMeta | undefined {
    try {
      return JSON.parse(readFileSync(this.metaPath(name), 'utf8')) as PartitionMeta;
    } catch {
      return undefined;
    }
  }

  private metaMatches(meta: PartitionMeta | undefined, keys: number[]): boolean {
    if (!meta || meta.format !== FORMAT || meta.modelId !== this.options.modelId) return false;
    const p = this.parameters;
    const m = meta.parameters;
    if (
      m.dimensions !== p.dimensions ||
      m.connectivity !== p.connectivity ||
      m.expansionAdd !== p.expansionAdd ||
      m.expansionSearch !== p.expansionSearch
    )
      return false;
    const s = stampOf(keys);
    return meta.stamp.count === s.count && meta.stamp.maxKey === s.maxKey && meta.stamp.keySum === s.keySum;
  }

  /** Loads the partition's file when it matches the stored vectors, else rebuilds it. */
  private async open(name: string, p: Partition): Promise<void> {
    const started = performance.now();
    const keys = await this.options.source.keys(name);
    if (this.options.dir && this.metaMatches(this.readMeta(name), keys)) {
      const index = newUsearchIndex(this.parameters);
      try {
        index.load(this.indexPath(name));
      } catch {
        return this.rebuild(name, p, started);
      }
      if (Number(index.size()) === keys.length) {
        this.makeReady(name, p, index, keys, false);
        this.options.onEvent?.({
          kind: 'loaded',
          partition: name,
          size: keys.length,
          ms: performance.now() - started,
        });
        return;
      }
    }
    return this.rebuild(name, p, started);
  }

  private async readAll(name: string): Promise<{ keys: number[]; vectors: Float32Array }> {
    const d = this.parameters.dimensions;
    const keys: number[] = [];
    const chunks: Float32Array[] = [];
    let after = -1;
    for (;;) {
      const rows = await this.options.source.read(name, after, READ_BATCH);
      for (const r of rows) {
        keys.push(r.key);
        chunks.push(r.vector);
      }
      const last = rows[rows.length - 1];
      if (!last || rows.length < READ_BATCH) break;
      after = last.key;
    }
    const vectors = new Float32Array(keys.length * d);
    for (const [i, v] of chunks.entries()) vectors.set(v, i * d);
    return { keys, vectors };
  }

  private async rebuild(name: string, p: Partition, started: number): Promise<void> {
    // Changes from now on are replayed onto the snapshot: applied in order, they end where the database is.
    const { keys, vectors } = await this.readAll(name);
    const threads = this.threads;
    if (keys.length <= (this.options.inlineBuildMax ?? 2000) || !this.options.dir) {
      const index = newUsearchIndex(this.parameters);
      if (keys.length > 0) index.add(toBigKeys(keys), vectors, threads);
      this.makeReady(name, p, index, keys, true);
      this.options.onEvent?.({
        kind: 'built',
        partition: name,
        size: keys.length,
        ms: performance.now() - started,
      });
      return;
    }
    // A large partition: built and saved by a worker; searches scan exactly until it is loaded here.
    p.building = this.buildInWorker(name, keys, vectors, threads)
      .then(async () => {
        const index = newUsearchIndex(this.parameters);
        index.load(this.indexPath(name));
        this.makeReady(name, p, index, keys, true);
        this.options.onEvent?.({
          kind: 'built',
          partition: name,
          size: keys.length,
          ms: performance.now() - started,
        });
      })
      .catch((error: unknown) => this.failed(name, p, error))
      .finally(() => {
        p.building = undefined;
      });
  }

  private buildInWorker(name: string, keys: number[], vectors: Float32Array, threads: number): Promise<void> {
    const request: HnswBuildRequest = {
      parameters: this.parameters,
      keys: toBigKeys(keys),
      vectors,
      path: this.indexPath(name),
      threads,
    };
    return new Promise((resolve, reject) => {
      const worker = spawnWorker(siblingModule(import.meta.url, 'hnsw-build-worker'), {
        workerData: request,
        transferList: [request.keys.buffer as ArrayBuffer, request.vectors.buffer as ArrayBuffer],
      });
      worker.once('message', (m: { ok: boolean; message?: string }) => {
        void worker.terminate();
        if (m.ok) resolve();
        else reject(new Error(`HNSW build failed: ${m.message}`));
      });
      worker.once('error', reject);
      worker.once('exit', (code) => {
        if (code !== 0) reject(new Error(`HNSW build worker exited with code ${code}`));
      });
    });
  }

  /** Makes a partition searchable and replays the changes that came meanwhile. */
  private makeReady(name: string, p: Partition, index: Index, keys: number[], dirty: boolean): void {
    if (this.partitions.get(name) !== p) return; // dropped meanwhile
    p.index = index;
    p.keys = new Set(keys);
    p.retryAt = undefined;
    if (dirty) {
      p.dirty = true;
      this.scheduleSave();
    }
    const pending = p.pending;
    p.pending = [];
    for (const op of pending) this.applyTo(name, p, op);
  }

  /**
   * Saves a partition, its graph first reconciled with the stored vectors (keys gone without a word
   * removed, missing ones added), then stamped with them.
   */
  private async save(name: string, p: Partition): Promise<void> {
    const started = performance.now();
    const version = p.version;
    const stored = await this.options.source.keys(name);
    const storedSet = new Set(stored);
    const gone = [...p.keys].filter((k) => !storedSet.has(k));
    const missing = stored.filter((k) => !p.keys.has(k));
    const added = missing.length > 0 ? await this.options.source.vectors(name, missing) : [];
    const index = p.index;
    if (!index || p.version !== version || this.partitions.get(name) !== p) {
      this.scheduleSave(); // changed meanwhile: next time
      return;
    }
    if (gone.length > 0) {
      index.remove(toBigKeys(gone));
      for (const k of gone) p.keys.delete(k);
    }
    if (added.length > 0) {
      const d = this.parameters.dimensions;
      const vectors = new Float32Array(added.length * d);
      for (const [i, r] of added.entries()) vectors.set(r.vector, i * d);
      index.add(toBigKeys(added.map((r) => r.key)), vectors, this.threads);
      for (const r of added) p.keys.add(r.key);
    }
    const path = this.indexPath(name);
    const tmp = `${path}.tmp`;
    index.save(tmp);
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
    const keys = [...p.keys].sort((a, b) => a - b);
    const meta: PartitionMeta = {
      format: FORMAT,
      modelId: this.options.modelId,
      parameters: this.parameters,
      stamp: stampOf(keys),
    };
    const metaTmp = `${this.metaPath(name)}.tmp`;
    writeFileSync(metaTmp, JSON.stringify(meta), { mode: 0o600 });
    renameSync(metaTmp, this.metaPath(name));
    p.dirty = false;
    this.options.onEvent?.({
      kind: 'saved',
      partition: name,
      size: keys.length,
      ms: performance.now() - started,
    });
  }
}

function unlinkSync_(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
