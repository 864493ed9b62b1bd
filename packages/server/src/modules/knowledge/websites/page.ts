/**
 * One page of a crawl: fetched (conditionally when crawled before), its main content extracted (HTML, in the
 * reader workers) or taken as it is (PDF, text), its links given to the frontier, and written as a file of the
 * bot when its content changed; a page gone twice is removed.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { fixedQuery } from '../../../db/fixed-query.js';
import type { ExtractedPage } from '../../../search/ingest/document-reader.js';
import { ExtractionError } from '../../../search/types.js';
import type { FilesContext } from '../../files/service.js';
import type { CrawlDeps, CrawlLimits } from './deps.js';
import type { PageFetch } from './fetcher.js';
import type { CrawlTally, Frontier, Queued } from './frontier.js';
import { pageHtml } from './render.js';
import type { SourceRow, SourceSettings } from './sources.js';
import { pageKey, type UrlRules } from './url-rules.js';

/** A page's kind by its Content-Type (null: not taken). */
function pageKind(contentType: string): 'html' | 'pdf' | 'text' | null {
  if (contentType === 'text/html' || contentType === 'application/xhtml+xml') return 'html';
  if (contentType === 'application/pdf') return 'pdf';
  if (contentType === 'text/plain' || contentType === 'text/markdown') return 'text';
  return null;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The columns of a source's page row a visit sets. */
type PageValues = Partial<{
  etag: string | null;
  last_modified: string | null;
  gone_count: number;
  fetched_at: string;
  file_id: string;
  content_hash: string;
}>;

/* The queries every page runs, compiled once (see fixedQuery). */

/** A source's row of a page. */
const knownPage = fixedQuery(2, (db, sourceId: string, url: string) =>
  db
    .selectFrom('knowledge_source_pages')
    .selectAll()
    .where('source_id', '=', sourceId)
    .where('url', '=', url),
);

/** A source's new page row. */
const insertPage = fixedQuery(
  8,
  (
    db,
    sourceId: string,
    url: string,
    fileId: string,
    hash: string,
    etag: string | null,
    lastModified: string | null,
    goneCount: number,
    fetchedAt: string,
  ) =>
    db.insertInto('knowledge_source_pages').values({
      source_id: sourceId,
      url,
      file_id: fileId,
      content_hash: hash,
      etag,
      last_modified: lastModified,
      gone_count: goneCount,
      fetched_at: fetchedAt,
    }),
);

/** A file linked to a knowledge base (kept when it already is). */
const linkFile = fixedQuery(3, (db, knowledgeBaseId: string, fileId: string, at: string) =>
  db
    .insertInto('knowledge_base_files')
    .values({ knowledge_base_id: knowledgeBaseId, file_id: fileId, linked_at: at })
    .onConflict((oc) => oc.columns(['knowledge_base_id', 'file_id']).doNothing()),
);

/** What a page is written as: its bytes, title and type. */
interface PageContent {
  content: Buffer;
  title: string;
  contentType: string;
}

/** What the pages of one run are visited with. */
export interface PageVisitContext {
  deps: CrawlDeps;
  source: SourceRow;
  settings: SourceSettings;
  rules: UrlRules;
  limits: CrawlLimits;
  frontier: Frontier;
  tally: CrawlTally;
  signal: AbortSignal;
}

/** Visits the pages of one run of a source's crawl ({@link visit}). */
export class PageVisitor {
  private readonly ctx: FilesContext;

  constructor(private readonly run: PageVisitContext) {
    const { source } = run;
    this.ctx = {
      actor: { kind: 'bot', botId: source.bot_id },
      botId: source.bot_id,
      workspaceId: source.workspace_id,
    };
  }

  /** Fetches a page and writes it when it changed (see the file comment). */
  async visit({ url, depth }: Queued): Promise<void> {
    const { deps, source, frontier, tally } = this.run;
    const [known] = (await knownPage(deps.db, source.id, url.href)).rows;
    const result: PageFetch = await frontier.get(
      url,
      known ? { etag: known.etag, lastModified: known.last_modified } : undefined,
    );
    const now = deps.clock().toISOString();
    if (result.kind === 'skipped') return tally.skip(url.href, result.reason);
    if (result.kind === 'gone') {
      tally.skip(url.href, `http_${result.status}`);
      if (known) await this.gone(url.href, known.gone_count, known.file_id);
      return;
    }
    if (result.kind === 'not_modified') {
      tally.counts.unchanged++;
      if (known) await this.touch(url.href, { gone_count: 0, fetched_at: now });
      return;
    }
    tally.counts.fetched++;
    const finalUrl = result.url;
    if (finalUrl.href !== url.href && frontier.seenBefore(finalUrl.href) && known === undefined)
      return tally.skip(url.href, 'duplicate');
    const kind = pageKind(result.contentType);
    if (!kind) return tally.skip(url.href, `content_type ${result.contentType || 'none'}`);
    const page =
      kind === 'html'
        ? await this.htmlContent(url, finalUrl, result.body, depth)
        : {
            content: result.body,
            title: decodeURIComponent(finalUrl.pathname.split('/').pop() || finalUrl.hostname),
            contentType: kind === 'pdf' ? 'application/pdf' : 'text/plain',
          };
    if (!page) return;
    const hash = sha256(page.content);
    const validators = {
      etag: result.etag,
      last_modified: result.lastModified,
      gone_count: 0,
      fetched_at: now,
    };
    if (known && known.content_hash === hash) {
      tally.counts.unchanged++;
      await this.touch(url.href, validators);
      return;
    }
    await deps.foreground?.yield(this.run.signal);
    const fileId = await this.write(finalUrl, page, now);
    if (known) await this.touch(url.href, { ...validators, file_id: fileId, content_hash: hash });
    else
      await insertPage(
        deps.db,
        source.id,
        url.href,
        fileId,
        hash,
        validators.etag,
        validators.last_modified,
        validators.gone_count,
        validators.fetched_at,
      );
    tally.counts.indexed++;
  }

  /**
   * An HTML page's main content as Markdown, its links added to the frontier (unless nofollow or at the
   * source's depth); undefined (and counted skipped) when it is not taken.
   */
  private async htmlContent(
    url: URL,
    finalUrl: URL,
    body: Buffer,
    depth: number,
  ): Promise<PageContent | undefined> {
    const { deps, settings, rules, limits, frontier, tally, signal } = this.run;
    const html = await pageHtml(deps.render, settings.render, finalUrl, body, {
      rules,
      userAgent: deps.userAgent,
      maxBytes: limits.pageBytes,
      timeoutMs: limits.pageTimeoutMs,
      signal,
    });
    tally.counts.bytes += html.bytes;
    if (html.kind === 'skipped') return void tally.skip(url.href, html.reason);
    let page: ExtractedPage;
    try {
      page = await deps.reader.readPage({ html: html.html, url: finalUrl.href, signal });
    } catch (error) {
      if (error instanceof ExtractionError) return void tally.skip(url.href, error.code);
      throw error;
    }
    if (!page.nofollow && depth < settings.maxDepth)
      for (const link of page.links) await frontier.add(link, depth + 1);
    if (page.noindex) return void tally.skip(url.href, 'noindex');
    return { content: Buffer.from(page.markdown, 'utf8'), title: page.title, contentType: 'text/markdown' };
  }

  /** Writes a page as a file of the bot in the source's knowledge base; answers the file's id. */
  private async write(finalUrl: URL, page: PageContent, now: string): Promise<string> {
    const { deps, source, settings, signal } = this.run;
    const file = await deps.files.upsert(this.ctx, {
      key: pageKey(finalUrl, settings.ownKeys ? source.id : undefined),
      size: page.content.length,
      contentType: page.contentType,
      index: true,
      tags: { webSource: source.id },
      metadata: { title: page.title, sourceUrl: finalUrl.href },
    });
    const query = Object.fromEntries(new URL(file.uploadUrl).searchParams);
    await deps.files.uploadBytes(file.id, query, Readable.from([page.content]), { signal });
    await linkFile(deps.db, source.knowledge_base_id, file.id, now);
    return file.id;
  }

  /** A page answered 404 or 410: removed the second time in a row, else counted. */
  private async gone(url: string, goneCount: number, fileId: string): Promise<void> {
    const { deps, source, tally } = this.run;
    if (goneCount + 1 < 2) return this.touch(url, { gone_count: goneCount + 1 });
    await deps.files.delete(this.ctx, fileId).catch(() => undefined);
    await deps.db
      .deleteFrom('knowledge_source_pages')
      .where('source_id', '=', source.id)
      .where('url', '=', url)
      .execute();
    tally.counts.removed++;
  }

  private async touch(url: string, values: PageValues): Promise<void> {
    const { deps, source } = this.run;
    await deps.db
      .updateTable('knowledge_source_pages')
      .set(values)
      .where('source_id', '=', source.id)
      .where('url', '=', url)
      .execute();
  }
}
