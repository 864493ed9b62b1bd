import type { CrawlRun } from '@parley/protocol';
import { fixedQuery } from '../../../db/fixed-query.js';
import { defineJob, type KindDefinition } from '../../../jobs/registry.js';
import type { Logger } from '../../../logger.js';
import { Crawl } from './crawler.js';
import type { CrawlDeps } from './deps.js';
import { CRAWL_WEBSITE_JOB, CrawlWebsitePayload } from './jobs.js';
import { nextSyncAfter } from './schedule.js';
import { type CrawlProgress, noCounts, RUNS_KEPT, type SourceRow, type SourceSettings } from './sources.js';

/** The User-Agent of crawls: Parley, its version, and what it is. */
export const crawlUserAgent = (version: string) =>
  `Parley/${version} (knowledge crawler; +https://github.com/parley/parley)`;

/** A run's progress written, answering whether a stop was asked for (each page does: compiled once, see fixedQuery). */
const writeProgress = fixedQuery(3, (db, id: string, progress: string, at: string) =>
  db
    .updateTable('knowledge_sources')
    .set({ progress, updated_at: at })
    .where('id', '=', id)
    .returning(['stop_requested']),
);

/** Ends a run: its summary first in the kept runs, the source idle, its next scheduled sync set. */
async function finish(deps: CrawlDeps, source: SourceRow, run: CrawlRun, progress: CrawlProgress) {
  const now = deps.clock();
  const current = await deps.db
    .selectFrom('knowledge_sources')
    .select(['runs', 'schedule'])
    .where('id', '=', source.id)
    .executeTakeFirst();
  if (!current) return;
  const runs = [run, ...(JSON.parse(current.runs) as CrawlRun[])].slice(0, RUNS_KEPT);
  await deps.db
    .updateTable('knowledge_sources')
    .set({
      state: 'idle',
      stop_requested: 0,
      progress: JSON.stringify(progress),
      runs: JSON.stringify(runs),
      // The schedule as it is now: it may have been changed while the crawl ran.
      next_sync_at: nextSyncAfter(current.schedule, now),
      updated_at: now.toISOString(),
    })
    .where('id', '=', source.id)
    .execute();
}

/**
 * The `crawl_website` job: crawls a source's site one request at a time (robots.txt and its Crawl-delay
 * honoured), writes each page that changed as a file of the bot (indexed by the indexing workers), removes
 * pages gone twice, and keeps the run's summary. Progress is written after every page, where a stop asked
 * for (or the source deleted) is noticed.
 */
export function crawlWebsiteJob(deps: CrawlDeps, log: Logger): KindDefinition<typeof CRAWL_WEBSITE_JOB> {
  return defineJob({
    kind: CRAWL_WEBSITE_JOB,
    payload: CrawlWebsitePayload,
    backoff: { baseMs: 5_000, maxMs: 300_000 },
    maxAttempts: 2,
    timeoutMs: 6 * 3_600_000,
    retryTimeouts: false,
    async run({ sourceId }, { signal }) {
      const source = await deps.db
        .selectFrom('knowledge_sources')
        .selectAll()
        .where('id', '=', sourceId)
        .executeTakeFirst();
      if (!source || source.state === 'idle') return;
      const startedAt = deps.clock().toISOString();
      await deps.db
        .updateTable('knowledge_sources')
        .set({
          state: source.stop_requested ? 'stopping' : 'running',
          progress: JSON.stringify({ counts: noCounts(), skipped: [] }),
          updated_at: startedAt,
        })
        .where('id', '=', sourceId)
        .execute();
      const crawl = new Crawl(deps, source, JSON.parse(source.settings) as SourceSettings, signal);
      let outcome: CrawlRun['outcome'] = 'completed';
      let message: string | undefined;
      const snapshot = (): CrawlProgress => ({ counts: { ...crawl.counts }, skipped: crawl.skippedPages });
      try {
        await crawl.run(async () => {
          const progress = JSON.stringify(snapshot());
          const [row] = (await writeProgress(deps.db, sourceId, progress, deps.clock().toISOString())).rows;
          if (!row) outcome = 'stopped';
          else if (row.stop_requested) outcome = 'stopped';
          return outcome === 'completed';
        });
        if (crawl.stopped) {
          outcome = 'stopped';
          message = crawl.stopped;
        }
      } catch (error) {
        if (signal.aborted) throw error;
        outcome = 'failed';
        message = error instanceof Error ? error.message : String(error);
        log.warn({ err: error, sourceId }, 'a website crawl failed');
      }
      await finish(
        deps,
        source,
        {
          startedAt,
          endedAt: deps.clock().toISOString(),
          outcome,
          counts: crawl.counts,
          ...(message ? { message } : {}),
        },
        snapshot(),
      );
    },
    async onFailed({ sourceId }, error) {
      const source = await deps.db
        .selectFrom('knowledge_sources')
        .selectAll()
        .where('id', '=', sourceId)
        .executeTakeFirst();
      if (!source) return;
      const at = deps.clock().toISOString();
      await finish(
        deps,
        source,
        { startedAt: at, endedAt: at, outcome: 'failed', counts: noCounts(), message: error.message },
        { counts: noCounts(), skipped: [] },
      );
    },
  });
}
