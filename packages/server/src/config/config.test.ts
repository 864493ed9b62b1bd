import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, type ConfigIssue, loadConfig } from './config.js';

const CWD = '/srv/parley';

/** Runs loadConfig and answers the ConfigError it throws (fails the test when it does not throw). */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env, CWD);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

/** Bad values of every variable that has a rule (PARLEY_DATA_DIR accepts any path). */
const BAD_VALUES: Record<string, string[]> = {
  PORT: ['abc', '-1', '65536', '3.5', '80x'],
  HOST: ['bad host'],
  PARLEY_DATABASE_URL: ['mysql://db/parley', 'postgres:/missing-slash', 'sqlite.db', 'postgres://'],
  PARLEY_REDIS_URL: ['http://cache:6379', 'redis:/cache', 'redis://', '127.0.0.1:6379'],
  PARLEY_PUBLIC_URL: [
    'not a url',
    'ftp://files.example.com',
    'https://parley.example.com/?x=1',
    'https://parley.example.com/#top',
  ],
  PARLEY_ADMIN_TOKEN: ['a'.repeat(31), 'a'.repeat(201), `${'a'.repeat(16)} ${'b'.repeat(16)}`],
  PARLEY_ADMIN_PASSWORD: ['eleven char', 'x'.repeat(257)],
  PARLEY_ADMIN_EMAIL: ['admin', 'admin@', 'ad min@example.com'],
  PARLEY_LOG_LEVEL: ['verbose', 'warning'],
  PARLEY_RATE_LIMIT_MAX: ['-1', 'lots', '1000000001'],
  PARLEY_RATE_LIMIT_WINDOW_MS: ['99', '86400001', '1e3'],
  PARLEY_LOG_RETENTION_DAYS: ['0', '3651', 'week'],
  PARLEY_QUOTA_BOTS_PER_WORKSPACE: ['0', '-5', 'many'],
  PARLEY_TRUST_PROXY: ['yes', 'on', '2'],
  PARLEY_HEADERS_TIMEOUT_MS: ['999', 'slow'],
  PARLEY_BODY_TIMEOUT_MS: ['0', 'soon'],
  PARLEY_UPLOAD_TIMEOUT_MS: ['9999', 'long'],
  PARLEY_IDLE_TIMEOUT_MS: ['999', 'idle'],
  PARLEY_MAX_CONNECTIONS_PER_ADDRESS: ['-1', 'many'],
  PARLEY_QUOTA_FILE_STORAGE_BYTES: ['-1', 'lots', '1.5'],
  PARLEY_QUOTA_BOT_FILE_STORAGE_BYTES: ['-1', 'lots'],
  PARLEY_DOWNLOAD_URL_TTL_SECONDS: ['0', '604801', 'soon'],
  PARLEY_UPLOAD_URL_TTL_SECONDS: ['0', '604801', 'soon'],
  PARLEY_SIGNING_SECRET: ['short', 'x'.repeat(31)],
  PARLEY_S3_BUCKET: ['Bad_Bucket', 'ab', 'bucket with space'],
  // Without PARLEY_S3_BUCKET every other S3 variable is reported as set in vain.
  PARLEY_S3_REGION: ['eu-west-1'],
  PARLEY_S3_ENDPOINT: ['http://minio:9000'],
  PARLEY_S3_ACCESS_KEY_ID: ['AKIAEXAMPLE'],
  PARLEY_S3_SECRET_ACCESS_KEY: ['secret'],
  PARLEY_S3_FORCE_PATH_STYLE: ['true'],
  PARLEY_S3_PREFIX: ['parley/'],
  PARLEY_EMBEDDER: ['bert', 'openai-ish'],
  PARLEY_EMBEDDER_WORKERS: ['0', '33', 'two'],
  PARLEY_EMBEDDER_RUNTIME: ['gpu', 'wasm'],
  PARLEY_EMBEDDER_PRECISION: ['fp16', 'int4'],
  // Without PARLEY_EMBEDDER=onnx a model folder is reported as set in vain.
  PARLEY_EMBEDDING_MODEL_DIR: ['/models/bge-small'],
  // Without PARLEY_EMBEDDER=openai the openai settings are reported as set in vain.
  PARLEY_EMBEDDINGS_URL: ['http://127.0.0.1:11434'],
  PARLEY_EMBEDDINGS_MODEL: ['nomic-embed-text'],
  PARLEY_EMBEDDINGS_API_KEY: ['sk-test'],
  PARLEY_EMBEDDINGS_DIMENSIONS: ['768'],
  // Not a boolean; and with the English-only use-lite model it is reported as set in vain.
  PARLEY_EMBEDDING_MULTILINGUAL: ['yes', 'true'],
  PARLEY_SEARCH_DENSE_WEIGHT: ['1.5', '-0.1', 'half'],
  PARLEY_SEARCH_THREADS: ['0', '33', 'all'],
  PARLEY_LEXICAL_MEMORY: ['yes', '2'],
  PARLEY_MAX_INDEXABLE_BYTES: ['0', 'big'],
  PARLEY_INDEXING_TIMEOUT_SECONDS: ['0', 'long'],
  PARLEY_INDEXING_CONCURRENCY: ['0', '65'],
  PARLEY_INDEXING_NICE: ['-1', '20', 'low'],
  PARLEY_EMBEDDER_QUERY_WORKER: ['maybe'],
  PARLEY_JOB_LEASE_SECONDS: ['4', '3601', 'a minute'],
  PARLEY_BACKGROUND_MAX_WAIT_MS: ['-1', '60001', 'short'],
  PARLEY_BACKGROUND_THREAD: ['on', 'maybe'],
  PARLEY_EXTRACTION_MEMORY_MB: ['63', 'half'],
  PARLEY_EXTRACTION_TIMEOUT_SECONDS: ['0', 'soon'],
  PARLEY_QUOTA_VECTOR_STORAGE_BYTES: ['-1', 'lots'],
  PARLEY_CHAT_MODEL_URL: ['ollama:11434', 'not a url'],
  // Without PARLEY_CHAT_MODEL_URL the other chat model settings are reported as set in vain.
  PARLEY_CHAT_MODEL: ['llama3.2'],
  PARLEY_CHAT_MODEL_API_KEY: ['sk-test'],
  PARLEY_CHAT_MODEL_TIMEOUT_MS: ['30000'],
  PARLEY_CHAT_PING_INTERVAL_MS: ['0', 'often'],
  PARLEY_CHAT_SIGNAL_RETENTION_HOURS: ['0', 'a day'],
  PARLEY_CHAT_WEBHOOK_TIMEOUT_MS: ['10', 'slow'],
  PARLEY_CHAT_WEBHOOK_MAX_ATTEMPTS: ['0', '101'],
  PARLEY_CHAT_REPLY_TIMEOUT_MS: ['1', 'long'],
  PARLEY_CHAT_CONCURRENCY: ['0', '257'],
  PARLEY_SESSION_IDLE_HOURS: ['0', '8761', 'long'],
  PARLEY_SESSION_MAX_DAYS: ['0', '3651', 'month'],
  PARLEY_SIGN_IN_MAX_FAILURES_PER_ACCOUNT: ['0', 'few'],
  PARLEY_SIGN_IN_ACCOUNT_CEILING: ['0', '1000001'],
  PARLEY_SIGN_IN_MAX_FAILURES_PER_ADDRESS: ['0', 'many'],
  PARLEY_SIGN_IN_FAILURE_WINDOW_MINUTES: ['0', '1441'],
  PARLEY_CHAT_MAX_STREAMS_PER_USER: ['0', 'many'],
  PARLEY_CHAT_MAX_STREAMS_PER_BOT: ['0', '1000001'],
  PARLEY_CHAT_STREAM_BUFFER_BYTES: ['1023', 'big'],
  PARLEY_CHAT_STREAM_STALL_MS: ['99', 'never'],
  PARLEY_CHAT_STREAM_TOTAL_BUFFER_BYTES: ['1000', '-1'],
  PARLEY_CHAT_MAX_FILES_PER_USER: ['0', 'many'],
  PARLEY_CHAT_MAX_FILE_BYTES_PER_USER: ['-1', 'lots'],
  PARLEY_QUOTA_CHAT_FILE_STORAGE_BYTES: ['-1', 'lots'],
  PARLEY_UPLOAD_MIN_BYTES: ['-1', 'slow'],
  PARLEY_UPLOAD_RATE_WINDOW_MS: ['99', 'a while'],
  PARLEY_MAX_UPLOADS_PER_URL: ['0', '1001'],
  PARLEY_MAX_UPLOADS_PER_ADDRESS: ['-1', 'many'],
  PARLEY_WEBHOOK_BLOCK_PRIVATE_ADDRESSES: ['yes', 'on'],
  PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES: ['yes', 'on'],
  PARLEY_CRAWL_RENDER_JS: ['yes', 'on'],
  // Tested with PARLEY_CRAWL_RENDER_JS=true (COMPANIONS): a path that is no Chromium.
  PARLEY_CRAWL_CHROMIUM_PATH: ['/nonexistent/chromium'],
  PARLEY_METRICS: ['yes', 'on'],
  // Tested with PARLEY_METRICS=true (COMPANIONS); without it the token is reported as set in vain.
  PARLEY_METRICS_TOKEN: ['m'.repeat(15), 'm'.repeat(201), `${'m'.repeat(16)} ${'n'.repeat(16)}`],
  PARLEY_CORS_ORIGINS: [
    'a.example/path',
    'a.example',
    'https://a.example/path',
    'https://a.example/?x=1',
    'ftp://a.example',
    'https://user@a.example',
    'https://*.example.com',
    '*, https://a.example/app',
    'null',
  ],
};

/** Valid companions a bad value is tested with, so that it is the only issue. */
const COMPANIONS: Record<string, Record<string, string>> = {
  PARLEY_CHAT_MODEL_URL: { PARLEY_CHAT_MODEL: 'llama3.2' },
  PARLEY_METRICS_TOKEN: { PARLEY_METRICS: 'true' },
  PARLEY_CRAWL_CHROMIUM_PATH: { PARLEY_CRAWL_RENDER_JS: 'true' },
};

/** The chat settings at their defaults: the defaults test and 'reads every variable' (which sets none of them) expect them. */
const CHAT_DEFAULTS = {
  pingIntervalMs: 30_000,
  signalRetentionMs: 24 * 3_600_000,
  webhookTimeoutMs: 10_000,
  webhookMaxAttempts: 5,
  replyTimeoutMs: 120_000,
  concurrency: 4,
  maxFilesPerUser: 20,
  maxFileBytesPerUser: 100 * 1024 * 1024,
};

/** The upload bounds at their defaults (the defaults test and 'reads every variable' expect them). */
const UPLOAD_DEFAULTS = {
  uploadMinBytes: 16 * 1024,
  uploadRateWindowMs: 30_000,
  uploadsPerUrl: 1,
  uploadsPerAddress: 16,
};

describe('loadConfig defaults', () => {
  const config = loadConfig({}, CWD);

  it('listens on 127.0.0.1:3000', () => {
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
  });

  it('resolves the data dir ./data against the working directory', () => {
    expect(config.dataDir).toBe(resolve(CWD, 'data'));
  });

  it('derives the public URL from host and port', () => {
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
  });

  it('uses SQLite, a generated admin token and the default admin e-mail', () => {
    expect(config.databaseUrl).toBeUndefined();
    expect(config.adminToken).toBeUndefined();
    expect(config.adminEmail).toBe('admin@parley.local');
  });

  it('logs at info, limits 1000 requests a minute, keeps logs 7 days and has no bot quota', () => {
    expect(config.logLevel).toBe('info');
    expect(config.rateLimit).toEqual({ max: 1000, windowMs: 60_000 });
    expect(config.logRetentionDays).toBe(7);
    expect(config.jobLeaseMs).toBe(60_000);
    expect(config.quotas).toEqual({
      botsPerWorkspace: null,
      workspaceFileBytes: null,
      botFileBytes: null,
      chatFileBytes: null,
    });
    expect(config.trustProxy).toBe(false);
    expect(config.connections).toEqual({
      headersTimeoutMs: 20_000,
      bodyTimeoutMs: 30_000,
      uploadTimeoutMs: 10_800_000,
      ...UPLOAD_DEFAULTS,
      idleTimeoutMs: 61_000,
      perAddress: 256,
    });
    expect(config.corsOrigins).toBe('*');
    expect(config.blobStore).toEqual({ kind: 'local', root: join(config.dataDir, 'blobs') });
    expect(config.files).toEqual({ downloadUrlTtlMs: 600_000, uploadUrlTtlMs: 3_600_000 });
    expect(config.signingSecret).toBeUndefined();
    expect(config.embedder).toEqual({
      kind: 'use-lite',
      workers: 1,
      queryWorker: true,
      precision: 'auto',
      modelDir: undefined,
      url: undefined,
      model: undefined,
      apiKey: undefined,
      dimensions: undefined,
      multilingual: false,
    });
    expect(config.search).toEqual({
      denseWeight: 0.15,
      threads: Math.min(4, availableParallelism()),
      lexicalMemory: true,
      maxIndexableBytes: 95 * 1024 * 1024,
      indexingTimeoutMs: 600_000,
      indexingConcurrency: 4,
      indexingNice: 19,
      backgroundMaxWaitMs: 200,
      backgroundThread: true,
      extractionMemoryMb: 512,
      extractionTimeoutMs: 120_000,
      workspaceVectorBytes: null,
      crawlAllowPrivate: false,
      crawlChromium: null,
    });
    expect(config.chatModel).toEqual({
      url: undefined,
      model: undefined,
      apiKey: undefined,
      timeoutMs: 60_000,
    });
    expect(config.chat).toEqual({
      ...CHAT_DEFAULTS,
      blockPrivateWebhooks: false,
      maxStreamsPerUser: 10,
      maxStreamsPerBot: 2_000,
      streamBufferBytes: 262_144,
      streamStallMs: 30_000,
      streamTotalBufferBytes: 67_108_864,
    });
    expect(config.metrics).toEqual({ enabled: false, token: undefined });
  });

  it('treats blank variables as unset', () => {
    const blank = loadConfig({ PORT: '  ', HOST: '', PARLEY_DATABASE_URL: ' ', PARLEY_LOG_LEVEL: '' }, CWD);
    expect(blank.port).toBe(3000);
    expect(blank.host).toBe('127.0.0.1');
    expect(blank.databaseUrl).toBeUndefined();
    expect(blank.logLevel).toBe('info');
  });
});

describe('loadConfig accepted values', () => {
  it('reads every variable', () => {
    const token = 'T'.repeat(40);
    const config = loadConfig(
      {
        PORT: '8080',
        HOST: '0.0.0.0',
        PARLEY_DATA_DIR: '/var/lib/parley',
        PARLEY_DATABASE_URL: 'postgresql://user:pw@db:5432/parley',
        PARLEY_PUBLIC_URL: 'https://chat.example.com/parley/',
        PARLEY_ADMIN_TOKEN: token,
        PARLEY_ADMIN_EMAIL: 'Root@Example.com',
        PARLEY_LOG_LEVEL: 'DEBUG',
        PARLEY_RATE_LIMIT_MAX: '0',
        PARLEY_RATE_LIMIT_WINDOW_MS: '100',
        PARLEY_LOG_RETENTION_DAYS: '3650',
        PARLEY_QUOTA_BOTS_PER_WORKSPACE: '25',
        PARLEY_TRUST_PROXY: 'true',
        PARLEY_HEADERS_TIMEOUT_MS: '10000',
        PARLEY_BODY_TIMEOUT_MS: '15000',
        PARLEY_UPLOAD_TIMEOUT_MS: '3600000',
        PARLEY_IDLE_TIMEOUT_MS: '120000',
        PARLEY_MAX_CONNECTIONS_PER_ADDRESS: '1000',
        PARLEY_QUOTA_FILE_STORAGE_BYTES: '1000000',
        PARLEY_QUOTA_BOT_FILE_STORAGE_BYTES: '5000',
        PARLEY_DOWNLOAD_URL_TTL_SECONDS: '60',
        PARLEY_UPLOAD_URL_TTL_SECONDS: '120',
        PARLEY_SIGNING_SECRET: 's'.repeat(32),
        PARLEY_S3_BUCKET: 'parley-files',
        PARLEY_S3_REGION: 'eu-west-1',
        PARLEY_S3_ENDPOINT: 'http://minio:9000',
        PARLEY_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
        PARLEY_S3_SECRET_ACCESS_KEY: 'secret',
        PARLEY_S3_FORCE_PATH_STYLE: 'false',
        PARLEY_S3_PREFIX: 'parley/',
        PARLEY_EMBEDDER: 'openai',
        PARLEY_EMBEDDER_WORKERS: '2',
        PARLEY_EMBEDDER_QUERY_WORKER: 'false',
        PARLEY_EMBEDDINGS_URL: 'http://127.0.0.1:11434',
        PARLEY_EMBEDDINGS_MODEL: 'nomic-embed-text',
        PARLEY_EMBEDDINGS_API_KEY: 'sk-test',
        PARLEY_EMBEDDINGS_DIMENSIONS: '768',
        PARLEY_EMBEDDING_MULTILINGUAL: 'true',
        PARLEY_SEARCH_DENSE_WEIGHT: '0.3',
        PARLEY_SEARCH_THREADS: '3',
        PARLEY_LEXICAL_MEMORY: 'false',
        PARLEY_MAX_INDEXABLE_BYTES: '1000',
        PARLEY_INDEXING_TIMEOUT_SECONDS: '30',
        PARLEY_INDEXING_CONCURRENCY: '2',
        PARLEY_INDEXING_NICE: '5',
        PARLEY_BACKGROUND_MAX_WAIT_MS: '50',
        PARLEY_BACKGROUND_THREAD: 'false',
        PARLEY_EXTRACTION_MEMORY_MB: '256',
        PARLEY_EXTRACTION_TIMEOUT_SECONDS: '30',
        PARLEY_QUOTA_VECTOR_STORAGE_BYTES: '4096',
        PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES: 'true',
        PARLEY_CHAT_MODEL_URL: 'http://127.0.0.1:11434/v1/',
        PARLEY_CHAT_MODEL: 'llama3.2',
        PARLEY_CHAT_MODEL_API_KEY: 'sk-chat',
        PARLEY_CHAT_MODEL_TIMEOUT_MS: '5000',
        PARLEY_WEBHOOK_BLOCK_PRIVATE_ADDRESSES: 'true',
        PARLEY_CHAT_MAX_STREAMS_PER_USER: '3',
        PARLEY_CHAT_MAX_STREAMS_PER_BOT: '50',
        PARLEY_CHAT_STREAM_BUFFER_BYTES: '65536',
        PARLEY_CHAT_STREAM_STALL_MS: '5000',
        PARLEY_CHAT_STREAM_TOTAL_BUFFER_BYTES: '16777216',
        PARLEY_CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
        PARLEY_ADMIN_PASSWORD: 'twelve chars',
        PARLEY_SESSION_IDLE_HOURS: '2',
        PARLEY_SESSION_MAX_DAYS: '7',
        PARLEY_SIGN_IN_MAX_FAILURES_PER_ACCOUNT: '3',
        PARLEY_SIGN_IN_MAX_FAILURES_PER_ADDRESS: '10',
        PARLEY_SIGN_IN_FAILURE_WINDOW_MINUTES: '5',
        PARLEY_METRICS: 'true',
        PARLEY_METRICS_TOKEN: 'm'.repeat(32),
        PARLEY_JOB_LEASE_SECONDS: '15',
      },
      CWD,
    );
    expect(config).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/var/lib/parley',
      databaseUrl: 'postgresql://user:pw@db:5432/parley',
      publicUrl: 'https://chat.example.com/parley',
      adminToken: token,
      adminPassword: 'twelve chars',
      adminEmail: 'Root@Example.com',
      logLevel: 'debug',
      rateLimit: { max: 0, windowMs: 100 },
      logRetentionDays: 3650,
      jobLeaseMs: 15_000,
      quotas: {
        botsPerWorkspace: 25,
        workspaceFileBytes: 1_000_000,
        botFileBytes: 5000,
        chatFileBytes: null,
      },
      trustProxy: true,
      connections: {
        headersTimeoutMs: 10_000,
        bodyTimeoutMs: 15_000,
        uploadTimeoutMs: 3_600_000,
        ...UPLOAD_DEFAULTS,
        idleTimeoutMs: 120_000,
        perAddress: 1000,
      },
      corsOrigins: ['https://app.example.com', 'http://localhost:5173'],
      blobStore: {
        kind: 's3',
        bucket: 'parley-files',
        region: 'eu-west-1',
        endpoint: 'http://minio:9000',
        accessKeyId: 'AKIAEXAMPLE',
        secretAccessKey: 'secret',
        forcePathStyle: false,
        prefix: 'parley/',
      },
      files: { downloadUrlTtlMs: 60_000, uploadUrlTtlMs: 120_000 },
      signingSecret: 's'.repeat(32),
      embedder: {
        kind: 'openai',
        workers: 2,
        queryWorker: false,
        precision: 'auto',
        modelDir: undefined,
        url: 'http://127.0.0.1:11434',
        model: 'nomic-embed-text',
        apiKey: 'sk-test',
        dimensions: 768,
        multilingual: true,
      },
      search: {
        denseWeight: 0.3,
        threads: 3,
        lexicalMemory: false,
        maxIndexableBytes: 1000,
        indexingTimeoutMs: 30_000,
        indexingConcurrency: 2,
        indexingNice: 5,
        backgroundMaxWaitMs: 50,
        backgroundThread: false,
        extractionMemoryMb: 256,
        extractionTimeoutMs: 30_000,
        workspaceVectorBytes: 4096,
        crawlAllowPrivate: true,
        crawlChromium: null,
      },
      chatModel: {
        url: 'http://127.0.0.1:11434/v1',
        model: 'llama3.2',
        apiKey: 'sk-chat',
        timeoutMs: 5000,
      },
      chat: {
        ...CHAT_DEFAULTS,
        blockPrivateWebhooks: true,
        maxStreamsPerUser: 3,
        maxStreamsPerBot: 50,
        streamBufferBytes: 65_536,
        streamStallMs: 5000,
        streamTotalBufferBytes: 16_777_216,
      },
      sessions: {
        idleMs: 2 * 3_600_000,
        maxAgeMs: 7 * 86_400_000,
        failuresPerAccount: 3,
        failuresPerAccountTotal: 100,
        failuresPerAddress: 10,
        failureWindowMs: 5 * 60_000,
      },
      metrics: { enabled: true, token: 'm'.repeat(32) },
    });
  });

  it('accepts postgres:// and postgresql:// database URLs', () => {
    expect(loadConfig({ PARLEY_DATABASE_URL: 'postgres://u@h/db' }, CWD).databaseUrl).toBe(
      'postgres://u@h/db',
    );
    expect(loadConfig({ PARLEY_DATABASE_URL: 'postgresql://u@h/db' }, CWD).databaseUrl).toBe(
      'postgresql://u@h/db',
    );
  });

  it('removes the trailing slash of the public URL', () => {
    expect(loadConfig({ PARLEY_PUBLIC_URL: 'https://chat.example.com/' }, CWD).publicUrl).toBe(
      'https://chat.example.com',
    );
    expect(loadConfig({ PARLEY_PUBLIC_URL: 'https://chat.example.com' }, CWD).publicUrl).toBe(
      'https://chat.example.com',
    );
    expect(loadConfig({ PARLEY_PUBLIC_URL: 'http://10.0.0.5:8080/a/b/' }, CWD).publicUrl).toBe(
      'http://10.0.0.5:8080/a/b',
    );
  });

  it('derives a public URL that a browser can open from wildcard and IPv6 hosts', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '4000' }, CWD).publicUrl).toBe('http://localhost:4000');
    expect(loadConfig({ HOST: '::' }, CWD).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ HOST: '::1' }, CWD).publicUrl).toBe('http://[::1]:3000');
  });

  it('accepts an admin token of exactly 32 and of exactly 200 characters', () => {
    expect(loadConfig({ PARLEY_ADMIN_TOKEN: 'x'.repeat(32) }, CWD).adminToken).toBe('x'.repeat(32));
    expect(loadConfig({ PARLEY_ADMIN_TOKEN: 'x'.repeat(200) }, CWD).adminToken).toBe('x'.repeat(200));
  });

  it('still accepts PARLEY_EMBEDDER_RUNTIME=tfjs (TensorFlow.js was removed): the same embedder as onnx, int8 included', () => {
    const embedder = (env: Record<string, string>) => loadConfig(env, CWD).embedder;
    expect(embedder({ PARLEY_EMBEDDER_RUNTIME: 'tfjs' })).toEqual(embedder({}));
    expect(embedder({ PARLEY_EMBEDDER_RUNTIME: 'tfjs', PARLEY_EMBEDDER_PRECISION: 'int8' })).toEqual(
      embedder({ PARLEY_EMBEDDER_RUNTIME: 'onnx', PARLEY_EMBEDDER_PRECISION: 'int8' }),
    );
    expect(embedder({ PARLEY_EMBEDDER_RUNTIME: 'tfjs', PARLEY_EMBEDDER_PRECISION: 'int8' }).precision).toBe(
      'int8',
    );
  });

  it('accepts the port bounds 0 and 65535', () => {
    expect(loadConfig({ PORT: '0' }, CWD).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }, CWD).port).toBe(65535);
  });

  it('reads PARLEY_CORS_ORIGINS as * or exact origins, written the way browsers send them', () => {
    const origins = (v: string) => loadConfig({ PARLEY_CORS_ORIGINS: v }, CWD).corsOrigins;
    expect(origins('*')).toBe('*');
    expect(origins(' * ')).toBe('*');
    expect(origins('https://a.example, *')).toBe('*');
    expect(origins('https://a.example')).toEqual(['https://a.example']);
    expect(origins('HTTPS://A.Example:443/,http://127.0.0.1:8080,https://a.example')).toEqual([
      'https://a.example',
      'http://127.0.0.1:8080',
    ]);
    expect(origins('http://[::1]:3000,')).toEqual(['http://[::1]:3000']);
    expect(Object.isFrozen(origins('https://a.example'))).toBe(true);
  });

  it('reads 1 and 0 as PARLEY_TRUST_PROXY true and false', () => {
    expect(loadConfig({ PARLEY_TRUST_PROXY: '1' }, CWD).trustProxy).toBe(true);
    expect(loadConfig({ PARLEY_TRUST_PROXY: '0' }, CWD).trustProxy).toBe(false);
    // Behind a proxy every connection comes from the proxy: no cap per address unless one is set.
    expect(loadConfig({ PARLEY_TRUST_PROXY: '1' }, CWD).connections.perAddress).toBe(0);
  });

  it('returns a frozen object, nested settings included', () => {
    const config = loadConfig({}, CWD);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.rateLimit)).toBe(true);
    expect(Object.isFrozen(config.quotas)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
    expect(config.port).toBe(3000);
  });
});

describe('loadConfig rejections', () => {
  it('has a bad-value case for every variable with a rule', () => {
    expect(Object.keys(CONFIG_VARIABLES).sort()).toEqual(
      [...Object.keys(BAD_VALUES), 'PARLEY_DATA_DIR'].sort(),
    );
  });

  for (const [variable, values] of Object.entries(BAD_VALUES)) {
    for (const value of values) {
      it(`rejects ${variable}=${JSON.stringify(value.length > 40 ? `${value.slice(0, 20)}…` : value)}`, () => {
        const error = configError({ ...COMPANIONS[variable], [variable]: value });
        expect(error.issues).toHaveLength(1);
        expect(error.issues[0]?.variable).toBe(variable);
        expect(error.message).toContain(`  - ${variable}: `);
      });
    }
  }

  /** Cases whose issues are checked by variable name only, sorted: [test name, env, variables]. */
  const namedIssues: Array<[string, Record<string, string>, string[]]> = [
    [
      'checks the S3 settings once a bucket is set, each bad one listed',
      {
        PARLEY_S3_BUCKET: 'parley-files',
        PARLEY_S3_ENDPOINT: 'minio:9000',
        PARLEY_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
        PARLEY_S3_FORCE_PATH_STYLE: 'maybe',
        PARLEY_S3_PREFIX: '/abs',
      },
      ['PARLEY_S3_ENDPOINT', 'PARLEY_S3_FORCE_PATH_STYLE', 'PARLEY_S3_PREFIX', 'PARLEY_S3_SECRET_ACCESS_KEY'],
    ],
    [
      'refuses a metrics token while the metrics are off',
      { PARLEY_METRICS_TOKEN: 'm'.repeat(32) },
      ['PARLEY_METRICS_TOKEN'],
    ],
    [
      'needs a URL and a model for the openai embedder',
      { PARLEY_EMBEDDER: 'openai' },
      ['PARLEY_EMBEDDINGS_MODEL', 'PARLEY_EMBEDDINGS_URL'],
    ],
    [
      'needs a model folder for the onnx embedder',
      { PARLEY_EMBEDDER: 'onnx' },
      ['PARLEY_EMBEDDING_MODEL_DIR'],
    ],
    [
      'refuses a precision for another embedder than use-lite',
      { PARLEY_EMBEDDER: 'none', PARLEY_EMBEDDER_PRECISION: 'int8' },
      ['PARLEY_EMBEDDER_PRECISION'],
    ],
  ];
  for (const [name, env, variables] of namedIssues) {
    it(name, () => {
      expect(
        configError(env)
          .issues.map((i) => i.variable)
          .sort(),
      ).toEqual(variables);
    });
  }

  it('uses path-style addressing by default with a custom endpoint', () => {
    const config = loadConfig(
      { PARLEY_S3_BUCKET: 'parley-files', PARLEY_S3_ENDPOINT: 'http://127.0.0.1:9000' },
      CWD,
    );
    expect(config.blobStore).toMatchObject({
      kind: 's3',
      forcePathStyle: true,
      region: 'us-east-1',
      prefix: '',
    });
  });

  /** Cases whose issues are checked whole, messages included: [test name, env, issues]. */
  const wholeIssues: Array<[string, Record<string, string>, ConfigIssue[]]> = [
    [
      'needs a model name with a chat model URL and checks its time bound',
      { PARLEY_CHAT_MODEL_URL: 'http://127.0.0.1:11434/v1', PARLEY_CHAT_MODEL_TIMEOUT_MS: '10' },
      [
        { variable: 'PARLEY_CHAT_MODEL', message: 'is required with PARLEY_CHAT_MODEL_URL' },
        { variable: 'PARLEY_CHAT_MODEL_TIMEOUT_MS', message: '"10" must be an integer from 100 to 600000' },
      ],
    ],
    [
      'explains that the database URL must be postgres://',
      { PARLEY_DATABASE_URL: 'mysql://db/parley' },
      [
        {
          variable: 'PARLEY_DATABASE_URL',
          message:
            'must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite database)',
        },
      ],
    ],
    [
      'says what an origin is when PARLEY_CORS_ORIGINS holds something else',
      { PARLEY_CORS_ORIGINS: 'https://ok.example, a.example/path' },
      [
        {
          variable: 'PARLEY_CORS_ORIGINS',
          message:
            '"a.example/path" is not an origin: write scheme://host[:port], e.g. https://app.example.com, or * for any',
        },
      ],
    ],
    [
      'states the admin token length rule',
      { PARLEY_ADMIN_TOKEN: 'short' },
      [{ variable: 'PARLEY_ADMIN_TOKEN', message: 'must be 32 to 200 characters without spaces' }],
    ],
    [
      'names the bad value and the allowed range of integers',
      { PORT: '70000' },
      [{ variable: 'PORT', message: '"70000" must be an integer from 0 to 65535' }],
    ],
  ];
  for (const [name, env, issues] of wholeIssues) {
    it(name, () => {
      expect(configError(env).issues).toEqual(issues);
    });
  }

  it('lists every bad value at once in one ConfigError', () => {
    // Written in the order loadConfig reads them: the order the issues come in.
    const env = {
      PORT: 'eighty',
      PARLEY_DATABASE_URL: 'mysql://db',
      PARLEY_PUBLIC_URL: 'ftp://x',
      PARLEY_ADMIN_TOKEN: 'too-short',
      PARLEY_ADMIN_EMAIL: 'nobody',
      PARLEY_LOG_LEVEL: 'loud',
      PARLEY_LOG_RETENTION_DAYS: '0',
    };
    const error = configError(env);
    expect(error.name).toBe('ConfigError');
    expect(error.issues.map((i) => i.variable)).toEqual(Object.keys(env));
    const lines = error.message.split('\n');
    expect(lines[0]).toBe('Invalid configuration:');
    expect(lines).toHaveLength(8);
    for (const issue of error.issues) expect(lines).toContain(`  - ${issue.variable}: ${issue.message}`);
  });
});
