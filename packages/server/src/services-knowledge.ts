import { availableParallelism } from 'node:os';
import { urlSigner } from './access/signed-url.js';
import type { Config } from './config/config.js';
import type { Db } from './db/database.js';
import type { ForegroundGate } from './jobs/foreground.js';
import type { JobQueue } from './jobs/queue.js';
import { defineJob } from './jobs/registry.js';
import { silentLogger } from './logger.js';
import { meteredEmbedder, meteredIndexingJob, meteredIndexingOutcomes } from './metrics/instrument.js';
import type { AuditService } from './modules/audit/service.js';
import type { BotsService } from './modules/bots/service.js';
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
import type { IdentityService } from './modules/identity/service.js';
import { embeddingModelKeeper } from './modules/knowledge/embedding-model.js';
import { indexFileJob } from './modules/knowledge/indexer.js';
import { knowledgeBaseService } from './modules/knowledge/knowledge-bases.js';
import { passagesService } from './modules/knowledge/passages.js';
import { rememberingQueries } from './modules/knowledge/recent-queries.js';
import { searchService } from './modules/knowledge/search.js';
import { autoUseLitePrecision, embedderFromConfig, type UseLitePrecision } from './search/embed/index.js';
import { createPassageIndex, type PassageIndex, readModelRow } from './search/index/index.js';
import { documentReader } from './search/ingest/document-reader.js';
import type { Embedder } from './search/types.js';
import type { ServiceDeps } from './services-types.js';

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
    queryWorker: config.embedder.queryWorker,
    bulkNice: config.search.indexingNice,
    ...(precision === undefined ? {} : { precision }),
    ...(config.embedder.modelDir ? { modelDir: config.embedder.modelDir } : {}),
    ...(config.embedder.url ? { url: config.embedder.url } : {}),
    ...(config.embedder.model ? { model: config.embedder.model } : {}),
    ...(config.embedder.apiKey ? { apiKey: config.embedder.apiKey } : {}),
    ...(config.embedder.dimensions ? { dimensions: config.embedder.dimensions } : {}),
  });
}

/** Files and knowledge: the files service, the passage index, search, passages and knowledge bases. */
export function knowledgeServices(
  deps: ServiceDeps & {
    clock: () => Date;
    jobs: JobQueue;
    bots: BotsService;
    identity: IdentityService;
    audit: AuditService;
    foreground: ForegroundGate;
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
    ...(deps.background?.share === 'crawl-and-index' ? { vectorGraphs: deps.background.vectorGraphs } : {}),
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
    foreground: deps.foreground,
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
    nice: config.search.indexingNice,
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
          nice: config.search.indexingNice,
        },
      }),
      deps.metrics,
    ),
  });
  return { index, embedder, embeddingModel, files, knowledgeBases, search, passages, reader, indexing };
}

/** Usage of a workspace and of a bot that only the knowledge side knows: stored bytes, vector storage. */
export function addUsageSources(
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
