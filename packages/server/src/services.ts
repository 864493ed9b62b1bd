import { registerBackgroundWork, registerCrawlAndIndex } from './background.js';
import { outboundFetch } from './http/outbound.js';
import { foregroundGate, remoteForegroundGate } from './jobs/foreground.js';
import { jobQueue } from './jobs/queue.js';
import { jobRunner } from './jobs/runner.js';
import { type Logger, silentLogger } from './logger.js';
import {
  botContext,
  chatModelFromConfig,
  knowledgeResponder,
  semanticMinSimilarityFor,
  sourceLinks,
  unitMatcherFor,
  yieldsToPassages,
} from './modules/answers/index.js';
import { auditService } from './modules/audit/service.js';
import { botsService } from './modules/bots/service.js';
import { signalBus } from './modules/chat/bus.js';
import { chatHandoffWaitJob } from './modules/chat/handoff-timeout.js';
import { chatReplyJob, chatWebhookJob } from './modules/chat/jobs.js';
import { chatService } from './modules/chat/service.js';
import { chatUsageSource } from './modules/chat/usage.js';
import { identityService } from './modules/identity/service.js';
import { integrationsService } from './modules/integrations/service.js';
import { crawlUserAgent, crawlWebsiteJob } from './modules/knowledge/websites/crawl.js';
import { chromiumRenderer } from './modules/knowledge/websites/render.js';
import { websiteSources } from './modules/knowledge/websites/sources.js';
import { logsService } from './modules/logs/service.js';
import { qaEmbedJob, qaStaleSweep } from './modules/qa/embedding.js';
import { qaService } from './modules/qa/service.js';
import { addUsageSources, knowledgeServices } from './services-knowledge.js';
import type { ServiceDeps, Services } from './services-types.js';

export { embedderPrecision } from './services-knowledge.js';
export type { ServiceDeps, Services } from './services-types.js';

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

/** Everything the service is made of, wired once per app; its background work registered with `runner`. */
export function buildServices(deps: ServiceDeps): Services {
  const clock = deps.clock ?? (() => new Date());
  const logger = deps.logger ?? silentLogger;
  const { config } = deps;
  const admin = adminServices(deps, clock, logger);
  const { bots, identity, bus, logs } = admin;
  const jobs = jobQueue(deps.db.kysely, deps.db.dialect, clock, logger, deps.db.notifications);
  // Searches and chat requests first: crawls and indexing yield to them (jobs/foreground.ts), in this thread
  // or in the background thread (counted in a buffer both threads share).
  const role = deps.background;
  const maxWaitMs = config.search.backgroundMaxWaitMs;
  const foreground =
    role?.share === 'crawl-and-index'
      ? remoteForegroundGate({ maxWaitMs, shared: role.foreground })
      : foregroundGate({ maxWaitMs, ...(role ? { shared: role.foreground } : {}) });
  const knowledge = knowledgeServices({
    ...deps,
    clock,
    jobs,
    bots,
    identity,
    audit: admin.audit,
    foreground,
  });
  const { files, knowledgeBases, search, embedder } = knowledge;
  // What a reply searches and selects passages with: the responder's, and the inbox's mark asks the same.
  const passageDeps = {
    search,
    knowledgeBases,
    semanticMinSimilarity: semanticMinSimilarityFor(embedder),
    units: unitMatcherFor(embedder),
    // An operator's own model that reads every language (PARLEY_EMBEDDING_MULTILINGUAL): not English alone.
    multilingualEmbedder: config.embedder.multilingual,
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
      foreground,
    },
    logger,
  );
  const runner = jobRunner({ queue: jobs, clock, logger });
  const jobHandlers = registerBackgroundWork(
    {
      foreground,
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
    },
    role?.share ?? 'all',
  );
  let crawlAndIndexHere: Services['crawlAndIndexHere'];
  if (role?.share === 'requests') {
    crawlAndIndexHere = jobRunner({ queue: jobs, clock, logger });
    registerCrawlAndIndex({
      config,
      runner: crawlAndIndexHere,
      foreground,
      indexing: knowledge.indexing,
      crawling,
    });
  }
  addUsageSources(config, identity, files, knowledge.index);
  identity.addUsageSource(chatUsageSource(deps.db.kysely, clock));
  return {
    ...admin,
    files,
    jobs,
    jobHandlers,
    runner,
    crawlAndIndexHere,
    foreground,
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
