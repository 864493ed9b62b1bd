import Type, { type Static } from 'typebox';
import { Timestamp } from './common.js';

/** The named schedules of a website source: never, every day or every week (from its last crawl). */
export const NAMED_SCHEDULES = ['off', 'daily', 'weekly'] as const;

/**
 * A cron expression of five fields, in UTC: minute, hour, day of the month, month, day of the week
 * (`0 3 * * 1`: Mondays at 03:00 UTC). The shape is checked here; the server checks the fields themselves.
 */
export const CronSchedule = Type.String({
  minLength: 9,
  maxLength: 120,
  pattern: '^\\S+( \\S+){4}$',
  description:
    'A cron expression of five fields separated by single spaces, in UTC: minute, hour, day of the month, month, day of the week (`0 3 * * 1`: Mondays at 03:00 UTC)',
});

/**
 * How often a website source is crawled again on its own: never, every day or every week from its last crawl,
 * or at the times of a cron expression (UTC).
 */
export const SourceSchedule = Type.Union(
  [Type.Literal('off'), Type.Literal('daily'), Type.Literal('weekly'), CronSchedule],
  {
    description:
      '`off` (the default), `daily` or `weekly` (from the last crawl), or a cron expression of five fields in UTC (`0 3 * * 1`: Mondays at 03:00)',
  },
);
/** Source schedule type: `off`, `daily`, `weekly` or a cron expression. */
export type SourceSchedule = Static<typeof SourceSchedule>;

/** Whether `schedule` is a cron expression rather than one of the named schedules. */
export function isCronSchedule(schedule: string): boolean {
  return !(NAMED_SCHEDULES as readonly string[]).includes(schedule);
}

/** A path pattern of a website source: `*` any characters but `/`, `**` any characters (`/docs/**`). */
const PathPattern = Type.String({ minLength: 1, maxLength: 300, pattern: '^/' });

/**
 * How a website source's pages are read: `html` as the server sends them, `javascript` rendered in headless
 * Chromium first (pages whose text a script writes; only where the operator sets PARLEY_CRAWL_RENDER_JS=true).
 */
export const SourceRender = Type.Union([Type.Literal('html'), Type.Literal('javascript')]);
/** Source render type. */
export type SourceRender = Static<typeof SourceRender>;

/** Body of createKnowledgeSource: a website (a start page or a sitemap) crawled into the knowledge base. */
export const CreateKnowledgeSourceBody = Type.Object({
  type: Type.Literal('website'),
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'A start page or a sitemap (sitemap index too), http(s) only',
  }),
  include: Type.Optional(
    Type.Array(PathPattern, {
      maxItems: 50,
      description: 'Only pages whose path matches one of these (default: every path)',
    }),
  ),
  exclude: Type.Optional(
    Type.Array(PathPattern, { maxItems: 50, description: 'No page whose path matches one of these' }),
  ),
  maxPages: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: 'Default 500' })),
  maxDepth: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 50, description: 'Links followed from the start page (default 10)' }),
  ),
  subdomains: Type.Optional(
    Type.Boolean({
      description: "Also crawl the start host's subdomains (default false: the same host only)",
    }),
  ),
  schedule: Type.Optional(SourceSchedule),
  render: Type.Optional(
    Type.Union([Type.Literal('html'), Type.Literal('javascript')], {
      description:
        '`javascript`: each page is rendered in headless Chromium before its text is read (400 unless the server sets `PARLEY_CRAWL_RENDER_JS=true`); default `html`',
    }),
  ),
});
/** createKnowledgeSource body type. */
export type CreateKnowledgeSourceBody = Static<typeof CreateKnowledgeSourceBody>;

/**
 * Body of updateKnowledgeSource: the settings of a website source that may change after it is made (its URL and
 * rendering stay); each one given replaces the source's, at least one. They apply from the next crawl.
 */
export const UpdateKnowledgeSourceBody = Type.Object(
  {
    include: CreateKnowledgeSourceBody.properties.include,
    exclude: CreateKnowledgeSourceBody.properties.exclude,
    maxPages: CreateKnowledgeSourceBody.properties.maxPages,
    maxDepth: CreateKnowledgeSourceBody.properties.maxDepth,
    subdomains: CreateKnowledgeSourceBody.properties.subdomains,
    schedule: CreateKnowledgeSourceBody.properties.schedule,
  },
  { additionalProperties: false, minProperties: 1 },
);
/** updateKnowledgeSource body type. */
export type UpdateKnowledgeSourceBody = Static<typeof UpdateKnowledgeSourceBody>;

/** Where a source's crawl stands. */
export const SourceState = Type.Union([
  Type.Literal('idle'),
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('stopping'),
]);

/** Counts of one crawl: pages found, fetched, sent to indexing, unchanged, skipped and removed. */
export const CrawlCounts = Type.Object({
  found: Type.Integer(),
  fetched: Type.Integer(),
  indexed: Type.Integer(),
  unchanged: Type.Integer(),
  skipped: Type.Integer(),
  removed: Type.Integer(),
  bytes: Type.Integer(),
});
/** Crawl counts type. */
export type CrawlCounts = Static<typeof CrawlCounts>;

/** A page a crawl left out, and why (`robots`, `excluded`, `content_type`, `http_404`, `too_large`…). */
export const SkippedPage = Type.Object({ url: Type.String(), reason: Type.String() });
/** Skipped page type. */
export type SkippedPage = Static<typeof SkippedPage>;

/** The summary of one finished crawl. */
export const CrawlRun = Type.Object({
  startedAt: Timestamp,
  endedAt: Timestamp,
  outcome: Type.Union([Type.Literal('completed'), Type.Literal('stopped'), Type.Literal('failed')]),
  counts: CrawlCounts,
  message: Type.Optional(Type.String()),
});
/** Crawl run type. */
export type CrawlRun = Static<typeof CrawlRun>;

/** A website source of a knowledge base, its crawl's progress and its last runs (newest first, at most 10). */
export const KnowledgeSource = Type.Object(
  {
    id: Type.String(),
    knowledgeBaseId: Type.String(),
    type: Type.Literal('website'),
    url: Type.String(),
    include: Type.Array(Type.String()),
    exclude: Type.Array(Type.String()),
    maxPages: Type.Integer(),
    maxDepth: Type.Integer(),
    subdomains: Type.Boolean(),
    render: SourceRender,
    schedule: SourceSchedule,
    state: SourceState,
    /** Pages of the source now (each one a file of the bot). */
    pages: Type.Integer(),
    /** The running crawl's counts, or the last one's. */
    progress: CrawlCounts,
    /** Pages the running (or last) crawl left out, with the reason (at most 100). */
    skipped: Type.Array(SkippedPage),
    runs: Type.Array(CrawlRun),
    nextSyncAt: Type.Optional(Timestamp),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'KnowledgeSource' },
);
/** Knowledge source type. */
export type KnowledgeSource = Static<typeof KnowledgeSource>;

/** Answer of createKnowledgeSource, getKnowledgeSource, syncKnowledgeSource and stopKnowledgeSource. */
export const KnowledgeSourceResponse = Type.Object({ source: KnowledgeSource });
/** Answer of listKnowledgeSources. */
export const ListKnowledgeSourcesResponse = Type.Object({
  sources: Type.Array(KnowledgeSource),
  rendersJavaScript: Type.Boolean({
    description:
      'Whether this server renders pages by JavaScript (`PARLEY_CRAWL_RENDER_JS`): only then may a source ask for `render: "javascript"`',
  }),
});
/** listKnowledgeSources answer type. */
export type ListKnowledgeSourcesResponse = Static<typeof ListKnowledgeSourcesResponse>;
