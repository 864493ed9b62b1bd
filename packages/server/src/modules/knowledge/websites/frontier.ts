/**
 * A crawl's frontier: the pages found and not yet visited, the URLs seen, each host's robots.txt, and the
 * requests, one at a time with the host's Crawl-delay between them. Its tally counts what was found, skipped
 * and fetched.
 */
import type { CrawlCounts } from '@parley/protocol';
import robotsModule from 'robots-parser';
import { readSitemap } from '../../../search/ingest/extract/web-page.js';
import type { CrawlDeps, CrawlLimits } from './deps.js';
import { fetchPage, type PageFetch } from './fetcher.js';
import { noCounts, SKIPPED_KEPT, type SourceSettings } from './sources.js';
import { judgeUrl, normalizeUrl, type UrlRules } from './url-rules.js';

/** A parsed robots.txt (robots-parser). */
interface Robots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}
/** robots-parser's function (a CommonJS export its types declare as a module). */
const robotsParser = robotsModule as unknown as (url: string, text: string) => Robots;

/** A page waiting to be visited, and how many links away from the start it was found. */
export interface Queued {
  url: URL;
  depth: number;
}

/** The conditional GET validators of a page crawled before. */
export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

/** A run's counts and the pages it skipped (the first {@link SKIPPED_KEPT}, with why). */
export class CrawlTally {
  readonly counts: CrawlCounts = noCounts();
  readonly skippedPages: Array<{ url: string; reason: string }> = [];

  skip(url: string, reason: string): void {
    this.counts.skipped++;
    if (this.skippedPages.length < SKIPPED_KEPT) this.skippedPages.push({ url, reason });
  }
}

/** See the file comment. */
export class Frontier {
  private readonly seen = new Set<string>();
  private readonly queue: Queued[] = [];
  private readonly robots = new Map<string, Robots | null>();
  private lastRequestAt = 0;
  private requesting: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: Pick<CrawlDeps, 'fetch' | 'userAgent'>,
    private readonly rules: UrlRules,
    private readonly limits: CrawlLimits,
    private readonly settings: Pick<SourceSettings, 'maxPages'>,
    private readonly tally: CrawlTally,
    private readonly signal: AbortSignal,
  ) {}

  /** Pages waiting to be visited. */
  get waiting(): number {
    return this.queue.length;
  }

  /** The next page to visit, first found first. */
  take(): Queued | undefined {
    return this.queue.shift();
  }

  /** Whether a URL was seen already; it is from now on. */
  seenBefore(href: string): boolean {
    if (this.seen.has(href)) return true;
    this.seen.add(href);
    return false;
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
  get(url: URL, validators?: Validators): Promise<PageFetch> {
    const request = this.requesting.then(() => this.request(url, validators));
    this.requesting = request.catch(() => undefined);
    return request;
  }

  private async request(url: URL, validators?: Validators): Promise<PageFetch> {
    await this.politely(url);
    const result = await fetchPage(this.deps.fetch, url, {
      userAgent: this.deps.userAgent,
      rules: this.rules,
      limits: { maxBytes: this.limits.pageBytes, timeoutMs: this.limits.pageTimeoutMs },
      signal: this.signal,
      validators,
    });
    if (result.kind === 'ok') this.tally.counts.bytes += result.body.length;
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
    if (this.seenBefore(url.href)) return;
    const verdict = judgeUrl(url, this.rules);
    if (verdict) return this.tally.skip(url.href, verdict);
    const robots = await this.robotsOf(url);
    if (robots && robots.isAllowed(url.href, this.deps.userAgent) === false)
      return this.tally.skip(url.href, 'robots');
    if (this.tally.counts.found >= this.settings.maxPages) return this.tally.skip(url.href, 'max_pages');
    this.tally.counts.found++;
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
}
