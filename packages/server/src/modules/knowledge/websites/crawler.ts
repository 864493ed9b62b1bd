/**
 * One run of a source's crawl: the start URL (a page or a sitemap), the sitemaps robots.txt lists and the pages
 * crawled before go to the frontier, whose pages are then visited two at a time.
 */
import type { CrawlCounts } from '@parley/protocol';
import { CRAWL_LIMITS, type CrawlDeps, type CrawlLimits } from './deps.js';
import { CrawlTally, Frontier, type Queued } from './frontier.js';
import { PageVisitor } from './page.js';
import type { SourceRow, SourceSettings } from './sources.js';
import { judgeUrl, normalizeUrl, type UrlRules } from './url-rules.js';

/** Pages visited at once by a crawl (their requests still one at a time). */
const PAGES_AT_ONCE = 2;

/** See the file comment. */
export class Crawl {
  private readonly tally = new CrawlTally();
  private readonly rules: UrlRules;
  private readonly limits: CrawlLimits;
  private readonly frontier: Frontier;
  private readonly visitor: PageVisitor;
  /** Why the crawl stopped before its end (null: it did not). */
  stopped: string | null = null;

  constructor(
    private readonly deps: CrawlDeps,
    private readonly source: SourceRow,
    private readonly settings: SourceSettings,
    private readonly signal: AbortSignal,
  ) {
    this.limits = deps.limits ?? CRAWL_LIMITS;
    this.rules = { ...settings, host: new URL(source.url).hostname };
    this.frontier = new Frontier(deps, this.rules, this.limits, settings, this.tally, signal);
    const { rules, limits, frontier, tally } = this;
    this.visitor = new PageVisitor({ deps, source, settings, rules, limits, frontier, tally, signal });
  }

  get counts(): CrawlCounts {
    return this.tally.counts;
  }

  get skippedPages(): Array<{ url: string; reason: string }> {
    return this.tally.skippedPages;
  }

  /** The crawl: the start URL (a page or a sitemap), the sitemaps robots.txt lists, the pages known. */
  async run(progress: () => Promise<boolean>): Promise<void> {
    const start = new URL(this.source.url);
    const budget = { left: this.limits.maxSitemaps };
    const isSitemap = /\.xml(\.gz)?$/i.test(start.pathname) && (await this.frontier.sitemap(start, budget));
    if (!isSitemap) {
      await this.frontier.add(start.href, 0);
      for (const listed of (await this.frontier.robotsOf(start))?.getSitemaps() ?? []) {
        const url = normalizeUrl(listed);
        if (url && judgeUrl(url, { ...this.rules, include: [], exclude: [] }) === null)
          await this.frontier.sitemap(url, budget);
      }
    }
    // Pages crawled before are visited again (so a page gone is noticed), unless found already.
    const known = await this.deps.db
      .selectFrom('knowledge_source_pages')
      .select('url')
      .where('source_id', '=', this.source.id)
      .execute();
    for (const page of known) await this.frontier.add(page.url, this.settings.maxDepth);
    await this.pages(progress);
  }

  /**
   * Visits the queued pages, two at a time (one with JavaScript rendering): their requests still go one at a
   * time ({@link Frontier.get}), but a page is extracted and written while the next one is fetched. A page's
   * links join the queue as it is extracted, so the crawl ends only once none is in flight. Each page waits
   * for the process's foreground requests first (at most the gate's bound: jobs/foreground.ts).
   */
  private async pages(progress: () => Promise<boolean>): Promise<void> {
    const atOnce = this.settings.render === 'javascript' ? 1 : PAGES_AT_ONCE;
    const inFlight = new Set<Promise<void>>();
    let failure: { error: unknown } | undefined;
    try {
      while (!failure && (this.frontier.waiting > 0 || inFlight.size > 0)) {
        if (this.frontier.waiting === 0 || inFlight.size >= atOnce) {
          await Promise.race(inFlight);
          continue;
        }
        // The foreground first: a search or chat request in flight is answered before the next page starts.
        await this.deps.foreground?.yield(this.signal);
        if (!(await progress())) return;
        if (this.counts.bytes > this.limits.totalBytes) {
          this.stopped = `the crawl's ${this.limits.totalBytes.toLocaleString('en-US')} bytes were fetched`;
          return;
        }
        const visit: Promise<void> = this.visitor
          .visit(this.frontier.take() as Queued)
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
}
