import { urlSigner } from './access/signed-url.js';
import type { BlobStore } from './blob/blob-store.js';
import type { Config } from './config/config.js';
import type { Db } from './db/database.js';
import { outboundFetch } from './http/outbound.js';
import { jobQueue } from './jobs/queue.js';
import {
  chatModelFromConfig,
  knowledgeResponder,
  semanticMinSimilarityFor,
  sourceLinks,
} from './modules/answers/index.js';
import { auditService } from './modules/audit/service.js';
import { botsService } from './modules/bots/service.js';
import { signalBus } from './modules/chat/bus.js';
import { chatReplyJob, chatWebhookJob } from './modules/chat/jobs.js';
import type { KnowledgeResponder } from './modules/chat/reply-port.js';
import { CHAT_REPLY_JOB, CHAT_WEBHOOK_JOB, chatService } from './modules/chat/service.js';
import { filesService, INDEX_FILE_JOB } from './modules/files/service.js';
import { identityService } from './modules/identity/service.js';
import { integrationsService } from './modules/integrations/service.js';
import { indexFileJob } from './modules/knowledge/indexer.js';
import { knowledgeBaseService } from './modules/knowledge/knowledge-bases.js';
import { passagesService } from './modules/knowledge/passages.js';
import { searchService } from './modules/knowledge/search.js';
import { logsService } from './modules/logs/service.js';
import { documentReader } from './search/document-reader.js';
import { embedderFromConfig } from './search/embed/index.js';
import { createPassageIndex } from './search/index/index.js';
import type { Embedder } from './search/types.js';

/** What services are built from. */
export interface ServiceDeps {
  config: Config;
  db: Db;
  blobs: BlobStore;
  signingSecret: Buffer;
  clock?: () => Date;
  /** The embedder; defaults to the configured one (null: lexical search only). */
  embedder?: Embedder | null;
  /**
   * Answers user messages of knowledge-mode bots; defaults to the built-in knowledge answers (modules/answers).
   * `null`: none, and such bots say they have no answer engine.
   */
  responder?: KnowledgeResponder | null | undefined;
}

/** Everything the service is made of, wired once per app. */
export function buildServices(deps: ServiceDeps) {
  const clock = deps.clock ?? (() => new Date());
  const db = deps.db.kysely;
  const { config } = deps;
  const audit = auditService(db, clock);
  const identity = identityService({ db, clock, config, audit });
  const bus = signalBus({ notifications: deps.db.notifications });
  const bots = botsService({
    db,
    clock,
    config,
    audit,
    identity,
    onChatCredentialsChanged: (botId) => bus.revoke(botId),
  });
  const integrations = integrationsService({ db, clock, audit, identity, bots });
  const logs = logsService({ db, clock, bots, retentionDays: config.logRetentionDays });
  const jobs = jobQueue(db, deps.db.dialect, clock);
  const index = createPassageIndex({ db: deps.db });
  const embedder =
    deps.embedder !== undefined
      ? deps.embedder
      : embedderFromConfig({
          embedder: config.embedder.kind,
          workers: config.embedder.workers,
          ...(config.embedder.url ? { url: config.embedder.url } : {}),
          ...(config.embedder.model ? { model: config.embedder.model } : {}),
          ...(config.embedder.apiKey ? { apiKey: config.embedder.apiKey } : {}),
          ...(config.embedder.dimensions ? { dimensions: config.embedder.dimensions } : {}),
        });
  const files = filesService({
    db,
    blobs: deps.blobs,
    signer: urlSigner(deps.signingSecret, clock),
    clock,
    settings: {
      publicUrl: config.publicUrl,
      downloadUrlTtlMs: config.files.downloadUrlTtlMs,
      uploadUrlTtlMs: config.files.uploadUrlTtlMs,
      quotas: { workspaceBytes: config.quotas.workspaceFileBytes, botBytes: config.quotas.botFileBytes },
    },
    bots,
    auth: identity.resolver,
    jobs,
  });
  const knowledgeBases = knowledgeBaseService({ db, files, clock });
  const search = searchService({
    index,
    embedder: embedder ?? undefined,
    files,
    denseWeight: config.search.denseWeight,
  });
  const passages = passagesService({ db, index, files, jobs, clock });
  const chat = chatService({
    db,
    dialect: deps.db.dialect,
    clock,
    bots,
    files,
    auth: identity.resolver,
    jobs,
    bus,
    signalRetentionMs: config.chat.signalRetentionMs,
  });
  const responder =
    deps.responder !== undefined
      ? (deps.responder ?? undefined)
      : knowledgeResponder({
          search,
          knowledgeBases,
          files,
          chatModel: chatModelFromConfig(config.chatModel),
          semanticMinSimilarity: semanticMinSimilarityFor(embedder),
          publicUrl: config.publicUrl,
        });
  const sources = sourceLinks({ chat, knowledgeBases, files });
  const chatJobHandlers = {
    [CHAT_REPLY_JOB]: chatReplyJob({
      chat,
      bots,
      responder,
      timeoutMs: config.chat.replyTimeoutMs,
    }),
    [CHAT_WEBHOOK_JOB]: chatWebhookJob({
      chat,
      bots,
      log: (record) => logs.record(record),
      fetch: outboundFetch({ blockPrivate: config.chat.blockPrivateWebhooks }),
      timeoutMs: config.chat.webhookTimeoutMs,
      maxAttempts: config.chat.webhookMaxAttempts,
      clock,
    }),
  };
  const reader = documentReader({
    workers: config.search.indexingConcurrency,
    memoryMb: config.search.extractionMemoryMb,
    timeoutMs: Math.min(config.search.extractionTimeoutMs, config.search.indexingTimeoutMs),
  });
  const jobHandlers = {
    [INDEX_FILE_JOB]: indexFileJob({
      db,
      blobs: deps.blobs,
      index,
      embedder: embedder ?? undefined,
      reader,
      clock,
      settings: {
        maxIndexableBytes: config.search.maxIndexableBytes,
        timeoutMs: config.search.indexingTimeoutMs,
        maxAttempts: 5,
        embedBatch: 32,
        workspaceVectorBytes: config.search.workspaceVectorBytes,
      },
    }),
  };
  identity.addUsageSource(async (workspaceId) => [
    {
      type: 'storage_count',
      value: await files.storedBytes({ workspaceId }),
      quota: config.quotas.workspaceFileBytes,
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
  return {
    audit,
    identity,
    bots,
    integrations,
    logs,
    files,
    jobs,
    jobHandlers,
    index,
    embedder,
    /** Extraction and chunking of documents, in worker threads. */
    reader,
    knowledgeBases,
    search,
    passages,
    chat,
    bus,
    /** Where the source links of the bot's answers lead (the Chat API's message source route). */
    sources,
    chatJobHandlers,
    /**
     * Starts this process's background workers: indexing, and apart from it (so a long indexing job never
     * delays a reply) the chat jobs. The answer stops them.
     */
    startWorkers(onError?: (error: unknown) => void): () => Promise<void> {
      const stopIndexing = jobs.start(jobHandlers, {
        concurrency: config.search.indexingConcurrency,
        ...(onError ? { onError } : {}),
      });
      const stopChat = jobs.start(chatJobHandlers, {
        concurrency: config.chat.concurrency,
        pollMs: 200,
        backoffBaseMs: 500,
        ...(onError ? { onError } : {}),
      });
      return async () => {
        await Promise.all([stopIndexing(), stopChat()]);
      };
    },
  };
}
/** The services of an app. */
export type Services = ReturnType<typeof buildServices>;
