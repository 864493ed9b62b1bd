import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { JobQueueDepth as JobKindDepth } from '../jobs/queue.js';

/** Connections of the database pool (PostgreSQL). */
export interface PoolUse {
  /** Open connections, idle or lent out. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

/** What the gauges read when Prometheus scrapes. */
export interface MetricSources {
  /** The job queue's depth by kind; `kinds` are reported (at 0) even without jobs. */
  jobs?: { read: () => Promise<JobKindDepth[]>; kinds: readonly string[]; clock: () => Date };
  /** Open live chat streams of this process. */
  streams?: () => number;
  /** The database pool's use (undefined: no pool, e.g. SQLite's one connection). */
  pool?: () => PoolUse;
  /** Where a gauge that could not be read is reported. */
  onError?: (error: unknown, what: string) => void;
}

/** Seconds: HTTP requests (streams excepted, which last as long as they are open). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds: one embedder call (a query, or a batch of passages). */
const EMBEDDING_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds: one attempt of indexing a file. */
const INDEXING_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/**
 * The metrics of one app, in a registry of its own (several apps in one process never collide): counters
 * and histograms the app's hooks and decorators move, gauges read at scrape time, and the process metrics.
 */
export class AppMetrics {
  /** Everything `/metrics` answers. */
  readonly registry = new Registry();
  private readonly requests: Counter<'operation' | 'status'>;
  private readonly requestSeconds: Histogram<'operation' | 'status'>;
  private readonly requestSeries = new Map<
    string,
    { count: { inc(): void }; time: { observe(seconds: number): void } }
  >();
  private readonly embeddingSeconds: Histogram<'model' | 'outcome'>;
  private readonly embeddedTexts: Counter<'model'>;
  private readonly indexedPassages: Counter;
  private readonly indexingSeconds: Histogram<'outcome'>;
  private readonly indexingFailures: Counter<'reason'>;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const counter = <L extends string>(name: string, help: string, labelNames: L[] = []) =>
      new Counter<L>({ name, help, labelNames, registers });
    const histogram = <L extends string>(name: string, help: string, labelNames: L[], buckets: number[]) =>
      new Histogram<L>({ name, help, labelNames, buckets, registers });
    this.requests = counter(
      'parley_http_requests_total',
      'HTTP requests answered, by operation id (route pattern when it has none; unmatched: no route) and status',
      ['operation', 'status'],
    );
    this.requestSeconds = histogram(
      'parley_http_request_duration_seconds',
      'Time from a request arriving to its answer sent, by operation id and status',
      ['operation', 'status'],
      REQUEST_BUCKETS,
    );
    this.embeddingSeconds = histogram(
      'parley_embedding_duration_seconds',
      'Duration of one embedder call (a search query, or a batch of passages being indexed), by model and outcome (ok, error)',
      ['model', 'outcome'],
      EMBEDDING_BUCKETS,
    );
    this.embeddedTexts = counter(
      'parley_embedding_texts_total',
      'Texts embedded (queries and passages), by model',
      ['model'],
    );
    this.indexedPassages = counter(
      'parley_indexing_passages_total',
      'Passages of files that ended indexing_completed (rate() gives passages indexed per second)',
    );
    this.indexingSeconds = histogram(
      'parley_indexing_duration_seconds',
      'Duration of one attempt of an index_file job (read, extract, chunk, embed, store), by outcome (ok, error)',
      ['outcome'],
      INDEXING_BUCKETS,
    );
    this.indexingFailures = counter(
      'parley_indexing_failures_total',
      'Files that ended indexing_failed, by reason code (too_large, timeout, unsupported_format, error…)',
      ['reason'],
    );
  }

  /** One request answered: `operation` its operation id, `seconds` from arrival to the answer sent. */
  request(operation: string, status: number, seconds: number): void {
    const key = `${operation} ${status}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      // The series of an operation and status, bound once (prom-client then skips hashing the labels).
      const labels = { operation, status: String(status) };
      series = { count: this.requests.labels(labels), time: this.requestSeconds.labels(labels) };
      this.requestSeries.set(key, series);
    }
    series.count.inc();
    series.time.observe(seconds);
  }

  /** One embedder call of `texts` texts that took `seconds`. */
  embedding(model: string, texts: number, seconds: number, ok: boolean): void {
    this.embeddingSeconds.observe({ model, outcome: ok ? 'ok' : 'error' }, seconds);
    if (ok) this.embeddedTexts.inc({ model }, texts);
  }

  /** One indexing attempt that took `seconds`. */
  indexingAttempt(seconds: number, ok: boolean): void {
    this.indexingSeconds.observe({ outcome: ok ? 'ok' : 'error' }, seconds);
  }

  /** A file ended indexing_completed with `passages` passages. */
  indexed(passages: number): void {
    this.indexedPassages.inc(passages);
  }

  /** A file ended indexing_failed with `reason` (`<code>: <message>`): counted by its code. */
  indexingFailed(reason: string): void {
    const code = /^([a-z][a-z0-9_]{0,47}):/.exec(reason)?.[1] ?? 'other';
    this.indexingFailures.inc({ reason: code });
  }

  /** Adds the gauges read at scrape time: job queue, live streams, database pool. */
  watch(sources: MetricSources): void {
    const registers = [this.registry];
    const report = sources.onError ?? (() => undefined);
    const { jobs, streams, pool } = sources;
    if (streams) {
      new Gauge({
        name: 'parley_chat_streams_open',
        help: 'Live chat streams (SSE) open in this process',
        registers,
        collect() {
          this.set(streams());
        },
      });
    }
    if (pool) {
      const gauge = (name: string, help: string, read: (use: PoolUse) => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(read(pool()));
          },
        });
      gauge(
        'parley_db_pool_connections',
        'Open connections of the database pool (idle or in use)',
        (u) => u.total,
      );
      gauge('parley_db_pool_idle_connections', 'Idle connections of the database pool', (u) => u.idle);
      gauge(
        'parley_db_pool_waiting_requests',
        'Queries waiting for a connection of the database pool',
        (u) => u.waiting,
      );
    }
    // Gauges are collected in the order they were added: the pool is read before the scrape's own query.
    if (jobs) this.watchJobs(jobs, report);
  }

  /** Queue depth and oldest wait by kind, from one query per scrape (both gauges share it). */
  private watchJobs(
    jobs: NonNullable<MetricSources['jobs']>,
    report: (error: unknown, what: string) => void,
  ) {
    const registers = [this.registry];
    let reading: Promise<JobKindDepth[] | undefined> | undefined;
    // The gauges of one scrape are collected together: they share one read, the next scrape reads again.
    const read = () => {
      reading ??= jobs
        .read()
        .catch((error: unknown) => {
          report(error, 'job queue depth');
          return undefined;
        })
        .finally(() => {
          reading = undefined;
        });
      return reading;
    };
    const byKind = (rows: JobKindDepth[]) => {
      const all = new Map<string, JobKindDepth>(
        jobs.kinds.map((kind) => [kind, { kind, queued: 0, running: 0, oldestQueuedAt: null }]),
      );
      for (const row of rows) all.set(row.kind, row);
      return [...all.values()];
    };
    new Gauge({
      name: 'parley_job_queue_depth',
      help: 'Jobs not yet ended, by kind and state (queued: waiting for a worker or for their retry time; running)',
      labelNames: ['kind', 'state'],
      registers,
      async collect() {
        const rows = await read();
        this.reset();
        if (!rows) return;
        for (const row of byKind(rows)) {
          this.set({ kind: row.kind, state: 'queued' }, row.queued);
          this.set({ kind: row.kind, state: 'running' }, row.running);
        }
      },
    });
    new Gauge({
      name: 'parley_job_queue_oldest_age_seconds',
      help: 'How long the longest-waiting queued job of a kind has been due to run (0: none is due)',
      labelNames: ['kind'],
      registers,
      async collect() {
        const rows = await read();
        this.reset();
        if (!rows) return;
        const now = jobs.clock().getTime();
        for (const row of byKind(rows)) {
          const due = row.oldestQueuedAt === null ? now : Date.parse(row.oldestQueuedAt);
          this.set({ kind: row.kind }, Math.max(0, (now - due) / 1000));
        }
      },
    });
  }
}
