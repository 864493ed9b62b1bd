/**
 * The HNSW graphs as the worker thread of the vector index keeps them (hnsw-worker.ts runs this; the main
 * thread talks to it through hnsw-worker-client.ts). Requests are handled in the order they come: a
 * change is applied at once to what searches see — removed keys leave the graph and the queue, new
 * vectors join a queue that searches score exactly — and queued vectors go into the graph a chunk at a
 * time between messages, so a search waits for one chunk at most, never for a whole file.
 */
import { chmodSync, renameSync } from 'node:fs';
import type { Index } from 'usearch';
import { type HnswParameters, newUsearchIndex } from './hnsw-usearch.js';

/** What the main thread asks (`id`: a reply is awaited). Keys are passage seqs. */
export type HnswRequest =
  | { kind: 'set'; partition: string; keys: Float64Array; vectors: Float32Array }
  | { kind: 'remove'; partition: string; keys: Float64Array }
  /** Forgets a partition, or every partition whose name starts with `prefix`. */
  | { kind: 'drop'; partition?: string; prefix?: string }
  /** A new graph of these vectors (replacing any); answered once they are all in it. */
  | {
      kind: 'build';
      id: number;
      partition: string;
      parameters: HnswParameters;
      threads: number;
      keys: Float64Array;
      vectors: Float32Array;
    }
  /** The graph saved at `path` (replacing any); answers its size. */
  | { kind: 'load'; id: number; partition: string; parameters: HnswParameters; threads: number; path: string }
  /** The `k` nearest keys to the unit vector `q` ({keys, distances}, nearest first). */
  | { kind: 'search'; id: number; partition: string; q: Float32Array; k: number }
  /** Saves the graph (every change received so far inserted) to `path` (mode 0600); answers its size. */
  | { kind: 'save'; id: number; partition: string; path: string }
  /** How many vectors of the partition wait for insertion. */
  | { kind: 'queued'; id: number; partition: string }
  /** Answers once every change received so far is in its graph. */
  | { kind: 'drain'; id: number };

/**
 * Ends the worker between two messages, never inside a usearch call (a `Worker.terminate()` landing while
 * usearch runs makes its binding throw a C++ exception the teardown cannot take: the whole process aborts).
 * Code 0: its graphs are dropped and its port closed, so it exits once idle; another code: it exits at once
 * with that code, as a crash would (tests).
 */
export interface HnswStop {
  kind: 'stop';
  code: number;
}

/** Partitions up to this size are searched with the graph's own breadth (its expansionSearch, 112). */
export const WIDE_SEARCH_FROM = 200_000;

/**
 * Candidates a search of `k` asks the graph for: `k` (the graph keeps max(k, expansionSearch) candidates)
 * up to WIDE_SEARCH_FROM vectors, then more as the graph grows (128 per 200k, at most 1,024): HNSW recall
 * falls with size at a fixed breadth (at 1M clustered vectors, recall@10 0.63 at 128 candidates, 0.88 at
 * 512 for ~1.6 ms; docs/benchmarks/indexing-speed.md "1M passages"), and usearch fixes the breadth when a graph is made.
 */
export function searchBreadth(size: number, k: number): number {
  if (size <= WIDE_SEARCH_FROM) return k;
  return Math.max(k, Math.min(1024, Math.round((128 * size) / WIDE_SEARCH_FROM)));
}

/** What the worker answers; `failed`: a partition's graph was lost (an insertion failed). */
export type HnswReply =
  | { kind: 'reply'; id: number; ok: true; value: unknown }
  | { kind: 'reply'; id: number; ok: false; message: string }
  | { kind: 'failed'; partition: string; message: string };

/** Vectors inserted by one call: a search waits at most this long (a few hundred ms at worst). */
export const INSERT_CHUNK = 256;

interface Graph {
  index: Index;
  dimensions: number;
  /**
   * Threads of every insertion into this graph. usearch sizes a graph's per-thread contexts when it grows
   * its capacity, for the thread count of the insertion that grew it; a later insertion on more threads
   * than that fails ("Reserve capacity ahead of insertions!"), so all insertions use this one count.
   */
  threads: number;
  /** Vectors not in the graph yet, in the order they came (`seq`: when). */
  queued: Map<number, { seq: number; vector: Float32Array }>;
}

interface Waiter {
  /** Waits for this partition's queue, or every queue. */
  partition?: string;
  /** Done once no queued vector came at or before this. */
  seq: number;
  done: () => void;
  fail: (message: string) => void;
}

const bigKeys = (keys: ArrayLike<number>) => BigUint64Array.from(Array.from(keys), (k) => BigInt(k));
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The worker's graphs; `post` sends replies to the main thread. */
export class Graphs {
  private readonly graphs = new Map<string, Graph>();
  private readonly waiters: Waiter[] = [];
  private seq = 0;
  private pumping = false;

  constructor(private readonly post: (reply: HnswReply) => void) {}

  handle(request: HnswRequest): void {
    try {
      this.apply(request);
    } catch (error) {
      if ('id' in request) this.post({ kind: 'reply', id: request.id, ok: false, message: messageOf(error) });
      else if ('partition' in request && request.partition !== undefined && request.kind !== 'drop')
        this.fail(request.partition, error);
    }
  }

  private apply(r: HnswRequest): void {
    switch (r.kind) {
      case 'set': {
        const g = this.graphs.get(r.partition);
        if (g) this.enqueue(g, r.keys, r.vectors);
        return;
      }
      case 'remove': {
        const g = this.graphs.get(r.partition);
        if (!g) return;
        this.unset(g, r.keys);
        // Queued vectors removed before their insertion: whoever waited for them (a build) is answered now,
        // not at the next insertion or save.
        this.settleWaiters();
        return;
      }
      case 'drop':
        for (const name of [...this.graphs.keys()])
          if (name === r.partition || (r.prefix !== undefined && name.startsWith(r.prefix)))
            this.forget(name);
        return;
      case 'build': {
        this.forget(r.partition);
        const g = this.create(r.partition, r.parameters, r.threads);
        this.enqueue(g, r.keys, r.vectors);
        this.wait({ partition: r.partition, id: r.id, value: () => r.keys.length });
        return;
      }
      case 'load': {
        this.forget(r.partition);
        const g = this.create(r.partition, r.parameters, r.threads);
        g.index.load(r.path);
        this.reply(r.id, Number(g.index.size()));
        return;
      }
      case 'search':
        this.reply(r.id, this.search(this.graph(r.partition), r.q, r.k));
        return;
      case 'save':
        this.wait({ partition: r.partition, id: r.id, value: () => this.save(r.partition, r.path) });
        return;
      case 'queued':
        this.reply(r.id, this.graph(r.partition).queued.size);
        return;
      case 'drain':
        this.wait({ id: r.id, value: () => true });
        return;
    }
  }

  private reply(id: number, value: unknown): void {
    this.post({ kind: 'reply', id, ok: true, value });
  }

  private graph(name: string): Graph {
    const g = this.graphs.get(name);
    if (!g) throw new Error(`no HNSW graph of partition ${name}`);
    return g;
  }

  private create(name: string, parameters: HnswParameters, threads: number): Graph {
    const g: Graph = {
      index: newUsearchIndex(parameters),
      dimensions: parameters.dimensions,
      threads,
      queued: new Map(),
    };
    this.graphs.set(name, g);
    return g;
  }

  /** Forgets a graph; whoever waits for it hears that it is gone. */
  private forget(name: string, message = 'dropped'): void {
    if (!this.graphs.delete(name)) return;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const w = this.waiters[i] as Waiter;
      if (w.partition === name) {
        this.waiters.splice(i, 1);
        w.fail(message);
      }
    }
  }

  private fail(name: string, error: unknown): void {
    const message = messageOf(error);
    this.forget(name, message);
    this.post({ kind: 'failed', partition: name, message });
  }

  /** Removes keys from the graph and the queue. */
  private unset(g: Graph, keys: Float64Array): void {
    if (g.queued.size > 0) for (const k of keys) g.queued.delete(k);
    if (Number(g.index.size()) > 0) g.index.remove(bigKeys(keys));
  }

  private enqueue(g: Graph, keys: Float64Array, vectors: Float32Array): void {
    this.unset(g, keys);
    const d = g.dimensions;
    if (vectors.length !== keys.length * d)
      throw new Error(`expected ${keys.length} vectors of ${d} components`);
    for (let i = 0; i < keys.length; i++)
      g.queued.set(keys[i] as number, { seq: ++this.seq, vector: vectors.subarray(i * d, (i + 1) * d) });
    this.schedule();
  }

  /** Answers request `id` with `value()` once the queue (of `partition`, or all) holds nothing older. */
  private wait(w: { partition?: string; id: number; value: () => unknown }): void {
    const waiter: Waiter = {
      seq: this.seq,
      done: () => {
        try {
          this.reply(w.id, w.value());
        } catch (error) {
          this.post({ kind: 'reply', id: w.id, ok: false, message: messageOf(error) });
        }
      },
      fail: (message) => this.post({ kind: 'reply', id: w.id, ok: false, message }),
    };
    if (w.partition !== undefined) {
      if (!this.graphs.has(w.partition)) {
        waiter.fail(`no HNSW graph of partition ${w.partition}`);
        return;
      }
      waiter.partition = w.partition;
    }
    this.waiters.push(waiter);
    this.settleWaiters();
  }

  private drained(w: Waiter): boolean {
    const graphs = w.partition === undefined ? [...this.graphs.values()] : [this.graphs.get(w.partition)];
    for (const g of graphs) {
      const first = g?.queued.values().next().value;
      if (first && first.seq <= w.seq) return false;
    }
    return true;
  }

  private settleWaiters(): void {
    for (let i = 0; i < this.waiters.length; ) {
      const w = this.waiters[i] as Waiter;
      if (this.drained(w)) {
        this.waiters.splice(i, 1);
        w.done();
      } else i++;
    }
  }

  private schedule(): void {
    if (this.pumping) return;
    this.pumping = true;
    setImmediate(() => this.pump());
  }

  /** Inserts one chunk of the queue of the graph that waited longest, then lets messages in. */
  private pump(): void {
    this.pumping = false;
    let oldest: [string, Graph] | undefined;
    let oldestSeq = Number.POSITIVE_INFINITY;
    for (const [name, g] of this.graphs) {
      const first = g.queued.values().next().value;
      if (first && first.seq < oldestSeq) {
        oldest = [name, g];
        oldestSeq = first.seq;
      }
    }
    if (!oldest) {
      this.settleWaiters();
      return;
    }
    const [name, g] = oldest;
    try {
      this.insertChunk(g);
    } catch (error) {
      this.fail(name, error);
    }
    this.settleWaiters();
    if ([...this.graphs.values()].some((other) => other.queued.size > 0)) this.schedule();
  }

  private insertChunk(g: Graph): void {
    const n = Math.min(INSERT_CHUNK, g.queued.size);
    const keys = new BigUint64Array(n);
    const vectors = new Float32Array(n * g.dimensions);
    let i = 0;
    for (const [key, { vector }] of g.queued) {
      if (i === n) break;
      keys[i] = BigInt(key);
      vectors.set(vector, i * g.dimensions);
      i++;
    }
    g.index.add(keys, vectors, g.threads);
    for (const key of keys) g.queued.delete(Number(key));
  }

  /** The graph's nearest merged with the queued vectors' (scored exactly: 1 − cosine of unit vectors). */
  private search(g: Graph, q: Float32Array, k: number): { keys: number[]; distances: number[] } {
    const hits: { key: number; distance: number }[] = [];
    const size = Number(g.index.size());
    if (size > 0) {
      const found = g.index.search(q, searchBreadth(size, k), 1);
      for (let i = 0; i < found.keys.length; i++)
        hits.push({ key: Number(found.keys[i]), distance: found.distances[i] as number });
    }
    const d = g.dimensions;
    for (const [key, { vector }] of g.queued) {
      let dot = 0;
      for (let j = 0; j < d; j++) dot += (q[j] as number) * (vector[j] as number);
      hits.push({ key, distance: 1 - dot });
    }
    if (g.queued.size > 0) hits.sort((a, b) => a.distance - b.distance);
    // (usearch answers nearest first; a wider search's extra candidates are cut below.)
    const top = hits.slice(0, k);
    return { keys: top.map((h) => h.key), distances: top.map((h) => h.distance) };
  }

  /** Writes the graph to `path` (through a temporary file, mode 0600); answers its size. */
  private save(name: string, path: string): number {
    const g = this.graph(name);
    const tmp = `${path}.tmp`;
    g.index.save(tmp);
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
    return Number(g.index.size());
  }
}
