import { availableParallelism } from 'node:os';
import { urlSigner } from './access/signed-url.js';
import { registerBackgroundWork } from './background.js';
import type { BlobStore } from './blob/blob-store.js';
import type { Config } from './config/config.js';
import type { Db } from './db/database.js';
import { outboundFetch } from './http/outbound.js';
import { type JobQueue, jobQueue } from './jobs/queue.js';
import { defineJob, type JobSet } from './jobs/registry.js';
import { type JobRunner, jobRunner } from './jobs/runner.js';
import { type Logger, silentLogger } from './logger.js';
import { meteredEmbedder, meteredIndexingJob, meteredIndexingOutcomes } from './metrics/instrument.js';
import type { AppMetrics } from './metrics/metrics.js';
import {
  botContext,
  chatModelFromConfig,
  knowledgeResponder,
  semanticMinSimilarityFor,
  sourceLinks,
  unitMatcherFor,
  yieldsToPassages,
} from './modules/answers/index.js';
import { type AuditService, auditService } from './modules/audit/service.js';
import { type BotsService, botsService } from './modules/bots/service.js';
import { type SignalBus, signalBus } from './modules/chat/bus.js';
import { chatHandoffWaitJob } from './modules/chat/handoff-timeout.js';
import { chatReplyJob, chatWebhookJob } from './modules/chat/jobs.js';
import type { KnowledgeResponder, SourceLinks } from './modules/chat/reply-port.js';
import { type ChatService, chatService } from './modules/chat/service.js';
import { chatUsageSource } from './modules/chat/usage.js';
import {
  INDEX_EMBED_BATCH,
  INDEX_FILE_BACKOFF,
  INDEX_FILE_MAX_ATTEMPTS,
  IndexFilePayload,
} from './modules/files/jobs.js';
import {
  CHAT_STORAGE_USAGE,
  type FilesService,
  filesService,
  INDEX_FILE_JOB,
} from './modules/files/service.js';
import { type IdentityService, identityService } from './modules/identity/service.js';
import { type IntegrationsService, integrationsService } from './modules/integrations/service.js';
import { embeddingModelKeeper } from './modules/knowledge/embedding-model.js';
import { indexFileJob } from './modules/knowledge/indexer.js';
import { type KnowledgeBaseService, knowledgeBaseService } from './modules/knowledge/knowledge-bases.js';
import { type PassagesService, passagesService } from './modules/knowledge/passages.js';
import { rememberingQueries } from './modules/knowledge/recent-queries.js';
import { type SearchService, searchService } from './modules/knowledge/search.js';
import { crawlUserAgent, crawlWebsiteJob } from './modules/knowledge/websites/crawl.js';
import { chromiumRenderer, type PageRenderer } from './modules/knowledge/websites/render.js';
import { type WebsiteSourcesService, websiteSources } from './modules/knowledge/websites/sources.js';
import { type LogsService, logsService } from './modules/logs/service.js';
import { qaEmbedJob, qaStaleSweep } from './modules/qa/embedding.js';
import { type QaService, qaService } from './modules/qa/service.js';
import { autoUseLitePrecision, embedderFromConfig, type UseLitePrecision } from './search/embed/index.js';
import { createPassageIndex, type PassageIndex, readModelRow } from './search/index/index.js';
import { type DocumentReader, documentReader } from './search/ingest/document-reader.js';
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
  metrics?: AppMetrics | undefined;
  /** Parley's version, named in the User-Agent of website crawls. */
  version?: string | undefined;
}

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

/**
 * What the configured use-lite precision runs as: the one set, or for `auto` (the default) the one
 * `autoUseLitePrecision` picks for the vectors the passage index of `db` holds now (fp32 vectors stay fp32).
 * Read once at start: the index's model changes only when the embedder does.
 */
export async function embedderPrecision(db: Db, config: Config): Promise<UseLitePrecision> {
  const { precision } = config.embedder;
  if (precision !== 'auto') return precision;
  return autoUseLitePrecision((await readModelRow(db.kysely))?.id);
}

/** The configured embedder, unless one is given (null: lexical search only). */
function embedderFor(deps: ServiceDeps): Embedder | null {
  const { config, embedder: given } = deps;
  if (given !== undefined) return given;
  const configured = config.embedder.precision;
  const precision = configured === 'auto' ? deps.embedderPrecision : configured;
  if (precision === undefined && config.embedder.kind === 'use-lite')
    throw new Error('PARLEY_EMBEDDER_PRECISION=auto: pass embedderPrecision(db, config) to buildServices');
  return embedderFromConfig({
    embedder: config.embedder.kind,
    workers: config.embedder.workers,
    ...(precision === undefined ? {} : { precision }),
    ...(config.embedder.modelDir ? { modelDir: config.embedder.modelDir } : {}),
    ...(config.embedder.url ? { url: config.embedder.url } : {}),
    ...(config.embedder.model ? { model: config.embedder.model } : {}),
    ...(config.embedder.apiKey ? { apiKey: config.embedder.apiKey } : {}),
    ...(config.embedder.dimensions ? { dimensions: config.embedder.dimensions } : {}),
  });
}

/** Admin API services: audit, identity, bots, integrations, the request log, and the chat signal bus. */
function adminServices(deps: ServiceDeps, clock: () => Date, logger: Logger) {
  const db = deps.db.kysely;
  const { config } = deps;
  const audit = auditService(db, clock);
  const identity = identityService({ db, clock, config, audit });
  const bus = signalBus({
    notifications: deps.db.notifications,
    onError: (error) => logger.warn({ err: error }, 'chat signal bus: a note could not be sent or read'),
  });
  const bots = botsService({
    db,
    clock,
    config,
    audit,
    identity,
    onChatCredentialsChanged: (botId) => bus.revoke(botId),
  });
  const integrations = integrationsService({ db, clock, audit, identity, bots });
  const logs = logsService({ db, clock, bots, retentionDays: config.logRetentionDays, logger });
  return { audit, identity, bus, bots, integrations, logs };
}

/** Files and knowledge: the files service, the passage index, search, passages and knowledge bases. */
function knowledgeServices(
  deps: ServiceDeps & {
    clock: () => Date;
    jobs: JobQueue;
    bots: BotsService;
    identity: IdentityService;
    audit: AuditService;
  },
) {
  const db = deps.db.kysely;
  const { config, clock, jobs } = deps;
  let fallbacks = 0;
  let fallbackWarnedAt = Number.NEGATIVE_INFINITY;
  let memoryWarnedAt = Number.NEGATIVE_INFINITY;
  const index = createPassageIndex({
    db: deps.db,
    lexicalThreads: config.search.threads,
    onLexicalFallback: (error) => {
      // Same answers, slower and on the event loop: a warning, at most once a minute, counting the searches.
      fallbacks++;
      const now = clock().getTime();
      if (now - fallbackWarnedAt < 60_000) return;
      fallbackWarnedAt = now;
      deps.logger?.warn(
        { err: error, searches: fallbacks },
        'a lexical search reader thread failed; searches scanned in the main thread (warned at most once a minute)',
      );
      fallbacks = 0;
    },
    lexicalMemory: config.search.lexicalMemory,
    onLexicalMemoryFailure: (error) => {
      // FTS5 answered (same passages, slower); the next search starts the index again. At most once a minute.
      const now = clock().getTime();
      if (now - memoryWarnedAt < 60_000) return;
      memoryWarnedAt = now;
      deps.logger?.warn(
        { err: error },
        'the in-memory lexical index failed; FTS5 answers until it is read again (warned at most once a minute)',
      );
    },
    onGraphEvent: (event) => {
      // A failed graph is searched exactly (slower, same answers) and tried again later: worth a warning.
      if (event.kind === 'failed')
        deps.logger?.warn(
          { bot: event.partition, reason: event.message },
          'HNSW graph failed; searching exactly',
        );
      else
        deps.logger?.info(
          { bot: event.partition, vectors: event.size, ms: Math.round(event.ms) },
          `HNSW graph ${event.kind}`,
        );
    },
  });
  // A reply embeds its question for the Q&A entries, then for the passage search: the second time is remembered.
  const embedder = rememberingQueries(meteredEmbedder(embedderFor(deps), deps.metrics));
  const files = filesService({
    logger: deps.logger,
    db,
    blobs: deps.blobs,
    signer: urlSigner(deps.signingSecret, clock),
    clock,
    settings: {
      publicUrl: config.publicUrl,
      downloadUrlTtlMs: config.files.downloadUrlTtlMs,
      uploadUrlTtlMs: config.files.uploadUrlTtlMs,
      quotas: {
        workspaceBytes: config.quotas.workspaceFileBytes,
        botBytes: config.quotas.botFileBytes,
        chatBytes: config.quotas.chatFileBytes,
        chatUserFiles: config.chat.maxFilesPerUser,
        chatUserBytes: config.chat.maxFileBytesPerUser,
      },
      uploadTimeoutMs: config.connections.uploadTimeoutMs,
    },
    bots: deps.bots,
    auth: deps.identity.resolver,
    jobs,
    audit: deps.audit,
  });
  const knowledgeBases = knowledgeBaseService({ db, files, clock, audit: deps.audit });
  const embeddingModel = embedder
    ? embeddingModelKeeper({ index, embedder, files, logger: deps.logger ?? silentLogger })
    : undefined;
  const search = searchService({
    index,
    embedder: embedder ?? undefined,
    embeddingModel,
    files,
    denseWeight: config.search.denseWeight,
  });
  const passages = passagesService({ index, files });
  const reader = documentReader({
    // Extraction is CPU work: more readers than cores only add heap (PARLEY_EXTRACTION_MEMORY_MB each).
    workers: Math.min(config.search.indexingConcurrency, availableParallelism()),
    memoryMb: config.search.extractionMemoryMb,
    timeoutMs: Math.min(config.search.extractionTimeoutMs, config.search.indexingTimeoutMs),
  });
  const indexing = defineJob({
    kind: INDEX_FILE_JOB,
    payload: IndexFilePayload,
    backoff: INDEX_FILE_BACKOFF,
    ...meteredIndexingJob(
      indexFileJob({
        files: meteredIndexingOutcomes(files, deps.metrics),
        blobs: deps.blobs,
        index,
        embedder: embedder ?? undefined,
        embeddingModel,
        reader,
        settings: {
          maxIndexableBytes: config.search.maxIndexableBytes,
          timeoutMs: config.search.indexingTimeoutMs,
          maxAttempts: INDEX_FILE_MAX_ATTEMPTS,
          embedBatch: INDEX_EMBED_BATCH,
          workspaceVectorBytes: config.search.workspaceVectorBytes,
        },
      }),
      deps.metrics,
    ),
  });
  return { index, embedder, embeddingModel, files, knowledgeBases, search, passages, reader, indexing };
}

/** Usage of a workspace and of a bot that only the knowledge side knows: stored bytes, vector storage. */
function addUsageSources(
  config: Config,
  identity: IdentityService,
  files: FilesService,
  index: PassageIndex,
): void {
  identity.addUsageSource(async (workspaceId) => [
    {
      type: 'storage_count',
      value: await files.storedBytes({ workspaceId }),
      quota: config.quotas.workspaceFileBytes,
    },
    {
      type: CHAT_STORAGE_USAGE,
      value: await files.storedBytes({ workspaceId, chat: true }),
      quota: config.quotas.chatFileBytes,
    },
    {
      type: 'knowledgebase_vector_storage',
      value: (await index.storage({ workspaceId })).vectorBytes,
      quota: config.search.workspaceVectorBytes,
    },
  ]);
  files.addBotUsageSource(async (botId) => [
    {
      type: 'knowledgebase_vector_storage',
      value: (await index.storage({ botId })).vectorBytes,
      quota: null,
    },
  ]);
}

/** Everything the service is made of, wired once per app; its background work registered with `runner`. */
export function buildServices(deps: ServiceDeps): Services {
  const clock = deps.clock ?? (() => new Date());
  const logger = deps.logger ?? silentLogger;
  const { config } = deps;
  const admin = adminServices(deps, clock, logger);
  const { bots, identity, bus, logs } = admin;
  const jobs = jobQueue(deps.db.kysely, deps.db.dialect, clock, logger, deps.db.notifications);
  const knowledge = knowledgeServices({ ...deps, clock, jobs, bots, identity, audit: admin.audit });
  const { files, knowledgeBases, search, embedder } = knowledge;
  // What a reply searches and selects passages with: the responder's, and the inbox's mark asks the same.
  const passageDeps = {
    search,
    knowledgeBases,
    semanticMinSimilarity: semanticMinSimilarityFor(embedder),
    units: unitMatcherFor(embedder),
  };
  const qa = qaService({
    db: deps.db.kysely,
    clock,
    audit: admin.audit,
    bots,
    jobs,
    embedder,
    logger,
    yieldsToPassages: (workspaceId, botId, question, match) =>
      yieldsToPassages(passageDeps, logger, botContext(workspaceId, botId), question, match),
  });
  const chat = chatService({
    db: deps.db.kysely,
    dialect: deps.db.dialect,
    clock,
    bots,
    files,
    auth: identity.resolver,
    jobs,
    bus,
    signalRetentionMs: config.chat.signalRetentionMs,
    audit: admin.audit,
    members: identity,
    entries: qa,
  });
  const responder =
    deps.responder !== undefined
      ? (deps.responder ?? undefined)
      : knowledgeResponder({
          ...passageDeps,
          files,
          passages: knowledge.passages,
          chatModel: chatModelFromConfig(config.chatModel),
          entries: qa,
          publicUrl: config.publicUrl,
          logger,
        });
  const chatJobs = [
    chatReplyJob({ chat, bots, responder, timeoutMs: config.chat.replyTimeoutMs }),
    chatWebhookJob({
      chat,
      bots,
      log: (record) => logs.record(record),
      fetch: outboundFetch({ blockPrivate: config.chat.blockPrivateWebhooks }),
      timeoutMs: config.chat.webhookTimeoutMs,
      maxAttempts: config.chat.webhookMaxAttempts,
      clock,
    }),
    chatHandoffWaitJob({ chat, bots }),
    // A saved Q&A entry's wordings are embedded by the chat workers: small, and the next visitor waits for them.
    ...(embedder ? [qaEmbedJob({ db: deps.db.kysely, embedder })] : []),
  ];
  const chromium = config.search.crawlChromium;
  const websites = websiteSources({ db: deps.db.kysely, jobs, files, clock, chromium });
  const crawlFetch = outboundFetch({
    blockPrivate: !config.search.crawlAllowPrivate,
    refusal: { who: 'website crawls', setting: 'PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES' },
  });
  const pageRenderer = chromium
    ? chromiumRenderer({ executablePath: chromium, fetch: crawlFetch, log: logger })
    : null;
  const crawling = crawlWebsiteJob(
    {
      db: deps.db.kysely,
      files,
      fetch: crawlFetch,
      userAgent: crawlUserAgent(deps.version ?? '0.0.0'),
      clock,
      render: pageRenderer ?? undefined,
      reader: knowledge.reader,
    },
    logger,
  );
  const runner = jobRunner({ queue: jobs, clock, logger });
  const jobHandlers = registerBackgroundWork({
    crawling,
    websites,
    config,
    runner,
    indexing: knowledge.indexing,
    chatJobs,
    files,
    logs,
    chat,
    embeddingModel: knowledge.embeddingModel,
    qaStaleSweep: embedder ? qaStaleSweep({ db: deps.db.kysely, embedder }) : undefined,
  });
  addUsageSources(config, identity, files, knowledge.index);
  identity.addUsageSource(chatUsageSource(deps.db.kysely, clock));
  return {
    ...admin,
    files,
    jobs,
    jobHandlers,
    runner,
    index: knowledge.index,
    embedder,
    reader: knowledge.reader,
    knowledgeBases,
    websites,
    pageRenderer,
    search,
    passages: knowledge.passages,
    chat,
    sources: sourceLinks({ chat, knowledgeBases, files }),
    responder,
    qa,
  };
}
