import type { BlobStore } from './blob/blob-store.js';
import type { Config } from './config/config.js';
import type { Db } from './db/database.js';
import type { ForegroundGate } from './jobs/foreground.js';
import type { JobQueue } from './jobs/queue.js';
import type { JobSet } from './jobs/registry.js';
import type { JobRunner } from './jobs/runner.js';
import type { Logger } from './logger.js';
import type { IndexingMetrics } from './metrics/instrument.js';
import type { AuditService } from './modules/audit/service.js';
import type { BotsService } from './modules/bots/service.js';
import type { SignalBus } from './modules/chat/bus.js';
import type { KnowledgeResponder, SourceLinks } from './modules/chat/reply-port.js';
import type { ChatService } from './modules/chat/service.js';
import type { FilesService } from './modules/files/service.js';
import type { IdentityService } from './modules/identity/service.js';
import type { IntegrationsService } from './modules/integrations/service.js';
import type { KnowledgeBaseService } from './modules/knowledge/knowledge-bases.js';
import type { PassagesService } from './modules/knowledge/passages.js';
import type { SearchService } from './modules/knowledge/search.js';
import type { PageRenderer } from './modules/knowledge/websites/render.js';
import type { WebsiteSourcesService } from './modules/knowledge/websites/sources.js';
import type { LogsService } from './modules/logs/service.js';
import type { QaService } from './modules/qa/service.js';
import type { UseLitePrecision } from './search/embed/index.js';
import type { PassageIndex, VectorGraphs } from './search/index/index.js';
import type { DocumentReader } from './search/ingest/document-reader.js';
import type { Embedder } from './search/types.js';

/** What services are built from. */
export interface ServiceDeps {
  config: Config;
  db: Db;
  blobs: BlobStore;
  signingSecret: Buffer;
  clock?: () => Date;
  /** Where services and jobs log what they handle without failing (default: nowhere; the app passes `app.log`). */
  logger?: Logger;
  /** The embedder; defaults to the configured one (null: lexical search only). */
  embedder?: Embedder | null;
  /**
   * What the configured use-lite precision runs as on this database ({@link embedderPrecision}); needed to
   * build the configured embedder when the precision is `auto`.
   */
  embedderPrecision?: UseLitePrecision;
  /**
   * Answers user messages of knowledge-mode bots; defaults to the built-in knowledge answers (modules/answers).
   * `null`: none, and such bots say they have no answer engine.
   */
  responder?: KnowledgeResponder | null | undefined;
  /** The app's metrics (PARLEY_METRICS): the embedder and indexing are measured into them. */
  metrics?: IndexingMetrics | undefined;
  /** Parley's version, named in the User-Agent of website crawls. */
  version?: string | undefined;
  /** Crawls and indexing in a background thread of their own (undefined: everything in this thread). */
  background?: BackgroundRole | undefined;
}

/**
 * The two sides of a process whose crawls and indexing run in a background thread (background-thread.ts):
 * `requests`, the thread serving requests (its runner leaves crawls and indexing to the other thread), and
 * `crawl-and-index`, that thread (its runner has nothing else). Both count the foreground requests in flight
 * in `foreground` (the thread yields to them); the thread's passage index sends its HNSW changes to
 * `vectorGraphs` (the requests side owns the graphs its searches use).
 */
export type BackgroundRole =
  | { share: 'requests'; foreground: SharedArrayBuffer }
  | { share: 'crawl-and-index'; foreground: SharedArrayBuffer; vectorGraphs: VectorGraphs | undefined };

/** Everything the service is made of, wired once per app. */
export interface Services {
  audit: AuditService;
  identity: IdentityService;
  bots: BotsService;
  integrations: IntegrationsService;
  logs: LogsService;
  files: FilesService;
  /** The durable job queue (enqueue typed by kind). */
  jobs: JobQueue;
  /** The indexing workers' jobs (`index_file`), for tests that drive the queue with `jobs.runOne`. */
  jobHandlers: JobSet;
  /** This process's background work: job workers and periodic tasks; `buildApp` starts it with `workers`. */
  runner: JobRunner;
  /**
   * On the `requests` side of a background thread: the indexing and crawl workers in this thread, started
   * only when the background thread cannot run.
   */
  crawlAndIndexHere: JobRunner | undefined;
  /** This process's foreground requests in flight, which its crawls and indexing yield to. */
  foreground: ForegroundGate;
  index: PassageIndex;
  embedder: Embedder | null;
  /** Extraction and chunking of documents, in worker threads. */
  reader: DocumentReader;
  knowledgeBases: KnowledgeBaseService;
  /** Website sources of knowledge bases (crawled by the `crawl_website` job). */
  websites: WebsiteSourcesService;
  /** Renders crawled pages by JavaScript (PARLEY_CRAWL_RENDER_JS; null: off); closed with the app. */
  pageRenderer: PageRenderer | null;
  search: SearchService;
  passages: PassagesService;
  chat: ChatService;
  bus: SignalBus;
  /** Where the source links of the bot's answers lead (the Chat API's message source route). */
  sources: SourceLinks;
  /** The knowledge answers the chat reply job asks (undefined: none); the answer preview asks the same. */
  responder: KnowledgeResponder | undefined;
  /** Bots' Q&A entries (answered before any passage search). */
  qa: QaService;
}
