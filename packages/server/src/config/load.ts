import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { findChromium } from './chromium.js';
import { IssueList } from './issues.js';
import { parseOrigins } from './origins.js';
import { type Env, readVariables } from './read.js';
import type { ConfigVariables, VariableName } from './schema.js';
import type { Config } from './shape.js';

/** What the cross-field rules see: the typed variables, which were set, and where to report. */
interface Context {
  v: ConfigVariables;
  set: ReadonlySet<VariableName>;
  issues: IssueList;
}

/** Reports each of `names` that is set although the setting it belongs to is not. */
function setInVain(context: Context, names: readonly VariableName[], message: string): void {
  for (const name of names) if (context.set.has(name)) context.issues.replace(name, message);
}

/** The public URL without its trailing slash, or one a browser can open from the listen address. */
function publicUrl({ v }: Context): string {
  if (v.PARLEY_PUBLIC_URL !== undefined) return new URL(v.PARLEY_PUBLIC_URL).toString().replace(/\/$/, '');
  const host = v.HOST;
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${v.PORT}`;
}

const S3_COMPANIONS: readonly VariableName[] = [
  'PARLEY_S3_REGION',
  'PARLEY_S3_ENDPOINT',
  'PARLEY_S3_ACCESS_KEY_ID',
  'PARLEY_S3_SECRET_ACCESS_KEY',
  'PARLEY_S3_FORCE_PATH_STYLE',
  'PARLEY_S3_PREFIX',
];

/** The blob store: S3 when a bucket is set (its other settings need it, the two keys go together), else disk. */
function blobStore(context: Context, dataDir: string): Config['blobStore'] {
  const { v, issues } = context;
  if (!context.set.has('PARLEY_S3_BUCKET')) {
    setInVain(
      context,
      S3_COMPANIONS,
      'is set but PARLEY_S3_BUCKET is not: set the bucket to store files in S3',
    );
    return Object.freeze({ kind: 'local', root: resolve(dataDir, 'blobs') });
  }
  const key = v.PARLEY_S3_ACCESS_KEY_ID;
  const secret = v.PARLEY_S3_SECRET_ACCESS_KEY;
  if ((key === undefined) !== (secret === undefined)) {
    issues.add(
      key ? 'PARLEY_S3_SECRET_ACCESS_KEY' : 'PARLEY_S3_ACCESS_KEY_ID',
      'PARLEY_S3_ACCESS_KEY_ID and PARLEY_S3_SECRET_ACCESS_KEY go together',
    );
  }
  return Object.freeze({
    kind: 's3',
    bucket: v.PARLEY_S3_BUCKET ?? '', // '' only when the bucket is bad, and then loadConfig throws
    region: v.PARLEY_S3_REGION,
    endpoint: v.PARLEY_S3_ENDPOINT,
    accessKeyId: key,
    secretAccessKey: secret,
    forcePathStyle: v.PARLEY_S3_FORCE_PATH_STYLE ?? v.PARLEY_S3_ENDPOINT !== undefined,
    prefix: v.PARLEY_S3_PREFIX,
  });
}

/**
 * The embedder: the openai one needs a URL and a model, the onnx one a model folder, and the settings of one
 * mean nothing to the others.
 */
function embedder(context: Context): Config['embedder'] {
  const { v, issues } = context;
  if (v.PARLEY_EMBEDDER === 'openai') {
    for (const name of ['PARLEY_EMBEDDINGS_URL', 'PARLEY_EMBEDDINGS_MODEL'] as const) {
      if (!context.set.has(name)) issues.add(name, 'is required with PARLEY_EMBEDDER=openai');
    }
  } else {
    setInVain(
      context,
      [
        'PARLEY_EMBEDDINGS_URL',
        'PARLEY_EMBEDDINGS_MODEL',
        'PARLEY_EMBEDDINGS_API_KEY',
        'PARLEY_EMBEDDINGS_DIMENSIONS',
      ],
      'is set but PARLEY_EMBEDDER is not openai',
    );
  }
  if (v.PARLEY_EMBEDDER === 'onnx') {
    if (!context.set.has('PARLEY_EMBEDDING_MODEL_DIR')) {
      issues.add('PARLEY_EMBEDDING_MODEL_DIR', 'is required with PARLEY_EMBEDDER=onnx');
    }
  } else {
    setInVain(context, ['PARLEY_EMBEDDING_MODEL_DIR'], 'is set but PARLEY_EMBEDDER is not onnx');
  }
  if (v.PARLEY_EMBEDDER !== 'use-lite') {
    setInVain(context, ['PARLEY_EMBEDDER_PRECISION'], 'is set but PARLEY_EMBEDDER is not use-lite');
  }
  if (v.PARLEY_EMBEDDER !== 'onnx' && v.PARLEY_EMBEDDER !== 'openai') {
    setInVain(
      context,
      ['PARLEY_EMBEDDING_MULTILINGUAL'],
      'is set but PARLEY_EMBEDDER is neither onnx nor openai',
    );
  }
  return Object.freeze({
    kind: v.PARLEY_EMBEDDER,
    workers: v.PARLEY_EMBEDDER_WORKERS,
    queryWorker: v.PARLEY_EMBEDDER_QUERY_WORKER,
    precision: v.PARLEY_EMBEDDER_PRECISION,
    modelDir: v.PARLEY_EMBEDDING_MODEL_DIR,
    url: v.PARLEY_EMBEDDINGS_URL,
    model: v.PARLEY_EMBEDDINGS_MODEL,
    apiKey: v.PARLEY_EMBEDDINGS_API_KEY,
    dimensions: v.PARLEY_EMBEDDINGS_DIMENSIONS,
    multilingual: v.PARLEY_EMBEDDING_MULTILINGUAL,
  });
}

/** The Chromium that renders pages by JavaScript: found when rendering is on (else an issue naming the paths tried). */
function crawlChromium(context: Context): string | null {
  const { v, issues } = context;
  if (!v.PARLEY_CRAWL_RENDER_JS) {
    setInVain(context, ['PARLEY_CRAWL_CHROMIUM_PATH'], 'is set but PARLEY_CRAWL_RENDER_JS is not true');
    return null;
  }
  const found = findChromium(v.PARLEY_CRAWL_CHROMIUM_PATH);
  if ('path' in found) return found.path;
  issues.add(
    v.PARLEY_CRAWL_CHROMIUM_PATH === undefined ? 'PARLEY_CRAWL_RENDER_JS' : 'PARLEY_CRAWL_CHROMIUM_PATH',
    found.message,
  );
  return null;
}

/** The chat model: a URL needs a model name; without a URL its other settings mean nothing. */
function chatModel(context: Context): Config['chatModel'] {
  const { v, issues } = context;
  if (!context.set.has('PARLEY_CHAT_MODEL_URL')) {
    setInVain(
      context,
      ['PARLEY_CHAT_MODEL', 'PARLEY_CHAT_MODEL_API_KEY', 'PARLEY_CHAT_MODEL_TIMEOUT_MS'],
      'is set but PARLEY_CHAT_MODEL_URL is not',
    );
  } else if (!context.set.has('PARLEY_CHAT_MODEL')) {
    issues.add('PARLEY_CHAT_MODEL', 'is required with PARLEY_CHAT_MODEL_URL');
  }
  return Object.freeze({
    url: v.PARLEY_CHAT_MODEL_URL?.replace(/\/+$/, ''),
    model: v.PARLEY_CHAT_MODEL,
    apiKey: v.PARLEY_CHAT_MODEL_API_KEY,
    timeoutMs: v.PARLEY_CHAT_MODEL_TIMEOUT_MS,
  });
}

/** The Chat API's streams, replies and webhooks. */
function chat({ v }: Context): Config['chat'] {
  return Object.freeze({
    pingIntervalMs: v.PARLEY_CHAT_PING_INTERVAL_MS,
    signalRetentionMs: v.PARLEY_CHAT_SIGNAL_RETENTION_HOURS * 3_600_000,
    webhookTimeoutMs: v.PARLEY_CHAT_WEBHOOK_TIMEOUT_MS,
    webhookMaxAttempts: v.PARLEY_CHAT_WEBHOOK_MAX_ATTEMPTS,
    replyTimeoutMs: v.PARLEY_CHAT_REPLY_TIMEOUT_MS,
    concurrency: v.PARLEY_CHAT_CONCURRENCY,
    blockPrivateWebhooks: v.PARLEY_WEBHOOK_BLOCK_PRIVATE_ADDRESSES,
    maxStreamsPerUser: v.PARLEY_CHAT_MAX_STREAMS_PER_USER,
    maxFilesPerUser: v.PARLEY_CHAT_MAX_FILES_PER_USER,
    maxFileBytesPerUser: v.PARLEY_CHAT_MAX_FILE_BYTES_PER_USER,
    maxStreamsPerBot: v.PARLEY_CHAT_MAX_STREAMS_PER_BOT,
    streamBufferBytes: v.PARLEY_CHAT_STREAM_BUFFER_BYTES,
    streamStallMs: v.PARLEY_CHAT_STREAM_STALL_MS,
    streamTotalBufferBytes: v.PARLEY_CHAT_STREAM_TOTAL_BUFFER_BYTES,
  });
}

/** Metrics: the token means nothing while they are off. */
function metrics(context: Context): Config['metrics'] {
  const { v } = context;
  if (!v.PARLEY_METRICS) {
    setInVain(context, ['PARLEY_METRICS_TOKEN'], 'is set but PARLEY_METRICS is not true');
  }
  return Object.freeze({ enabled: v.PARLEY_METRICS, token: v.PARLEY_METRICS_TOKEN });
}

/**
 * Connection bounds: idle connections outlive two stream pings; behind a trusted proxy every connection
 * comes from the proxy, so there is no cap per address unless one is set.
 */
function connections({ v, set }: Context): Config['connections'] {
  const uncapped = v.PARLEY_TRUST_PROXY && !set.has('PARLEY_MAX_CONNECTIONS_PER_ADDRESS');
  return Object.freeze({
    headersTimeoutMs: v.PARLEY_HEADERS_TIMEOUT_MS,
    bodyTimeoutMs: v.PARLEY_BODY_TIMEOUT_MS,
    uploadTimeoutMs: v.PARLEY_UPLOAD_TIMEOUT_MS,
    uploadMinBytes: v.PARLEY_UPLOAD_MIN_BYTES,
    uploadRateWindowMs: v.PARLEY_UPLOAD_RATE_WINDOW_MS,
    uploadsPerUrl: v.PARLEY_MAX_UPLOADS_PER_URL,
    uploadsPerAddress: v.PARLEY_MAX_UPLOADS_PER_ADDRESS,
    idleTimeoutMs: Math.max(v.PARLEY_IDLE_TIMEOUT_MS, 2 * v.PARLEY_CHAT_PING_INTERVAL_MS + 1000),
    perAddress: uncapped ? 0 : v.PARLEY_MAX_CONNECTIONS_PER_ADDRESS,
  });
}

/**
 * Parses the settings from `env` against CONFIG_SCHEMA, then applies the rules between variables; lists
 * every bad value at once (a ConfigError, in the order of the variables' table).
 * @example loadConfig(process.env).port // 3000
 */
export function loadConfig(env: Env, cwd: string = process.cwd()): Readonly<Config> {
  const issues = new IssueList();
  const { values: v, set } = readVariables(env, issues);
  const context: Context = { v, set, issues };
  const dataDir = resolve(cwd, v.PARLEY_DATA_DIR);
  const corsOrigins = parseOrigins(v.PARLEY_CORS_ORIGINS, (message) =>
    issues.add('PARLEY_CORS_ORIGINS', message),
  );
  const config: Config = {
    port: v.PORT,
    host: v.HOST,
    dataDir,
    databaseUrl: v.PARLEY_DATABASE_URL,
    redisUrl: v.PARLEY_REDIS_URL,
    publicUrl: publicUrl(context),
    adminToken: v.PARLEY_ADMIN_TOKEN,
    adminPassword: v.PARLEY_ADMIN_PASSWORD,
    adminEmail: v.PARLEY_ADMIN_EMAIL,
    logLevel: v.PARLEY_LOG_LEVEL,
    rateLimit: Object.freeze({ max: v.PARLEY_RATE_LIMIT_MAX, windowMs: v.PARLEY_RATE_LIMIT_WINDOW_MS }),
    logRetentionDays: v.PARLEY_LOG_RETENTION_DAYS,
    jobLeaseMs: v.PARLEY_JOB_LEASE_SECONDS * 1000,
    quotas: Object.freeze({
      botsPerWorkspace: v.PARLEY_QUOTA_BOTS_PER_WORKSPACE ?? null,
      workspaceFileBytes: v.PARLEY_QUOTA_FILE_STORAGE_BYTES ?? null,
      botFileBytes: v.PARLEY_QUOTA_BOT_FILE_STORAGE_BYTES ?? null,
      chatFileBytes: v.PARLEY_QUOTA_CHAT_FILE_STORAGE_BYTES ?? null,
    }),
    trustProxy: v.PARLEY_TRUST_PROXY,
    connections: connections(context),
    corsOrigins,
    blobStore: blobStore(context, dataDir),
    files: Object.freeze({
      downloadUrlTtlMs: v.PARLEY_DOWNLOAD_URL_TTL_SECONDS * 1000,
      uploadUrlTtlMs: v.PARLEY_UPLOAD_URL_TTL_SECONDS * 1000,
    }),
    signingSecret: v.PARLEY_SIGNING_SECRET,
    embedder: embedder(context),
    search: Object.freeze({
      denseWeight: v.PARLEY_SEARCH_DENSE_WEIGHT,
      threads: v.PARLEY_SEARCH_THREADS ?? Math.min(4, availableParallelism()),
      lexicalMemory: v.PARLEY_LEXICAL_MEMORY,
      maxIndexableBytes: v.PARLEY_MAX_INDEXABLE_BYTES,
      indexingTimeoutMs: v.PARLEY_INDEXING_TIMEOUT_SECONDS * 1000,
      indexingConcurrency: v.PARLEY_INDEXING_CONCURRENCY,
      indexingNice: v.PARLEY_INDEXING_NICE,
      backgroundMaxWaitMs: v.PARLEY_BACKGROUND_MAX_WAIT_MS,
      backgroundThread: v.PARLEY_BACKGROUND_THREAD,
      extractionMemoryMb: v.PARLEY_EXTRACTION_MEMORY_MB,
      extractionTimeoutMs: v.PARLEY_EXTRACTION_TIMEOUT_SECONDS * 1000,
      workspaceVectorBytes: v.PARLEY_QUOTA_VECTOR_STORAGE_BYTES ?? null,
      crawlAllowPrivate: v.PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES,
      crawlChromium: crawlChromium(context),
    }),
    chatModel: chatModel(context),
    chat: chat(context),
    sessions: Object.freeze({
      idleMs: v.PARLEY_SESSION_IDLE_HOURS * 3_600_000,
      maxAgeMs: v.PARLEY_SESSION_MAX_DAYS * 86_400_000,
      failuresPerAccount: v.PARLEY_SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
      failuresPerAccountTotal: v.PARLEY_SIGN_IN_ACCOUNT_CEILING,
      failuresPerAddress: v.PARLEY_SIGN_IN_MAX_FAILURES_PER_ADDRESS,
      failureWindowMs: v.PARLEY_SIGN_IN_FAILURE_WINDOW_MINUTES * 60_000,
    }),
    metrics: metrics(context),
  };
  issues.throwIfAny();
  return Object.freeze(config);
}
