import type { Config } from './config/config.js';
import type { ForegroundGate } from './jobs/foreground.js';
import { type JobDefinition, type JobSet, jobSet } from './jobs/registry.js';
import type { JobRunner, PeriodicTask } from './jobs/runner.js';
import { CHAT_WORKERS_POLL_MS } from './modules/chat/job-kinds.js';
import type { ChatService } from './modules/chat/service.js';
import { INDEXING_WORKERS_POLL_MS } from './modules/files/jobs.js';
import type { FilesService } from './modules/files/service.js';
import type { EmbeddingModelKeeper } from './modules/knowledge/embedding-model.js';
import { CRAWL_WORKERS_POLL_MS } from './modules/knowledge/websites/jobs.js';
import type { WebsiteSourcesService } from './modules/knowledge/websites/sources.js';
import type { LogsService } from './modules/logs/service.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** How often expired files are deleted, queued blob deletions done and abandoned temporary files removed. */
export const FILE_SWEEP_EVERY_MS = MINUTE;
/** How often the blob store is listed for blobs no record holds (it lists the whole store). */
export const ORPHAN_SWEEP_EVERY_MS = HOUR;
/** How often request log lines past their retention are deleted. */
export const LOG_PRUNE_EVERY_MS = HOUR;
/** How often chat signals past their retention are deleted. */
export const SIGNAL_PRUNE_EVERY_MS = MINUTE;
/** How often website sources whose daily or weekly sync is due are queued. */
export const SOURCE_SCHEDULE_EVERY_MS = MINUTE;
/** How much older than any upload that could still be running a blob must be before the orphan sweep takes it. */
export const ORPHAN_AGE_MARGIN_MS = 10 * MINUTE;

/** What the background work of a process is made of. */
export interface BackgroundDeps {
  config: Config;
  runner: JobRunner;
  /** What the indexing and crawl workers yield to before each job (the process's searches and chats). */
  foreground: Pick<ForegroundGate, 'yield'>;
  /** The `index_file` job. */
  indexing: JobDefinition;
  /** The `chat_reply` and `chat_webhook` jobs. */
  chatJobs: JobDefinition[];
  /** The `crawl_website` job, and the website sources whose schedule queues it. */
  crawling: JobDefinition;
  websites: Pick<WebsiteSourcesService, 'enqueueDue'>;
  files: Pick<
    FilesService,
    'expire' | 'expireUploads' | 'collectGarbage' | 'sweepTemporary' | 'sweepOrphans'
  >;
  logs: Pick<LogsService, 'prune'>;
  chat: Pick<ChatService, 'pruneSignals'>;
  /** The check that the index holds vectors of the embedder's model (none without an embedder). */
  embeddingModel?: Pick<EmbeddingModelKeeper, 'periodic'> | undefined;
  /** The sweep re-embedding Q&A wordings without a vector of the embedder's model (none without an embedder). */
  qaStaleSweep?: PeriodicTask | undefined;
}

/**
 * Which of a process's background work a runner takes: `all` (one thread does everything), or, with crawls
 * and indexing in a background thread of their own (background-thread.ts), `requests` for the thread serving
 * requests (the chat workers and the periodic tasks) and `crawl-and-index` for that thread.
 */
export type BackgroundShare = 'all' | 'requests' | 'crawl-and-index';

/** Registers the indexing and crawl workers with `runner`; answers the indexing pool's jobs. */
export function registerCrawlAndIndex(
  deps: Pick<BackgroundDeps, 'config' | 'runner' | 'foreground' | 'indexing' | 'crawling'>,
): JobSet {
  const { config, runner } = deps;
  const indexing = runner.workers({
    name: 'indexing',
    jobs: [deps.indexing],
    concurrency: config.search.indexingConcurrency,
    pollMs: INDEXING_WORKERS_POLL_MS,
    leaseMs: config.jobLeaseMs,
    background: deps.foreground,
  });
  // Website crawls on a worker of their own: a crawl waits on remote sites (and their Crawl-delay) for long.
  runner.workers({
    name: 'crawl',
    jobs: [deps.crawling],
    concurrency: 1,
    pollMs: CRAWL_WORKERS_POLL_MS,
    leaseMs: config.jobLeaseMs,
    background: deps.foreground,
  });
  return indexing;
}

/**
 * Registers the background work every `parley serve` process does with its runner (`share` says which part
 * of it): the indexing and crawl workers, and apart from them (so a long indexing job never delays a reply)
 * the chat workers; and the periodic expiry, garbage and retention tasks (all idempotent, so every process
 * runs them). Answers the indexing pool's jobs.
 */
export function registerBackgroundWork(deps: BackgroundDeps, share: BackgroundShare = 'all'): JobSet {
  const { config, runner, files } = deps;
  if (share === 'crawl-and-index') return registerCrawlAndIndex(deps);
  const indexing = share === 'all' ? registerCrawlAndIndex(deps) : jobSet(deps.indexing);
  runner.workers({
    name: 'chat',
    jobs: deps.chatJobs,
    concurrency: config.chat.concurrency,
    pollMs: CHAT_WORKERS_POLL_MS,
    leaseMs: config.jobLeaseMs,
  });
  runner.schedule({
    name: 'knowledge.syncDueSources',
    everyMs: SOURCE_SCHEDULE_EVERY_MS,
    run: () => deps.websites.enqueueDue(),
  });
  // At start and every minute: a changed embedding model is switched to and the stored passages re-embedded.
  if (deps.embeddingModel) runner.schedule(deps.embeddingModel.periodic());
  // At start and every minute: Q&A wordings of another model (or none) get the embedder's vectors.
  if (deps.qaStaleSweep) runner.schedule(deps.qaStaleSweep);
  // Expired files first, so the blobs they free are collected in the same round.
  runner.schedule({ name: 'files.expire', everyMs: FILE_SWEEP_EVERY_MS, run: () => files.expire() });
  // Uploads that can no longer arrive end upload_failed, their quota reservation released (the quota already
  // stopped counting them at their expiry).
  runner.schedule({
    name: 'files.expireUploads',
    everyMs: FILE_SWEEP_EVERY_MS,
    run: () => files.expireUploads(),
  });
  runner.schedule({
    name: 'files.collectGarbage',
    everyMs: FILE_SWEEP_EVERY_MS,
    run: () => files.collectGarbage(),
  });
  runner.schedule({
    name: 'files.sweepTemporary',
    everyMs: FILE_SWEEP_EVERY_MS,
    run: () => files.sweepTemporary(),
  });
  // Blobs no record holds (a crash or a lost race between a blob and its record): only once older than any
  // upload could still be running (with S3 a multipart object is dated from when its upload began), so no
  // blob about to be recorded is taken. First a minute after start, so short-lived processes sweep too.
  const orphanAgeMs =
    Math.max(config.files.uploadUrlTtlMs, config.connections.uploadTimeoutMs) + ORPHAN_AGE_MARGIN_MS;
  runner.schedule({
    name: 'files.sweepOrphans',
    everyMs: ORPHAN_SWEEP_EVERY_MS,
    firstAfterMs: FILE_SWEEP_EVERY_MS,
    run: () => files.sweepOrphans(orphanAgeMs),
  });
  runner.schedule({ name: 'logs.prune', everyMs: LOG_PRUNE_EVERY_MS, run: () => deps.logs.prune() });
  runner.schedule({
    name: 'chat.pruneSignals',
    everyMs: SIGNAL_PRUNE_EVERY_MS,
    run: () => deps.chat.pruneSignals(),
  });
  return indexing;
}
