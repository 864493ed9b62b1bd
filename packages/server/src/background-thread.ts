import type { Worker } from 'node:worker_threads';
import {
  applyMetric,
  type BackgroundThreadData,
  type MainMessage,
  type ThreadMessage,
} from './background-thread-protocol.js';
import type { Config } from './config/config.js';
import type { Db, OpenDatabaseOptions } from './db/database.js';
import { type JobQueue, jobQueueDepth } from './jobs/queue.js';
import type { Logger } from './logger.js';
import type { IndexingMetrics } from './metrics/instrument.js';
import { INDEX_FILE_JOB } from './modules/files/contract.js';
import { CRAWL_WEBSITE_JOB } from './modules/knowledge/websites/jobs.js';
import { applyGraphChange } from './search/index/index.js';
import { siblingModule, spawnWorker } from './workers/spawn.js';

/** The kinds of jobs the background thread runs. */
export const BACKGROUND_THREAD_JOBS: readonly string[] = [INDEX_FILE_JOB, CRAWL_WEBSITE_JOB];

/** How long a stopping background thread may take to give its jobs back before it is ended. */
export const BACKGROUND_THREAD_STOP_MS = 10_000;

/** What the background thread is started from. */
export interface BackgroundThreadDeps {
  config: Config;
  version: string;
  /** The requests side's database: it owns the HNSW graphs, and its enqueued jobs are told to the thread. */
  db: Db;
  /** How `db` was opened (a file or PostgreSQL, never `:memory:`): the thread opens its own connection so. */
  database: OpenDatabaseOptions;
  jobs: JobQueue;
  /** The foreground count the requests side keeps (jobs/foreground.ts). */
  foreground: SharedArrayBuffer;
  metrics: IndexingMetrics | undefined;
  log: Logger;
  /**
   * Called once when the thread could not start or ended without being asked to: the caller then runs crawls
   * and indexing in its own thread.
   */
  onFailure(error: Error): void;
}

/** A process's background thread (see {@link backgroundThread}). */
export interface BackgroundThread {
  /** Starts the thread now if it is not running (it starts by itself at the first job it should run). */
  start(): void;
  /** Starts the thread when jobs of its kinds wait (queued, or running for a process that may have ended). */
  startIfJobsWait(): Promise<void>;
  /** Whether the thread was started. */
  readonly started: boolean;
  /** Stops the thread: its workers give their jobs back, its database closes; ended after a bound. */
  close(): Promise<void>;
  /** Ends the thread as a crash would (tests): crawls and indexing then run in the request thread. */
  crash(): Promise<void>;
}

/**
 * Crawls and indexing in a worker thread of their own (`PARLEY_BACKGROUND_THREAD`), so their CPU (a crawled
 * page's fetch, writes and indexing job: ~5 ms of the thread serving requests each) leaves that thread: on
 * 2 cores, searches kept it busy and a crawl's work queued behind them lengthened their tail. The thread opens
 * its own database connection (SQLite in WAL mode: its writes never block the searches' reads; PostgreSQL: a
 * pool of its own), builds the services again and runs only the indexing and crawl workers, at the indexing
 * nice. It starts at the first such job enqueued here (or found waiting at start), so a process that never
 * indexes never pays for it. On SQLite, where this thread's HNSW graphs serve the searches, the thread sends
 * each change its writes make and waits until it is applied before a write returns (a file is `indexed` only
 * once its vectors can be found); jobs enqueued here are told to it once their transaction has ended.
 */
export function backgroundThread(deps: BackgroundThreadDeps): BackgroundThread {
  const { db, log } = deps;
  let worker: Worker | undefined;
  let closing = false;
  let failed = false;
  let exited: Promise<void> = Promise.resolve();
  /** Graph changes applied one after another, in the order the thread sent them. */
  let graphWork: Promise<void> = Promise.resolve();
  const sqlite = db.dialect === 'sqlite';

  const fail = (error: Error) => {
    if (failed || closing) return;
    failed = true;
    log.error({ err: error }, 'the background thread failed: crawls and indexing run in the request thread');
    deps.onFailure(error);
  };

  const post = (message: MainMessage) => worker?.postMessage(message);

  const onMessage = (message: ThreadMessage) => {
    switch (message.type) {
      case 'graph': {
        const { change } = message;
        graphWork = graphWork
          .then(() => applyGraphChange(db.kysely, change))
          .catch((error: unknown) =>
            log.warn({ err: error }, 'a vector change of the background thread could not be applied'),
          );
        return;
      }
      case 'graph-sync': {
        const { id } = message;
        graphWork = graphWork.then(() => post({ type: 'graph-synced', id }));
        return;
      }
      case 'metric':
        if (deps.metrics) applyMetric(deps.metrics, message.call, message.args);
        return;
      case 'log':
        log.child(message.bindings)[message.level](message.fields, message.message);
        return;
      case 'failed':
        fail(new Error(`the background thread could not start: ${message.message}`));
        void worker?.terminate();
        return;
      case 'ready':
        log.debug({}, 'background thread ready');
        return;
      case 'stopped':
        return;
    }
  };

  /** Tells the thread of a job enqueued here, once the transaction that enqueued it has ended. */
  const tell = (kind: string | null) => {
    if (!worker || failed) return;
    if (db.inTransaction?.()) {
      setTimeout(() => tell(kind), 2).unref();
      return;
    }
    post({ type: 'enqueued', kind });
  };

  const start = () => {
    if (worker || closing || failed) return;
    const data: BackgroundThreadData = {
      config: deps.config,
      database: deps.database,
      version: deps.version,
      foreground: deps.foreground,
      metrics: deps.metrics !== undefined,
    };
    const spawned = spawnWorker(siblingModule(import.meta.url, 'background-thread-main'), {
      workerData: data,
      name: 'parley-background',
    });
    worker = spawned;
    spawned.on('message', onMessage);
    spawned.on('error', (error) => fail(error));
    exited = new Promise<void>((resolve) =>
      spawned.once('exit', (code) => {
        resolve();
        if (!closing) fail(new Error(`the background thread ended (exit code ${code})`));
      }),
    );
  };

  async function startIfJobsWait(): Promise<void> {
    const depth = await jobQueueDepth(db.kysely);
    if (depth.some((d) => BACKGROUND_THREAD_JOBS.includes(d.kind) && d.queued + d.running > 0)) start();
  }

  // The thread starts at the first job of its kinds enqueued here (on PostgreSQL, in any process); on SQLite
  // each is also told to it, as its connection hears of none itself.
  const unsubscribe = deps.jobs.onEnqueued?.((kind) => {
    // null: some may have been missed (PostgreSQL's listening connection came back, or began).
    if (kind === null && !worker)
      void startIfJobsWait().catch((error: unknown) =>
        log.warn({ err: error }, 'could not tell whether jobs wait for the background thread'),
      );
    if (kind === null || !BACKGROUND_THREAD_JOBS.includes(kind)) return;
    start();
    if (sqlite) tell(kind);
  });

  return {
    start,
    startIfJobsWait,
    get started() {
      return worker !== undefined;
    },
    async crash() {
      const running = worker;
      if (!running) return;
      await running.terminate();
      await exited;
    },
    async close() {
      closing = true;
      unsubscribe?.();
      const running = worker;
      if (!running) return;
      const stopped = new Promise<void>((resolve) => {
        running.on('message', (m: ThreadMessage) => {
          if (m.type === 'stopped') resolve();
        });
      });
      running.postMessage({ type: 'stop' } satisfies MainMessage);
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), BACKGROUND_THREAD_STOP_MS);
      });
      const outcome = await Promise.race([
        Promise.race([stopped, exited]).then(() => 'done' as const),
        bound,
      ]);
      clearTimeout(timer);
      if (outcome === 'late') log.warn({}, 'the background thread did not stop in time: ended');
      await running.terminate();
      await exited;
      await graphWork;
    },
  };
}
