import Type from 'typebox';

/** Kind of the durable job that crawls one website source. */
export const CRAWL_WEBSITE_JOB = 'crawl_website';

/** Payload of a `crawl_website` job: the source, queued by a sync request or its schedule. */
export interface CrawlWebsiteJob {
  sourceId: string;
}

declare module '../../../jobs/registry.js' {
  interface JobPayloads {
    crawl_website: CrawlWebsiteJob;
  }
}

/** Schema of a `crawl_website` payload. */
export const CrawlWebsitePayload = Type.Object({ sourceId: Type.String({ minLength: 1 }) });

/** How often an idle crawl worker looks for work. */
export const CRAWL_WORKERS_POLL_MS = 1_000;
