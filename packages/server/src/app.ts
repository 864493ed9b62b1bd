import { createHash, randomBytes } from 'node:crypto';
import { AjvCompiler, type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { loadSigningSecret } from './access/signing-secret.js';
import type { BlobStore } from './blob/blob-store.js';
import { blobStoreFromConfig } from './blob/from-config.js';
import type { Config } from './config/config.js';
import type { Db } from './db/database.js';
import { ApiError, errorBody } from './errors/errors.js';
import { guardConnections } from './http/connection-guards.js';
import { authenticate, installRequestContext } from './http/context.js';
import { tokenApiCors } from './http/cors.js';
import { installErrorHandling } from './http/error-handler.js';
import { parseBearer } from './http/headers.js';
import { installJsonBodyParser } from './http/json-body.js';
import { sessionTransport } from './http/session-cookie.js';
import { auditRoutes } from './modules/audit/routes.js';
import { botRoutes, markBot } from './modules/bots/routes.js';
import type { KnowledgeResponder } from './modules/chat/reply-port.js';
import { chatAdminRoutes, chatRoutes } from './modules/chat/routes.js';
import { StreamRegistry } from './modules/chat/stream.js';
import { consoleRoutes } from './modules/console/routes.js';
import { consoleService } from './modules/console/service.js';
import { fileAdminRoutes, fileRoutes, installFilesAuth } from './modules/files/routes.js';
import { identityRoutes } from './modules/identity/routes.js';
import { integrationRoutes } from './modules/integrations/routes.js';
import { knowledgeRoutes } from './modules/knowledge/routes.js';
import { logRoutes } from './modules/logs/routes.js';
import { webchatRoutes } from './modules/webchat/routes.js';
import { webchatService } from './modules/webchat/service.js';
import type { Embedder } from './search/types.js';
import { buildServices, type Services } from './services.js';

/** Largest Admin API request body (spec Limits). */
export const ADMIN_BODY_LIMIT = 50 * 1024 * 1024;
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
  /** Fastify logger option; defaults to pino at the configured level. */
  logger?: FastifyServerOptions['logger'];
  version?: string;
  /** Answers user messages of knowledge-mode bots; default: the built-in knowledge answers; `null`: none. */
  responder?: KnowledgeResponder | null;
}

/** A built app with its services. */
export type ParleyApp = FastifyInstance & { services: Services };

const AJV_OPTIONS = { allErrors: true, useDefaults: true, removeAdditional: false } as const;

/**
 * Validator compilers: coercing for the parts of a request that arrive as text (query, params, headers),
 * strict for JSON bodies. Fastify calls a compiler with the route's schema definition (`{schema, httpPart,
 * …}`); the compiler package's types describe it as taking the schema alone, hence the casts.
 */
const strictBodyValidators: BuildCompilerFromPool = (externalSchemas, options) => {
  const pool = AjvCompiler();
  // Fastify's own `ajv` server option (plugins, onCreate) is kept; only the Ajv options differ.
  const withAjv = (customOptions: Record<string, unknown>) => ({ ...options, customOptions }) as never;
  const coercing = pool(externalSchemas, withAjv({ ...AJV_OPTIONS, coerceTypes: 'array' }));
  const strict = pool(externalSchemas, withAjv({ ...AJV_OPTIONS, coerceTypes: false }));
  const compile = (route: FastifyRouteSchemaDef<unknown>) =>
    (route.httpPart === 'body' ? strict : coercing)(route as never);
  return compile as never;
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
      const body = errorBody(
        new ApiError('InvalidIdentifier', `The request path is not valid: ${error.message}`),
      );
      void (reply as unknown as FastifyReply).status(400).type('application/json; charset=utf-8').send(body);
    },
    trustProxy: config.trustProxy,
    genReqId: () => `req_${randomBytes(10).toString('hex')}`,
    // Query strings, params and headers are text: their values are coerced to the declared types. JSON
    // bodies are not: `{"name": 42}` for a string is a 400 naming the field, never the string "42".
    schemaController: { compilersFactory: { buildValidator: strictBodyValidators } },
  });
  const blobs = deps.blobs ?? blobStoreFromConfig(config);
  const signingSecret = await loadSigningSecret(deps.db.kysely, config.signingSecret);
  // Services and jobs log through the app's logger (a job's lines carry its id, a request's come from req.log).
  const services = buildServices({ ...deps, blobs, signingSecret, logger: app.log });
  const auth = services.identity.resolver;
  app.decorate('services', services);
  installRequestContext(app);

  installErrorHandling(app);
  installJsonBodyParser(app);
  guardConnections(app, {
    headersTimeoutMs: config.connections.headersTimeoutMs,
    bodyTimeoutMs: config.connections.bodyTimeoutMs,
    uploadTimeoutMs: config.connections.uploadTimeoutMs,
    uploadOperations: ['files.uploadFileContent'],
    perAddress: config.connections.perAddress,
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Parley API',
        version: deps.version ?? '0.1.0',
        description:
          'Admin API (`/v1/admin`) of Parley. Authenticate with `Authorization: Bearer <token>`, or in a browser with the session cookie a sign-in (`POST /v1/admin/account/sessions`) sets; workspace-scoped operations also need `x-workspace-id`. Errors answer `{id, code, type, message, metadata?}`.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer' },
          userKey: { type: 'apiKey', in: 'header', name: 'x-user-key' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'parley_session' },
        },
      },
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });

  if (config.rateLimit.max > 0) {
    await app.register(rateLimit, {
      global: true,
      max: config.rateLimit.max,
      timeWindow: config.rateLimit.windowMs,
      enableDraftSpec: true,
      allowList: (req) => !req.url.startsWith('/v1/'),
      keyGenerator: (req) => {
        // Key on the token itself, so "Bearer x", "bearer x" and "Bearer  x" share one bucket;
        // a header that is not a bearer token falls back to the caller's address.
        const token = parseBearer(req.headers.authorization);
        return token ? `t:${createHash('sha256').update(token).digest('hex')}` : `ip:${req.ip}`;
      },
      errorResponseBuilder: (_req, ctx) =>
        new ApiError(
          'RateLimited',
          `Rate limit of ${ctx.max} requests per ${ctx.after} exceeded; retry after the Retry-After delay`,
        ),
    });
  }

  app.get('/healthz', { schema: { operationId: 'health.live', tags: ['health'], hide: true } }, async () => ({
    status: 'ok',
  }));
  app.get(
    '/readyz',
    { schema: { operationId: 'health.ready', tags: ['health'], hide: true } },
    async (_req, reply) => {
      try {
        await deps.db.ping();
        return { status: 'ready', database: deps.db.dialect };
      } catch {
        return reply.status(503).send({ status: 'unavailable', database: deps.db.dialect });
      }
    },
  );
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // Every line of the request log that concerns a bot goes to that bot's log.
  app.addHook('onResponse', async (req, reply) => {
    const botId = req.parley?.botId;
    if (!botId) return;
    try {
      await services.logs.record({
        botId,
        requestId: req.id,
        operationId: (req.routeOptions.schema?.operationId as string | undefined) ?? null,
        method: req.method,
        path: req.url.split('?')[0] ?? req.url,
        statusCode: reply.statusCode,
        durationMs: reply.elapsedTime,
      });
    } catch (error) {
      req.log.warn({ err: error }, 'could not write the bot request log');
    }
  });

  await app.register(
    async (admin) => {
      await admin.register(cors, tokenApiCors(config.corsOrigins));
      // Session cookies (human sign-in) are read on the Admin API only; the Files and Chat APIs take tokens.
      await admin.register(cookie);
      admin.addHook('onRoute', (route) => {
        route.bodyLimit ??= ADMIN_BODY_LIMIT;
      });
      // Admin routes take JSON only: without this, Fastify's default text/plain parser lets a
      // text body through to validation (400) instead of answering 415 UnsupportedMediaType.
      admin.removeContentTypeParser('text/plain');
      // A request without a body is an empty object, so operations whose fields are all optional
      // (creating a key or a token) accept a bare POST, and required fields get named one by one.
      admin.addHook('preValidation', async (req) => {
        if (req.body == null && req.routeOptions.schema?.body) req.body = {};
      });
      // Every Admin route acts in the workspace named by x-workspace-id unless it says otherwise.
      // A signed-in person's session cookie stands for their account where no Authorization header is sent.
      const sessions = sessionTransport(config.publicUrl, config.sessions.maxAgeMs);
      admin.addHook('preHandler', authenticate(auth, 'workspace', sessions));
      const preHandler = (req: Parameters<typeof markBot>[0]) => markBot(req, services.bots, auth);
      identityRoutes(admin, { identity: services.identity, sessions });
      botRoutes(admin, { bots: services.bots, auth });
      integrationRoutes(admin, { integrations: services.integrations, preHandler });
      auditRoutes(admin, { audit: services.audit });
      logRoutes(admin, { logs: services.logs });
      fileAdminRoutes(admin, { files: services.files });
      chatAdminRoutes(admin, { chat: services.chat });
    },
    { prefix: '/v1/admin' },
  );

  await app.register(
    async (filesApi) => {
      await filesApi.register(cors, tokenApiCors(config.corsOrigins));
      filesApi.removeContentTypeParser('text/plain');
      installFilesAuth(filesApi, { files: services.files, auth });
      knowledgeRoutes(filesApi, {
        files: services.files,
        search: services.search,
        passages: services.passages,
        knowledgeBases: services.knowledgeBases,
      });
      fileRoutes(filesApi, { files: services.files });
    },
    { prefix: '/v1/files' },
  );

  const streams = new StreamRegistry({
    perUser: config.chat.maxStreamsPerUser,
    perBot: config.chat.maxStreamsPerBot,
    bufferBytes: config.chat.streamBufferBytes,
    stallMs: config.chat.streamStallMs,
    totalBufferBytes: config.chat.streamTotalBufferBytes,
  });
  await app.register(
    async (chatApi) => {
      // JSON only (415 otherwise); the app's 1 MB body limit applies (413 PayloadTooLarge).
      chatApi.removeContentTypeParser('text/plain');
      chatApi.addHook('preValidation', async (req) => {
        if (req.body == null && req.routeOptions.schema?.body) req.body = {};
      });
      chatRoutes(chatApi, {
        chat: services.chat,
        bus: services.bus,
        pingIntervalMs: config.chat.pingIntervalMs,
        streams,
        sources: services.sources,
      });
    },
    { prefix: '/v1/chat' },
  );
  // Live streams never end by themselves: end them before the server waits for its connections to close.
  app.addHook('preClose', async () => {
    streams.closeAll();
  });

  // The embeddable webchat: its scripts, a bot's public configuration, the hosted chat page.
  webchatRoutes(app, { webchat: webchatService({ bots: services.bots }), publicUrl: config.publicUrl });
  // The Console (packages/console's build): `/` redirects there; every /console/ address answers its page.
  consoleRoutes(app, { console: consoleService() });

  const stopBackground = deps.workers ? services.runner.start() : undefined;
  app.addHook('onClose', async () => {
    await stopBackground?.();
    await services.bus.close();
    await services.embedder?.close();
    await services.reader.close();
  });

  return app as unknown as ParleyApp;
}
