import { AjvCompiler, type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { loadSigningSecret } from './access/signing-secret.js';
import { type BackgroundThread, backgroundThread } from './background-thread.js';
import type { BlobStore } from './blob/blob-store.js';
import { blobStoreFromConfig } from './blob/from-config.js';
import type { Config } from './config/config.js';
import type { Db } from './db/database.js';
import { ApiError } from './errors/errors.js';
import { guardConnections } from './http/connection-guards.js';
import { installRequestContext } from './http/context.js';
import { errorText, installErrorHandling } from './http/error-handler.js';
import { FOREGROUND_OPERATIONS, trackForeground } from './http/foreground.js';
import { installJsonBodyParser } from './http/json-body.js';
import { lazyRequestLogger } from './http/request-logger.js';
import { newRequestId } from './ids.js';
import { newForegroundBuffer } from './jobs/foreground.js';
import { installMetrics } from './metrics/http.js';
import { watchApp } from './metrics/watch.js';
import { CHAT_REPLY_JOB, CHAT_WEBHOOK_JOB } from './modules/chat/job-kinds.js';
import type { KnowledgeResponder } from './modules/chat/reply-port.js';
import { INDEX_FILE_JOB } from './modules/files/contract.js';
import { installPlatform } from './platform.js';
import { closeLexicalMemory } from './search/index/lexical-memory-client.js';
import { closeSqliteReaders } from './search/index/sqlite-readers.js';
import { closeSqliteHnsw } from './search/index/sqlite-vector.js';
import type { Embedder } from './search/types.js';
import { buildServices, embedderPrecision, type Services } from './services.js';
import { installSurfaces } from './surfaces.js';

export { ADMIN_BODY_LIMIT } from './surfaces.js';
/** Largest request body elsewhere (Files, Chat: spec Limits). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** What an app is built from. */
export interface AppDeps {
  config: Config;
  db: Db;
  clock?: () => Date;
  /** Blob store; defaults to the one the configuration names. */
  blobs?: BlobStore;
  /** Embedder; defaults to the configured one (null: lexical search only). */
  embedder?: Embedder | null;
  /**
   * Run the background work in this app: the job workers (indexing, chat) and the periodic tasks (file
   * expiry and garbage, log and signal retention); stopped when it closes.
   */
  workers?: boolean;
  /**
   * With `workers`: crawls and indexing in a background thread of their own (background-thread.ts) instead
   * of this thread; `parley serve` asks for it unless `PARLEY_BACKGROUND_THREAD=false`. The database must be a
   * file or PostgreSQL (the thread opens a connection of its own).
   */
  backgroundThread?: boolean;
  /** Fastify logger option; defaults to pino at the configured level. */
  logger?: FastifyServerOptions['logger'];
  version?: string;
  /** Answers user messages of knowledge-mode bots; default: the built-in knowledge answers; `null`: none. */
  responder?: KnowledgeResponder | null;
  /** When route schemas are compiled (default: at a route's first use); `start` finds a bad schema at once. */
  schemaCompilation?: SchemaCompilation;
}

/** A built app with its services. */
export type ParleyApp = FastifyInstance & { services: Services; backgroundThread?: BackgroundThread };

const AJV_OPTIONS = { allErrors: true, useDefaults: true, removeAdditional: false } as const;

/** When route schemas become code: at a route's first use (the default), or all while the app starts. */
export type SchemaCompilation = 'first-use' | 'start';

/**
 * `compile()` run at the first call of the function it answers, not now. Fastify compiles a validator per part
 * of each route's request and a serializer per response status of each route as the app starts: their
 * generated code and its source text were ~13 MB of an idle `parley serve` (docs/benchmarks/files-transfer.md),
 * for routes a given deployment mostly never calls. A validator's `errors` (Ajv's, read by Fastify after a
 * failed call) are those of the compiled function.
 */
function onFirstUse<F extends (data: never) => unknown>(compile: () => F): F {
  let compiled: F | undefined;
  const first = ((data: never) => {
    compiled ??= compile();
    return compiled(data);
  }) as F;
  Object.defineProperty(first, 'errors', {
    get: () => (compiled as { errors?: unknown } | undefined)?.errors,
  });
  return first;
}

/** A compiled validator as Fastify calls it: true or false, with Ajv's `errors` after a false. */
type Validate = ((...args: unknown[]) => unknown) & { errors?: unknown };

/** The key of a non-finite number in a coerced request part (its top level or one of its arrays), if any. */
function nonFiniteField(data: unknown): string | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  for (const [key, value] of Object.entries(data)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'number' && !Number.isFinite(v))) return key;
  }
  return undefined;
}

/**
 * A coercing validator that also refuses the numbers text coerces to but no list or bound can use: Ajv turns
 * `1e309` and `Infinity` into Infinity, which passes `integer` and `maximum` (and then fails in SQL as a 500).
 */
function finiteNumbersOnly(validate: Validate): Validate {
  let errors: unknown;
  const checked: Validate = (...args) => {
    if (!validate(...args)) {
      errors = validate.errors;
      return false;
    }
    const field = nonFiniteField(args[0]);
    if (field === undefined) return true;
    errors = [{ instancePath: `/${field}`, keyword: 'type', params: {}, message: 'must be a finite number' }];
    return false;
  };
  Object.defineProperty(checked, 'errors', { get: () => errors });
  return checked;
}

/**
 * Validator compilers: coercing for the parts of a request that arrive as text (query, params, headers; a
 * number must be finite), strict for JSON bodies. Fastify calls a compiler with the route's schema
 * definition (`{schema, httpPart, …}`); the compiler package's types describe it as taking the schema alone,
 * hence the casts.
 */
const strictBodyValidators =
  (when: SchemaCompilation): BuildCompilerFromPool =>
  (externalSchemas, options) => {
    const pool = AjvCompiler();
    // Fastify's own `ajv` server option (plugins, onCreate) is kept; only the Ajv options differ.
    const withAjv = (customOptions: Record<string, unknown>) => ({ ...options, customOptions }) as never;
    const coercing = pool(externalSchemas, withAjv({ ...AJV_OPTIONS, coerceTypes: 'array' }));
    const strict = pool(externalSchemas, withAjv({ ...AJV_OPTIONS, coerceTypes: false }));
    const compileNow = (route: FastifyRouteSchemaDef<unknown>) =>
      route.httpPart === 'body'
        ? strict(route as never)
        : finiteNumbersOnly(coercing(route as never) as unknown as Validate);
    const compile = (route: FastifyRouteSchemaDef<unknown>) =>
      when === 'start' ? compileNow(route) : onFirstUse(() => compileNow(route) as (data: never) => unknown);
    return compile as never;
  };

/** Fastify's own response serializers (fast-json-stringify), compiled when {@link SchemaCompilation} says. */
const serializers =
  (when: SchemaCompilation): ReturnType<typeof SerializerSelector> =>
  (externalSchemas, options) => {
    const compileNow = SerializerSelector()(externalSchemas, options);
    if (when === 'start') return compileNow;
    return (route) => onFirstUse(() => compileNow(route));
  };

/**
 * Builds the HTTP app: plugins, error handling, and every module mounted by prefix. Callable many times (tests).
 * @example const app = await buildApp({ config, db }); await app.listen({ port: config.port });
 */
export async function buildApp(deps: AppDeps): Promise<ParleyApp> {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers["x-user-key"]', 'req.headers["x-admin-key"]'],
    },
    bodyLimit: DEFAULT_BODY_LIMIT,
    // A connection silent this long in both directions is closed (streams ping more often than this).
    connectionTimeout: config.connections.idleTimeoutMs,
    // File keys (up to 1024 characters) travel in the path, URL-encoded.
    routerOptions: { maxParamLength: 4096 },
    // Errors raised before routing (malformed URL, over-long parameter) answer in the wire format too.
    frameworkErrors: (error, _req, reply) => {
      const body = errorText(
        new ApiError('InvalidIdentifier', `The request path is not valid: ${error.message}`),
      );
      void (reply as unknown as FastifyReply).status(400).type('application/json; charset=utf-8').send(body);
    },
    trustProxy: config.trustProxy,
    genReqId: newRequestId,
    // A request's logger makes its pino child only when it writes a line (see lazyRequestLogger).
    childLoggerFactory: lazyRequestLogger,
    // Query strings, params and headers are text: their values are coerced to the declared types. JSON
    // bodies are not: `{"name": 42}` for a string is a 400 naming the field, never the string "42".
    schemaController: {
      compilersFactory: {
        buildValidator: strictBodyValidators(deps.schemaCompilation ?? 'first-use'),
        buildSerializer: serializers(deps.schemaCompilation ?? 'first-use'),
      },
    },
  });
  const blobs = deps.blobs ?? (await blobStoreFromConfig(config));
  const signingSecret = await loadSigningSecret(deps.db.kysely, config.signingSecret);
  // Services and jobs log through the app's logger (a job's lines carry its id, a request's come from req.log).
  // Metrics (PARLEY_METRICS) live in a registry of this app's own.
  // prom-client (with its OpenTelemetry API) is imported only when metrics are on.
  const metrics = config.metrics.enabled
    ? new (await import('./metrics/metrics.js')).AppMetrics()
    : undefined;
  // Crawls and indexing in a thread of their own: both threads count the foreground requests in one buffer.
  // A database in memory has no other connection: everything then runs in this thread.
  const database = deps.db.opened?.sqliteFile === ':memory:' ? undefined : deps.db.opened;
  const foregroundShared =
    deps.workers && deps.backgroundThread && database ? newForegroundBuffer() : undefined;
  const services = buildServices({
    ...deps,
    blobs,
    signingSecret,
    logger: app.log,
    metrics,
    embedderPrecision: await embedderPrecision(deps.db, config),
    background: foregroundShared ? { share: 'requests', foreground: foregroundShared } : undefined,
  });
  const _auth = services.identity.resolver;
  app.decorate('services', services);
  installRequestContext(app);

  installErrorHandling(app);
  installJsonBodyParser(app);
  guardConnections(app, {
    headersTimeoutMs: config.connections.headersTimeoutMs,
    bodyTimeoutMs: config.connections.bodyTimeoutMs,
    uploadTimeoutMs: config.connections.uploadTimeoutMs,
    uploadOperations: ['files.uploadFileContent', 'files.appendResumableUpload'],
    uploadMinBytes: config.connections.uploadMinBytes,
    uploadRateWindowMs: config.connections.uploadRateWindowMs,
    uploadsPerUrl: config.connections.uploadsPerUrl,
    uploadsPerAddress: config.connections.uploadsPerAddress,
    perAddress: config.connections.perAddress,
  });

  trackForeground(app, { gate: services.foreground, operations: FOREGROUND_OPERATIONS });
  if (metrics) installMetrics(app, metrics, { token: config.metrics.token });
  await installPlatform(app, { config, db: deps.db, logs: services.logs, version: deps.version });
  const surfaces = await installSurfaces(app, { config, services });
  if (metrics) {
    const clock = deps.clock ?? (() => new Date());
    watchApp(metrics, {
      db: deps.db,
      clock,
      jobKinds: [INDEX_FILE_JOB, CHAT_REPLY_JOB, CHAT_WEBHOOK_JOB],
      openStreams: () => surfaces.streams.size,
      log: app.log,
    });
  }
  const stopBackground = deps.workers ? services.runner.start() : undefined;
  let stopHere: (() => Promise<void>) | undefined;
  const thread =
    foregroundShared && database
      ? backgroundThread({
          config,
          database,
          version: deps.version ?? '0.0.0',
          db: deps.db,
          jobs: services.jobs,
          foreground: foregroundShared,
          metrics,
          log: app.log,
          // Crawls and indexing in this thread, as without the background thread.
          onFailure: () => {
            stopHere ??= services.crawlAndIndexHere?.start();
          },
        })
      : undefined;
  if (thread) {
    app.decorate('backgroundThread', thread);
    // Jobs left waiting by an earlier run (or another process) start the thread as soon as the app is ready.
    app.addHook('onReady', async () => {
      await thread.startIfJobsWait().catch((error: unknown) => {
        // The first job enqueued starts it instead.
        app.log.warn({ err: error }, 'could not tell whether jobs wait for the background thread');
      });
    });
  }
  app.addHook('onClose', async () => {
    await stopBackground?.();
    await thread?.close();
    await stopHere?.();
    await services.logs.close(); // the request log's lines still waiting to be written
    await services.bus.close();
    await services.embedder?.close();
    await services.reader.close();
    await services.pageRenderer?.close();
    await closeSqliteHnsw(deps.db.kysely);
    await closeSqliteReaders(deps.db.kysely);
    await closeLexicalMemory(deps.db.kysely);
  });

  return app as unknown as ParleyApp;
}
