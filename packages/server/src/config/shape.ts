import Type, { type Static, type TSchema } from 'typebox';
import { EMBEDDERS, LOG_LEVELS } from './schema.js';
import { EMBEDDER_PRECISIONS } from './variables/search.js';

const maybe = <T extends TSchema>(type: T) => Type.Union([type, Type.Undefined()]);
const orNull = <T extends TSchema>(type: T) => Type.Union([type, Type.Null()]);

/** Settings of the S3 blob store. */
export const S3_SETTINGS = Type.Object({
  bucket: Type.String(),
  region: Type.String(),
  endpoint: maybe(Type.String()),
  accessKeyId: maybe(Type.String()),
  secretAccessKey: maybe(Type.String()),
  forcePathStyle: Type.Boolean(),
  prefix: Type.String(),
});

/**
 * The shape of the parsed settings ({@link Config}): what `loadConfig` builds from the variables of
 * CONFIG_SCHEMA (durations in ms, quotas null when unlimited, the blob store as one choice). What each
 * setting means, its range and default live with its variable in CONFIG_SCHEMA.
 */
export const CONFIG_SHAPE = Type.Object({
  port: Type.Integer(),
  host: Type.String(),
  dataDir: Type.String(),
  databaseUrl: maybe(Type.String()),
  /** Where the rate limits are counted when set (Redis); else the database (PostgreSQL) or memory (SQLite). */
  redisUrl: maybe(Type.String()),
  publicUrl: Type.String(),
  adminToken: maybe(Type.String()),
  adminPassword: maybe(Type.String()),
  adminEmail: Type.String(),
  logLevel: Type.Enum(LOG_LEVELS),
  rateLimit: Type.Object({ max: Type.Integer(), windowMs: Type.Integer() }),
  logRetentionDays: Type.Integer(),
  /** How long a claimed job stays a process's without its heartbeat. */
  jobLeaseMs: Type.Integer(),
  /** Quotas; null: unlimited. */
  quotas: Type.Object({
    botsPerWorkspace: orNull(Type.Integer()),
    workspaceFileBytes: orNull(Type.Integer()),
    botFileBytes: orNull(Type.Integer()),
    /** Chat users' uploads per workspace, counted apart from the team's files. */
    chatFileBytes: orNull(Type.Integer()),
  }),
  trustProxy: Type.Boolean(),
  /** Bounds on connections and request bodies (slow or many connections from one caller). */
  connections: Type.Object({
    headersTimeoutMs: Type.Integer(),
    bodyTimeoutMs: Type.Integer(),
    uploadTimeoutMs: Type.Integer(),
    /** An upload body must bring this many bytes per window (0: no minimum). */
    uploadMinBytes: Type.Integer(),
    uploadRateWindowMs: Type.Integer(),
    /** Upload bodies at once per upload URL, and per client address (0: no cap), in each process. */
    uploadsPerUrl: Type.Integer(),
    uploadsPerAddress: Type.Integer(),
    idleTimeoutMs: Type.Integer(),
    perAddress: Type.Integer(),
  }),
  /** `'*'` for any origin, else exact origins (`https://host[:port]`). */
  corsOrigins: Type.Union([Type.Literal('*'), Type.Immutable(Type.Array(Type.String()))]),
  /** Where file bytes live: local disk under the data dir (default) or S3. */
  blobStore: Type.Union([
    Type.Object({ kind: Type.Literal('local'), root: Type.String() }),
    Type.Object({ kind: Type.Literal('s3'), ...S3_SETTINGS.properties }),
  ]),
  /** Lifetimes of the URLs the Files API hands out. */
  files: Type.Object({ downloadUrlTtlMs: Type.Integer(), uploadUrlTtlMs: Type.Integer() }),
  /** undefined = generated once and kept in the database. */
  signingSecret: maybe(Type.String()),
  embedder: Type.Object({
    kind: Type.Enum(EMBEDDERS),
    workers: Type.Integer(),
    /** Queries have a worker of their own (PARLEY_EMBEDDER_QUERY_WORKER; use-lite and onnx). */
    queryWorker: Type.Boolean(),
    precision: Type.Enum(EMBEDDER_PRECISIONS),
    modelDir: maybe(Type.String()),
    url: maybe(Type.String()),
    model: maybe(Type.String()),
    apiKey: maybe(Type.String()),
    dimensions: maybe(Type.Integer()),
    /** The embedder reads every language (PARLEY_EMBEDDING_MULTILINGUAL; onnx and openai only). */
    multilingual: Type.Boolean(),
  }),
  search: Type.Object({
    denseWeight: Type.Number(),
    /** Worker threads of a split lexical search (SQLite); 1: in the main thread. */
    threads: Type.Integer(),
    /** Lexical search ranked in the in-memory index (SQLite). */
    lexicalMemory: Type.Boolean(),
    maxIndexableBytes: Type.Integer(),
    indexingTimeoutMs: Type.Integer(),
    indexingConcurrency: Type.Integer(),
    /** Nice value of the threads that index (PARLEY_INDEXING_NICE; Linux). */
    indexingNice: Type.Integer(),
    /** Longest wait of a unit of background work for the foreground (PARLEY_BACKGROUND_MAX_WAIT_MS; 0: none). */
    backgroundMaxWaitMs: Type.Integer(),
    /** Crawls and indexing in a worker thread of their own (PARLEY_BACKGROUND_THREAD). */
    backgroundThread: Type.Boolean(),
    extractionMemoryMb: Type.Integer(),
    extractionTimeoutMs: Type.Integer(),
    workspaceVectorBytes: orNull(Type.Integer()),
    /** Website sources may crawl private addresses (PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES). */
    crawlAllowPrivate: Type.Boolean(),
    /** The Chromium that renders pages by JavaScript (PARLEY_CRAWL_RENDER_JS; null: rendering is off). */
    crawlChromium: orNull(Type.String()),
  }),
  /** The chat model that writes knowledge answers (url undefined: none; bots answer with the passages). */
  chatModel: Type.Object({
    url: maybe(Type.String()),
    model: maybe(Type.String()),
    apiKey: maybe(Type.String()),
    timeoutMs: Type.Integer(),
  }),
  /** Human sign-in: session lifetimes and the throttling of failed sign-ins. */
  sessions: Type.Object({
    idleMs: Type.Integer(),
    maxAgeMs: Type.Integer(),
    failuresPerAccount: Type.Integer(),
    failuresPerAccountTotal: Type.Integer(),
    failuresPerAddress: Type.Integer(),
    failureWindowMs: Type.Integer(),
  }),
  /** The Chat API: live streams, bot replies and webhooks. */
  chat: Type.Object({
    pingIntervalMs: Type.Integer(),
    signalRetentionMs: Type.Integer(),
    webhookTimeoutMs: Type.Integer(),
    webhookMaxAttempts: Type.Integer(),
    replyTimeoutMs: Type.Integer(),
    concurrency: Type.Integer(),
    blockPrivateWebhooks: Type.Boolean(),
    maxStreamsPerUser: Type.Integer(),
    /** Files and bytes one chat user may hold on a bot through the Chat API. */
    maxFilesPerUser: Type.Integer(),
    maxFileBytesPerUser: Type.Integer(),
    maxStreamsPerBot: Type.Integer(),
    streamBufferBytes: Type.Integer(),
    streamStallMs: Type.Integer(),
    streamTotalBufferBytes: Type.Integer(),
  }),
  /** Prometheus metrics at `/metrics` (token undefined: none asked). */
  metrics: Type.Object({ enabled: Type.Boolean(), token: maybe(Type.String()) }),
});

/** Every setting of the service, parsed once from the environment and frozen. */
export type Config = Static<typeof CONFIG_SHAPE>;
/** Settings of the S3 blob store. */
export type S3Settings = Static<typeof S3_SETTINGS>;
/** A log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];
