import type {
  CrawlCounts,
  CrawlRun,
  CreateKnowledgeSourceBody,
  KnowledgeSource,
  SkippedPage,
  SourceRender,
  SourceSchedule,
  UpdateKnowledgeSourceBody,
} from '@parley/protocol';
import type { Kysely, Selectable } from 'kysely';
import { isExecutable } from '../../../config/chromium.js';
import type { Database } from '../../../db/schema.js';
import type { KnowledgeSourcesTable } from '../../../db/tables/knowledge.js';
import { ApiError, errors } from '../../../errors/errors.js';
import { newId } from '../../../ids.js';
import type { JobQueue } from '../../../jobs/queue.js';
import type { FilesContext, FilesService } from '../../files/service.js';
import { canRead, canWrite, loadKb } from '../knowledge-bases.js';
import { CRAWL_WEBSITE_JOB } from './jobs.js';
import { checkSchedule, nextSyncAfter } from './schedule.js';

/** Pages a source takes when it does not say. */
export const DEFAULT_MAX_PAGES = 500;
/** Links followed from the start page when a source does not say. */
export const DEFAULT_MAX_DEPTH = 10;
/** Runs kept per source (newest first). */
export const RUNS_KEPT = 10;
/** Skipped pages kept in a source's progress. */
export const SKIPPED_KEPT = 100;
/** A crawl whose source has not moved for this long is taken for lost: a sync may start another. */
export const STALE_CRAWL_MS = 15 * 60_000;

export type SourceRow = Selectable<KnowledgeSourcesTable>;

/** A source's crawl settings, as stored in `settings`. */
export interface SourceSettings {
  include: string[];
  exclude: string[];
  maxPages: number;
  maxDepth: number;
  subdomains: boolean;
  /** Pages rendered by JavaScript first (absent in sources made before: `html`). */
  render?: SourceRender;
  /**
   * Its pages' keys carry its id (`web/{sourceId}/{host}/{path}`): another source of the bot took pages of its
   * host when it was made (absent: `web/{host}/{path}`). Not shown in the wire shape.
   */
  ownKeys?: boolean;
}

/** A crawl's progress, as stored in `progress`. */
export interface CrawlProgress {
  counts: CrawlCounts;
  skipped: SkippedPage[];
}

/** Counts of a crawl that has not started. */
export const noCounts = (): CrawlCounts => ({
  found: 0,
  fetched: 0,
  indexed: 0,
  unchanged: 0,
  skipped: 0,
  removed: 0,
  bytes: 0,
});

/**
 * Website sources of a knowledge base (issue #36): a site crawled into files of the bot by the
 * `crawl_website` job; the same rights as the knowledge base itself (viewers read, those who may change every
 * file of the bot manage them).
 */
export interface WebsiteSourcesService {
  /** Whether a source may ask for pages rendered by JavaScript here (PARLEY_CRAWL_RENDER_JS). */
  readonly rendersJavaScript: boolean;
  create(ctx: FilesContext, kbId: string, body: CreateKnowledgeSourceBody): Promise<KnowledgeSource>;
  list(ctx: FilesContext, kbId: string): Promise<KnowledgeSource[]>;
  get(ctx: FilesContext, kbId: string, sourceId: string): Promise<KnowledgeSource>;
  /** Queues a crawl (409 while one is queued or running). */
  /**
   * Changes the settings given (include, exclude, limits, subdomains, schedule); they apply from the next crawl,
   * and a changed schedule counts from now.
   */
  update(
    ctx: FilesContext,
    kbId: string,
    sourceId: string,
    body: UpdateKnowledgeSourceBody,
  ): Promise<KnowledgeSource>;
  sync(ctx: FilesContext, kbId: string, sourceId: string): Promise<KnowledgeSource>;
  /** Asks the running or queued crawl to stop at its next page (nothing to stop: answered as it is). */
  stop(ctx: FilesContext, kbId: string, sourceId: string): Promise<KnowledgeSource>;
  /** Deletes the source and the files of its pages; a running crawl stops. */
  delete(ctx: FilesContext, kbId: string, sourceId: string): Promise<void>;
  /** Queues the crawls whose schedule is due; answers how many (run by every process: a source is taken once). */
  enqueueDue(): Promise<number>;
}

/** What the website sources are built from. */
export interface WebsiteSourcesDeps {
  db: Kysely<Database>;
  jobs: Pick<JobQueue, 'enqueue'>;
  files: Pick<FilesService, 'delete'>;
  clock: () => Date;
  /** The Chromium that renders pages by JavaScript (PARLEY_CRAWL_RENDER_JS; null: rendering is off). */
  chromium: string | null;
}

/** A source row in its wire shape, with its page count. */
export async function toSource(db: Kysely<Database>, row: SourceRow): Promise<KnowledgeSource> {
  const { ownKeys: _, ...settings } = JSON.parse(row.settings) as SourceSettings;
  const progress = JSON.parse(row.progress) as CrawlProgress;
  const pages = await db
    .selectFrom('knowledge_source_pages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('source_id', '=', row.id)
    .executeTakeFirst();
  return {
    id: row.id,
    knowledgeBaseId: row.knowledge_base_id,
    type: 'website',
    url: row.url,
    ...settings,
    render: settings.render ?? 'html',
    schedule: row.schedule as SourceSchedule,
    state: row.state as KnowledgeSource['state'],
    pages: Number(pages?.n ?? 0),
    progress: progress.counts,
    skipped: progress.skipped,
    runs: JSON.parse(row.runs) as CrawlRun[],
    ...(row.next_sync_at ? { nextSyncAt: row.next_sync_at } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The start URL of a source: http(s) with a host, or a 400 naming the field. */
function startUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw errors.invalidPayload('url is not a valid URL', [{ field: 'url', message: 'not a URL' }]);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw errors.invalidPayload(`url must be an http or https URL (got ${url.protocol})`, [
      { field: 'url', message: 'not http(s)' },
    ]);
  }
  if (url.username || url.password)
    throw errors.invalidPayload('url may not carry a user name or password', [
      { field: 'url', message: 'credentials in the URL' },
    ]);
  url.hash = '';
  return url;
}

/**
 * Why a source asking for pages rendered by JavaScript cannot be crawled here (null: it can): the server does not
 * render them (PARLEY_CRAWL_RENDER_JS), or its Chromium is gone since the server started.
 */
function cannotRender(chromium: string | null): string | null {
  if (chromium === null)
    return 'render "javascript" needs PARLEY_CRAWL_RENDER_JS=true on the server (pages rendered in headless Chromium)';
  if (!isExecutable(chromium))
    return `render "javascript" needs Chromium, and ${chromium} (PARLEY_CRAWL_CHROMIUM_PATH, or found on PATH at start) is no longer an executable file: install it again or restart the server with PARLEY_CRAWL_CHROMIUM_PATH set`;
  return null;
}

/**
 * 409 when the knowledge base already has a website source of `url`'s host: its pages are the same files
 * (`web/{host}/{path}`), which two sources would crawl, count and delete over each other.
 */
async function refuseSameHost(tx: Kysely<Database>, kbId: string, url: URL): Promise<void> {
  const rows = await tx
    .selectFrom('knowledge_sources')
    .select(['id', 'url'])
    .where('knowledge_base_id', '=', kbId)
    .execute();
  const same = rows.find((r) => URL.canParse(r.url) && new URL(r.url).host === url.host);
  if (same)
    throw errors.alreadyExists(
      `This knowledge base already has a website source of ${url.host} (${same.id}, ${same.url}): both would crawl the same pages into the same files (web/${url.host}/…). Change that source's include and exclude patterns, or delete it first.`,
    );
}

/**
 * Whether another website source of the bot may take pages of `url`'s host name (the same, or one above or below
 * it, as sources that follow subdomains do): a source made now then keys its pages by its id, so that two
 * sources never write, re-crawl or delete the same file.
 */
async function hostTaken(tx: Kysely<Database>, botId: string, url: URL): Promise<boolean> {
  const rows = await tx.selectFrom('knowledge_sources').select('url').where('bot_id', '=', botId).execute();
  const related = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
  return rows.some((r) => URL.canParse(r.url) && related(new URL(r.url).hostname, url.hostname));
}

/** The website sources service ({@link WebsiteSourcesService}). */
export function websiteSources(deps: WebsiteSourcesDeps): WebsiteSourcesService {
  const { db, jobs, clock } = deps;
  const load = async (ctx: FilesContext, kbId: string, sourceId: string): Promise<SourceRow> => {
    await loadKb(db, ctx, kbId);
    const row = await db
      .selectFrom('knowledge_sources')
      .selectAll()
      .where('id', '=', sourceId)
      .where('knowledge_base_id', '=', kbId)
      .executeTakeFirst();
    if (!row) throw errors.notFound('Source', sourceId);
    return row;
  };
  /** Queues a crawl of a source in one transaction with its `queued` state, if it is not crawling already. */
  const queue = async (row: SourceRow, force: boolean): Promise<boolean> => {
    const now = clock();
    const staleBefore = new Date(now.getTime() - STALE_CRAWL_MS).toISOString();
    return db.transaction().execute(async (tx) => {
      const result = await tx
        .updateTable('knowledge_sources')
        .set({ state: 'queued', stop_requested: 0, updated_at: now.toISOString() })
        .where('id', '=', row.id)
        .where((eb) =>
          force
            ? eb.or([eb('state', '=', 'idle'), eb('updated_at', '<', staleBefore)])
            : eb('state', '=', 'idle'),
        )
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await jobs.enqueue(CRAWL_WEBSITE_JOB, { sourceId: row.id }, { tx });
      return true;
    });
  };
  const reload = async (id: string) =>
    db.selectFrom('knowledge_sources').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  return {
    rendersJavaScript: deps.chromium !== null,
    async create(ctx, kbId, body) {
      canWrite(ctx);
      const url = startUrl(body.url);
      await loadKb(db, ctx, kbId);
      const now = clock();
      const at = now.toISOString();
      const settings: SourceSettings = {
        include: body.include ?? [],
        exclude: body.exclude ?? [],
        maxPages: body.maxPages ?? DEFAULT_MAX_PAGES,
        maxDepth: body.maxDepth ?? DEFAULT_MAX_DEPTH,
        subdomains: body.subdomains ?? false,
        render: body.render ?? 'html',
      };
      const refused = settings.render === 'javascript' ? cannotRender(deps.chromium) : null;
      // 400 when the server does not render at all (the request asks for what is not there), else 409.
      if (refused && deps.chromium === null)
        throw errors.invalidPayload(refused, [{ field: 'render', message: 'not rendered by this server' }]);
      if (refused) throw new ApiError('ResourceLockedConflict', refused);
      const schedule = body.schedule ?? 'off';
      checkSchedule(schedule, now);
      const row: SourceRow = {
        id: newId('src'),
        bot_id: ctx.botId,
        workspace_id: ctx.workspaceId,
        knowledge_base_id: kbId,
        type: 'website',
        url: url.href,
        settings: JSON.stringify(settings),
        schedule,
        state: 'queued',
        stop_requested: 0,
        progress: JSON.stringify({ counts: noCounts(), skipped: [] } satisfies CrawlProgress),
        runs: '[]',
        next_sync_at: nextSyncAfter(schedule, now),
        created_at: at,
        updated_at: at,
      };
      // The first crawl starts at once.
      await db.transaction().execute(async (tx) => {
        await refuseSameHost(tx, kbId, url);
        if (await hostTaken(tx, ctx.botId, url))
          row.settings = JSON.stringify({ ...settings, ownKeys: true } satisfies SourceSettings);
        await tx.insertInto('knowledge_sources').values(row).execute();
        await jobs.enqueue(CRAWL_WEBSITE_JOB, { sourceId: row.id }, { tx });
      });
      return toSource(db, row);
    },
    async list(ctx, kbId) {
      canRead(ctx);
      await loadKb(db, ctx, kbId);
      const rows = await db
        .selectFrom('knowledge_sources')
        .selectAll()
        .where('knowledge_base_id', '=', kbId)
        .orderBy('id')
        .execute();
      return Promise.all(rows.map((r) => toSource(db, r)));
    },
    async get(ctx, kbId, sourceId) {
      canRead(ctx);
      return toSource(db, await load(ctx, kbId, sourceId));
    },
    async update(ctx, kbId, sourceId, body) {
      canWrite(ctx);
      const row = await load(ctx, kbId, sourceId);
      const now = clock();
      if (body.schedule !== undefined) checkSchedule(body.schedule, now);
      const { schedule, ...changed } = body;
      const settings: SourceSettings = { ...(JSON.parse(row.settings) as SourceSettings), ...changed };
      await db
        .updateTable('knowledge_sources')
        .set({
          settings: JSON.stringify(settings),
          ...(schedule !== undefined && schedule !== row.schedule
            ? { schedule, next_sync_at: nextSyncAfter(schedule, now) }
            : {}),
          updated_at: now.toISOString(),
        })
        .where('id', '=', row.id)
        .execute();
      return toSource(db, await reload(row.id));
    },
    async sync(ctx, kbId, sourceId) {
      canWrite(ctx);
      const row = await load(ctx, kbId, sourceId);
      const refused =
        (JSON.parse(row.settings) as SourceSettings).render === 'javascript'
          ? cannotRender(deps.chromium)
          : null;
      if (refused) throw new ApiError('ResourceLockedConflict', refused);
      if (!(await queue(row, true))) {
        throw new ApiError(
          'ResourceLockedConflict',
          `Source "${sourceId}" is already ${row.state}: stop it or wait for it to end`,
        );
      }
      return toSource(db, await reload(row.id));
    },
    async stop(ctx, kbId, sourceId) {
      canWrite(ctx);
      const row = await load(ctx, kbId, sourceId);
      await db
        .updateTable('knowledge_sources')
        .set({ stop_requested: 1, state: 'stopping', updated_at: clock().toISOString() })
        .where('id', '=', row.id)
        .where('state', 'in', ['queued', 'running'])
        .execute();
      return toSource(db, await reload(row.id));
    },
    async delete(ctx, kbId, sourceId) {
      canWrite(ctx);
      const row = await load(ctx, kbId, sourceId);
      // The crawl sees its source gone at its next page and ends; its pages' files go through the files module.
      const pages = await db
        .selectFrom('knowledge_source_pages')
        .select('file_id')
        .where('source_id', '=', row.id)
        .execute();
      await db.deleteFrom('knowledge_sources').where('id', '=', row.id).execute();
      for (const page of pages) {
        try {
          await deps.files.delete(ctx, page.file_id);
        } catch (error) {
          if (!(error instanceof ApiError && error.type === 'ResourceNotFound')) throw error;
        }
      }
    },
    async enqueueDue() {
      const now = clock().toISOString();
      const due = await db
        .selectFrom('knowledge_sources')
        .selectAll()
        .where('schedule', '!=', 'off')
        .where('state', '=', 'idle')
        .where('next_sync_at', '<=', now)
        .limit(100)
        .execute();
      let queued = 0;
      for (const row of due) if (await queue(row, false)) queued++;
      return queued;
    },
  };
}
