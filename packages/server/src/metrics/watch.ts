import type { Db } from '../db/database.js';
import { jobQueueDepth } from '../jobs/queue.js';
import type { Logger } from '../logger.js';
import type { AppMetrics } from './metrics.js';

/** What an app's scrape-time gauges read. */
export interface AppSources {
  db: Db;
  clock: () => Date;
  /**
   * The job kinds the queue gauges always report (at 0 when none waits), so an alert never sees them vanish:
   * given by the app, which knows its modules' jobs (metrics/ sits below the modules).
   */
  jobKinds: readonly string[];
  /** Open live chat streams of the app. */
  openStreams: () => number;
  log: Logger;
}

/**
 * Adds an app's scrape-time gauges: its job queue (one grouped query per scrape, SQLite or PostgreSQL), its open
 * chat streams and, on PostgreSQL, its connection pool.
 */
export function watchApp(metrics: AppMetrics, { db, clock, jobKinds, openStreams, log }: AppSources): void {
  metrics.watch({
    jobs: { read: () => jobQueueDepth(db.kysely), kinds: jobKinds, clock },
    streams: openStreams,
    ...(db.poolUse ? { pool: db.poolUse } : {}),
    onError: (error, what) => log.warn({ err: error }, `metrics: could not read the ${what}`),
  });
}
