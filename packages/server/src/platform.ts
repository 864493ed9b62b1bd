import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config/config.js';
import type { Db } from './db/database.js';
import { ApiError } from './errors/errors.js';
import { installApiDocs } from './http/api-docs.js';
import { parseBearer } from './http/headers.js';
import { rateLimitStore, redisReady } from './http/rate-limit-store.js';
import type { LogsService } from './modules/logs/service.js';

/** What the app-wide parts are built from. */
export interface PlatformDeps {
  config: Config;
  db: Db;
  /** Where the lines of the request log that concern a bot go. */
  logs: Pick<LogsService, 'record'>;
  version?: string | undefined;
}

/**
 * The OpenAPI document (`/openapi.json`, registered with the health checks) and its browsable form (`/docs`),
 * their libraries loaded at first use.
 */
function apiDocs(app: FastifyInstance, { config, version }: PlatformDeps): void {
  installApiDocs(
    app,
    {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Parley API',
          version: version ?? '0.1.0',
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
    },
    { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } },
  );
}

/**
 * The rate limit of the APIs (`/v1/…`), per token (or per address without one); off when the maximum is 0.
 * Counted where every process sees it (Redis when configured, else PostgreSQL; in memory on SQLite's one
 * process). When that store does not answer, requests go through uncounted, with a logged warning.
 */
async function rateLimitApis(app: FastifyInstance, config: Config, db: Db): Promise<void> {
  if (config.rateLimit.max > 0) {
    const where = await rateLimitStore(config, db, app.log);
    if (where.kind === 'redis') {
      app.addHook('onClose', async () => void where.redis.disconnect());
      await redisReady(where.redis, 5000);
    }
    // Loaded only when on (it brings ip-address).
    const { default: rateLimit } = await import('@fastify/rate-limit');
    await app.register(rateLimit, {
      ...(where.kind === 'redis' ? { redis: where.redis, nameSpace: 'parley-rate-limit:' } : {}),
      ...(where.kind === 'postgres' ? { store: where.store } : {}),
      skipOnError: true,
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
}

/** Liveness (`/healthz`), readiness (`/readyz`: the database answers) and the OpenAPI document. */
function healthChecks(app: FastifyInstance, db: Db): void {
  app.get('/healthz', { schema: { operationId: 'health.live', tags: ['health'], hide: true } }, async () => ({
    status: 'ok',
  }));
  app.get(
    '/readyz',
    { schema: { operationId: 'health.ready', tags: ['health'], hide: true } },
    async (req, reply) => {
      try {
        await db.ping();
        return { status: 'ready', database: db.dialect };
      } catch (error) {
        req.log.warn({ err: error }, 'readiness check: the database does not answer');
        return reply.status(503).send({ status: 'unavailable', database: db.dialect });
      }
    },
  );
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/** Every line of the request log that concerns a bot goes to that bot's log. */
function botRequestLog(app: FastifyInstance, logs: PlatformDeps['logs']): void {
  app.addHook('onResponse', async (req, reply) => {
    const botId = req.parley?.botId;
    if (!botId) return;
    try {
      await logs.record({
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
}

/**
 * The parts of the app every surface shares: the OpenAPI document and `/docs`, the rate limit of the APIs,
 * the health checks, and the hook that writes a bot's request log.
 */
export async function installPlatform(app: FastifyInstance, deps: PlatformDeps): Promise<void> {
  apiDocs(app, deps);
  await rateLimitApis(app, deps.config, deps.db);
  healthChecks(app, deps.db);
  botRequestLog(app, deps.logs);
}
