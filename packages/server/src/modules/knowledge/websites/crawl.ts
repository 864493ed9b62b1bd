import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { CrawlCounts, CrawlRun } from '@parley/protocol';
import type { Kysely } from 'kysely';
import robotsModule from 'robots-parser';
import type { Database } from '../../../db/schema.js';
import type { OutboundFetch } from '../../../http/outbound.js';
import { defineJob, type KindDefinition } from '../../../jobs/registry.js';
import type { Logger } from '../../../logger.js';
import type { DocumentReader, ExtractedPage } from '../../../search/ingest/document-reader.js';
import { readSitemap } from '../../../search/ingest/extract/web-page.js';
import { ExtractionError } from '../../../search/types.js';
import type { FilesContext, FilesService } from '../../files/service.js';
import { fetchPage, type PageFetch } from './fetcher.js';
import { CRAWL_WEBSITE_JOB, CrawlWebsitePayload } from './jobs.js';
import { type PageRenderer, pageHtml } from './render.js';
import {
  type CrawlProgress,
  nextSyncAfter,
  noCounts,
  RUNS_KEPT,
  SKIPPED_KEPT,
  type SourceRow,
  type SourceSettings,
} from './sources.js';
import { judgeUrl, normalizeUrl, pageKey, type UrlRules } from './url-rules.js';

/** A parsed robots.txt (robots-parser). */
interface Robots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}
/** robots-parser's function (a CommonJS export its types declare as a module). */
const robotsParser = robotsModule as unknown as (url: string, text: string) => Robots;

/** The bounds of a crawl. */
export interface CrawlLimits {
  /** Most bytes of one page. */
  pageBytes: number;
  /** Most time one page may take. */
  pageTimeoutMs: number;
  /** Most bytes one crawl may fetch in all. */
  totalBytes: number;
  /** Longest Crawl-delay honoured (a longer one is cut to it). */
  maxDelayMs: number;
  /** Most sitemaps read (an index and the sitemaps it lists). */
  maxSitemaps: number;
}

/** The bounds of a crawl when nothing else is said. */
export const CRAWL_LIMITS: CrawlLimits = {
  pageBytes: 5 * 1024 * 1024,
  pageTimeoutMs: 20_000,
  totalBytes: 500 * 1024 * 1024,
  maxDelayMs: 30_000,
  maxSitemaps: 50,
};

/** What the crawl job is built from. */
export interface CrawlDeps {
  db: Kysely<Database>;
  files: Pick<FilesService, 'upsert' | 'upload' | 'delete'>;
  /** The guarded fetch (private addresses refused unless PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES). */
  fetch: OutboundFetch;
  /** `Parley/<version> (+knowledge crawler)`. */
  userAgent: string;
  clock: () => Date;
  limits?: CrawlLimits;
  /** Renders the pages of sources that ask for JavaScript (PARLEY_CRAWL_RENDER_JS; undefined: off). */
  render?: PageRenderer | undefined;
  /** Extracts each page's main content in a worker thread (Readability would hold the requests' thread). */
  reader: Pick<DocumentReader, 'readPage'>;
}

/** The User-Agent of crawls: Parley, its version, and what it is. */
export const crawlUserAgent = (version: string) =>
  `Parley/${version} (knowledge crawler; +https://github.com/parley/parley)`;

/** Pages visited at once by a crawl (their requests still one at a time). */
const PAGES_AT_ONCE = 2;

interface Queued {
  url: URL;
  depth: number;
}

/** A page's kind by its Content-Type (null: not taken). */
function pageKind(contentType: string): 'html' | 'pdf' | 'text' | null {
  if (contentType === 'text/html' || contentType === 'application/xhtml+xml') return 'html';
  if (contentType === 'application/pdf') return 'pdf';
  if (contentType === 'text/plain' || contentType === 'text/markdown') return 'text';
  return null;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** One run of a source's crawl: its state, counts and the pages it writes. */
class Crawl {
  readonly counts: CrawlCounts = noCounts();
  readonly skippedPages: Array<{ url: string; reason: string }> = [];
  private readonly seen = new Set<string>();
  private readonly queue: Queued[] = [];
  private readonly robots = new Map<string, Robots | null>();
  private lastRequestAt = 0;
  private requesting: Promise<unknown> = Promise.resolve();
  private readonly rules: UrlRules;
  private readonly limits: CrawlLimits;
  private readonly ctx: FilesContext;
  stopped: string | null = null;

  constructor(
    private readonly deps: CrawlDeps,
    private readonly source: SourceRow,
    private readonly settings: SourceSettings,
    private readonly signal: AbortSignal,
  ) {
    this.limits = deps.limits ?? CRAWL_LIMITS;
    const start = new URL(source.url);
    this.rules = { ...settings, host: start.hostname };
    this.ctx = {
      actor: { kind: 'bot', botId: source.bot_id },
      botId: source.bot_id,
      workspaceId: source.workspace_id,
    };
  }

  skip(url: string, reason: string): void {
    this.counts.skipped++;
    if (this.skippedPages.length < SKIPPED_KEPT) this.skippedPages.push({ url, reason });
  }

  /** Waits as the host's Crawl-delay asks since the last request (one request at a time). */
  private async politely(url: URL): Promise<void> {
    const robots = await this.robotsOf(url);
    const delayMs = Math.min(
      (robots?.getCrawlDelay(this.deps.userAgent) ?? 0) * 1000,
      this.limits.maxDelayMs,
    );
    const wait = this.lastRequestAt + delayMs - Date.now();
    if (wait > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        this.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    this.signal.throwIfAborted();
    this.lastRequestAt = Date.now();
  }

  /** One request at a time: a page's request starts once the one before has been answered. */
  private get(url: URL, validators?: { etag: string | null; lastModified: string | null }) {
    const request = this.requesting.then(() => this.request(url, validators));
    this.requesting = request.catch(() => undefined);
    return request;
  }

  private async request(url: URL, validators?: { etag: string | null; lastModified: string | null }) {
    await this.politely(url);
    const result = await fetchPage(this.deps.fetch, url, {
      userAgent: this.deps.userAgent,
      rules: this.rules,
      limits: { maxBytes: this.limits.pageBytes, timeoutMs: this.limits.pageTimeoutMs },
      signal: this.signal,
      validators,
    });
    if (result.kind === 'ok') this.counts.bytes += result.body.length;
    return result;
  }

  /** A host's robots.txt, read once per crawl (none, unreadable or 4xx: everything allowed). */
  async robotsOf(url: URL): Promise<Robots | null> {
    const origin = url.origin;
    if (this.robots.has(origin)) return this.robots.get(origin) ?? null;
    this.robots.set(origin, null);
    const robotsUrl = new URL('/robots.txt', origin);
    const result = await fetchPage(this.deps.fetch, robotsUrl, {
      userAgent: this.deps.userAgent,
      rules: this.rules,
      limits: { maxBytes: 512 * 1024, timeoutMs: this.limits.pageTimeoutMs },
      signal: this.signal,
      accept: 'text/plain',
    });
    this.lastRequestAt = Date.now();
    const parsed = result.kind === 'ok' ? robotsParser(robotsUrl.href, result.body.toString('utf8')) : null;
    this.robots.set(origin, parsed);
    return parsed;
  }

  /** Adds a URL to the crawl if the source takes it (or records why not). */
  async add(href: string, depth: number, base?: string): Promise<void> {
    const url = normalizeUrl(href, base);
    if (!url) return;
    if (this.seen.has(url.href)) return;
    this.seen.add(url.href);
    const verdict = judgeUrl(url, this.rules);
    if (verdict) return this.skip(url.href, verdict);
    const robots = await this.robotsOf(url);
    if (robots && robots.isAllowed(url.href, this.deps.userAgent) === false)
      return this.skip(url.href, 'robots');
    if (this.counts.found >= this.settings.maxPages) return this.skip(url.href, 'max_pages');
    this.counts.found++;
    this.queue.push({ url, depth });
  }

  /** Reads a sitemap (or an index of them) and adds its pages. */
  async sitemap(url: URL, budget: { left: number }): Promise<boolean> {
    if (budget.left-- <= 0) return false;
    const result = await this.get(url);
    if (result.kind !== 'ok') return false;
    const map = readSitemap(result.body.toString('utf8'));
    if (!map) return false;
    for (const nested of map.sitemaps) {
      const next = normalizeUrl(nested, url.href);
      if (next && judgeUrl(next, { ...this.rules, include: [], exclude: [] }) === null)
        await this.sitemap(next, budget);
    }
    for (const page of map.pages) await this.add(page, 0, url.href);
    return true;
  }

  /** The crawl: the start URL (a page or a sitemap), the sitemaps robots.txt lists, the pages known. */
  async run(progress: () => Promise<boolean>): Promise<void> {
    const start = new URL(this.source.url);
    const budget = { left: this.limits.maxSitemaps };
    const isSitemap = /\.xml(\.gz)?$/i.test(start.pathname) && (await this.sitemap(start, budget));
    if (!isSitemap) {
      await this.add(start.href, 0);
      for (const listed of (await this.robotsOf(start))?.getSitemaps() ?? []) {
        const url = normalizeUrl(listed);
        if (url && judgeUrl(url, { ...this.rules, include: [], exclude: [] }) === null)
          await this.sitemap(url, budget);
      }
    }
    // Pages crawled before are visited again (so a page gone is noticed), unless found already.
    const known = await this.deps.db
      .selectFrom('knowledge_source_pages')
      .select('url')
      .where('source_id', '=', this.source.id)
      .execute();
    for (const page of known) await this.add(page.url, this.settings.maxDepth);
    await this.pages(progress);
  }

  /**
   * Visits the queued pages, two at a time (one with JavaScript rendering): their requests still go one at a
   * time ({@link get}), but a page is extracted and written while the next one is fetched. A page's links join
   * the queue as it is extracted, so the crawl ends only once none is in flight.
   */
  private async pages(progress: () => Promise<boolean>): Promise<void> {
    const atOnce = this.settings.render === 'javascript' ? 1 : PAGES_AT_ONCE;
    const inFlight = new Set<Promise<void>>();
    let failure: { error: unknown } | undefined;
    try {
      while (!failure && (this.queue.length > 0 || inFlight.size > 0)) {
        if (this.queue.length === 0 || inFlight.size >= atOnce) {
          await Promise.race(inFlight);
          continue;
        }
        if (!(await progress())) return;
        if (this.counts.bytes > this.limits.totalBytes) {
          this.stopped = `the crawl's ${this.limits.totalBytes.toLocaleString('en-US')} bytes were fetched`;
          return;
        }
        const visit: Promise<void> = this.page(this.queue.shift() as Queued)
          .catch((error: unknown) => {
            failure ??= { error };
          })
          .finally(() => inFlight.delete(visit));
        inFlight.add(visit);
      }
    } finally {
      await Promise.all(inFlight);
    }
    if (failure) throw failure.error;
  }

  private async page({ url, depth }: Queued): Promise<void> {
    const known = await this.deps.db
      .selectFrom('knowledge_source_pages')
      .selectAll()
      .where('source_id', '=', this.source.id)
      .where('url', '=', url.href)
      .executeTakeFirst();
    const result: PageFetch = await this.get(
      url,
      known ? { etag: known.etag, lastModified: known.last_modified } : undefined,
    );
    const now = this.deps.clock().toISOString();
    if (result.kind === 'skipped') return this.skip(url.href, result.reason);
    if (result.kind === 'gone') {
      this.skip(url.href, `http_${result.status}`);
      if (!known) return;
      if (known.gone_count + 1 >= 2) {
        await this.deps.files.delete(this.ctx, known.file_id).catch(() => undefined);
        await this.pageRows().where('url', '=', url.href).execute();
        this.counts.removed++;
      } else {
        await this.deps.db
          .updateTable('knowledge_source_pages')
          .set({ gone_count: known.gone_count + 1 })
          .where('source_id', '=', this.source.id)
          .where('url', '=', url.href)
          .execute();
      }
      return;
    }
    if (result.kind === 'not_modified') {
      this.counts.unchanged++;
      if (known) await this.touch(url.href, { gone_count: 0, fetched_at: now });
      return;
    }
    this.counts.fetched++;
    const finalUrl = result.url;
    if (finalUrl.href !== url.href) {
      if (this.seen.has(finalUrl.href) && known === undefined) return this.skip(url.href, 'duplicate');
      this.seen.add(finalUrl.href);
    }
    const kind = pageKind(result.contentType);
    if (!kind) return this.skip(url.href, `content_type ${result.contentType || 'none'}`);
    let content: Buffer;
    let title: string;
    let contentType: string;
    if (kind === 'html') {
      const html = await pageHtml(this.deps.render, this.settings.render, finalUrl, result.body, {
        rules: this.rules,
        userAgent: this.deps.userAgent,
        maxBytes: this.limits.pageBytes,
        timeoutMs: this.limits.pageTimeoutMs,
        signal: this.signal,
      });
      this.counts.bytes += html.bytes;
      if (html.kind === 'skipped') return this.skip(url.href, html.reason);
      let page: ExtractedPage;
      try {
        page = await this.deps.reader.readPage({ html: html.html, url: finalUrl.href, signal: this.signal });
      } catch (error) {
        if (error instanceof ExtractionError) return this.skip(url.href, error.code);
        throw error;
      }
      if (!page.nofollow && depth < this.settings.maxDepth)
        for (const link of page.links) await this.add(link, depth + 1);
      if (page.noindex) return this.skip(url.href, 'noindex');
      content = Buffer.from(page.markdown, 'utf8');
      title = page.title;
      contentType = 'text/markdown';
    } else {
      content = result.body;
      title = decodeURIComponent(finalUrl.pathname.split('/').pop() || finalUrl.hostname);
      contentType = kind === 'pdf' ? 'application/pdf' : 'text/plain';
    }
    const hash = sha256(content);
    const validators = {
      etag: result.etag,
      last_modified: result.lastModified,
      gone_count: 0,
      fetched_at: now,
    };
    if (known && known.content_hash === hash) {
      this.counts.unchanged++;
      await this.touch(url.href, validators);
      return;
    }
    const file = await this.deps.files.upsert(this.ctx, {
      key: pageKey(finalUrl),
      size: content.length,
      contentType,
      index: true,
      tags: { webSource: this.source.id },
      metadata: { title, sourceUrl: finalUrl.href },
    });
    const query = Object.fromEntries(new URL(file.uploadUrl).searchParams);
    await this.deps.files.upload(file.id, query, Readable.from([content]), { signal: this.signal });
    await this.deps.db
      .insertInto('knowledge_base_files')
      .values({ knowledge_base_id: this.source.knowledge_base_id, file_id: file.id, linked_at: now })
      .onConflict((oc) => oc.columns(['knowledge_base_id', 'file_id']).doNothing())
      .execute();
    if (known) await this.touch(url.href, { ...validators, file_id: file.id, content_hash: hash });
    else
      await this.deps.db
        .insertInto('knowledge_source_pages')
        .values({
          source_id: this.source.id,
          url: url.href,
          file_id: file.id,
          content_hash: hash,
          ...validators,
        })
        .execute();
    this.counts.indexed++;
  }

  private pageRows() {
    return this.deps.db.deleteFrom('knowledge_source_pages').where('source_id', '=', this.source.id);
  }

  private async touch(
    url: string,
    values: Partial<{
      etag: string | null;
      last_modified: string | null;
      gone_count: number;
      fetched_at: string;
      file_id: string;
      content_hash: string;
    }>,
  ): Promise<void> {
    await this.deps.db
      .updateTable('knowledge_source_pages')
      .set(values)
      .where('source_id', '=', this.source.id)
      .where('url', '=', url)
      .execute();
  }
}

/** Ends a run: its summary first in the kept runs, the source idle, its next scheduled sync set. */
async function finish(deps: CrawlDeps, source: SourceRow, run: CrawlRun, progress: CrawlProgress) {
  const now = deps.clock();
  const current = await deps.db
    .selectFrom('knowledge_sources')
    .select('runs')
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
      next_sync_at: nextSyncAfter(source.schedule, now),
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
          const row = await deps.db
            .updateTable('knowledge_sources')
            .set({ progress: JSON.stringify(snapshot()), updated_at: deps.clock().toISOString() })
            .where('id', '=', sourceId)
            .returning(['stop_requested'])
            .executeTakeFirst();
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
