import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { OutboundFetch } from '../../../http/outbound.js';
import type { ForegroundGate } from '../../../jobs/foreground.js';
import type { DocumentReader } from '../../../search/ingest/document-reader.js';
import type { FilesService } from '../../files/service.js';
import type { PageRenderer } from './render.js';

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
  files: Pick<FilesService, 'upsert' | 'uploadBytes' | 'delete'>;
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
  /** The process's foreground requests, yielded to before each page and each page's write (none: never). */
  foreground?: Pick<ForegroundGate, 'yield'> | undefined;
}
