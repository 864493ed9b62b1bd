import type { Db } from '../db/database.js';
import { jobQueueDepth } from '../jobs/queue.js';
import type { Logger } from '../logger.js';
import { CHAT_REPLY_JOB, CHAT_WEBHOOK_JOB } from '../modules/chat/job-kinds.js';
import { INDEX_FILE_JOB } from '../modules/files/contract.js';
import type { AppMetrics } from './metrics.js';

/** The job kinds the queue gauges always report (at 0 when none waits), so an alert never sees them vanish. */
export const JOB_KINDS = [INDEX_FILE_JOB, CHAT_REPLY_JOB, CHAT_WEBHOOK_JOB] as const;

/** What an app's scrape-time gauges read. */
export interface AppSources {
  db: Db;
  clock: () => Date;
  /** Open live chat streams of the app. */
  openStreams: () => number;
  log: Logger;
}

/**
 * Adds an app's scrape-time gauges: its job queue (one grouped query per scrape, SQLite or PostgreSQL), its open
 * chat streams and, on PostgreSQL, its connection pool.
 */
export function watchApp(metrics: AppMetrics, { db, clock, openStreams, log }: AppSources): void {
  metrics.watch({
    jobs: { read: () => jobQueueDepth(db.kysely), kinds: JOB_KINDS, clock },
    streams: openStreams,
    ...(db.poolUse ? { pool: db.poolUse } : {}),
    onError: (error, what) => log.warn({ err: error }, `metrics: could not read the ${what}`),
  });
}
