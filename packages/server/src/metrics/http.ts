import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/errors.js';
import { parseBearer } from '../http/headers.js';
import type { AppMetrics } from './metrics.js';

/** How `/metrics` is served. */
export interface MetricsRouteOptions {
  /** The bearer token a scraper must send (undefined: none asked). */
  token?: string | undefined;
}

/** The label of a request: its operation id, else its route's `METHOD /pattern`, else `unmatched` (no route). */
export function operationOf(req: FastifyRequest): string {
  const operationId = req.routeOptions.schema?.operationId;
  if (typeof operationId === 'string') return operationId;
  return req.routeOptions.url === undefined ? 'unmatched' : `${req.method} ${req.routeOptions.url}`;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request carries the token (compared in constant time, whatever its length). */
function hasToken(req: FastifyRequest, expected: Buffer): boolean {
  const given = parseBearer(req.headers.authorization);
  return given !== undefined && timingSafeEqual(digest(given), expected);
}

/**
 * Counts and times every answered request by operation id and status, and serves the app's metrics at
 * `GET /metrics` in the Prometheus text format (behind a bearer token when one is set; 401 otherwise).
 * Install it before the surfaces, so that its hook sees every route.
 * @example installMetrics(app, metrics, { token: config.metrics.token });
 */
export function installMetrics(
  app: FastifyInstance,
  metrics: AppMetrics,
  options: MetricsRouteOptions,
): void {
  app.addHook('onResponse', (req, reply, done) => {
    metrics.request(operationOf(req), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  const expected = options.token === undefined ? undefined : digest(options.token);
  app.get(
    '/metrics',
    { schema: { operationId: 'health.metrics', tags: ['health'], hide: true } },
    async (req, reply) => {
      if (expected && !hasToken(req, expected)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new ApiError(
          'Unauthorized',
          'The metrics need the token of PARLEY_METRICS_TOKEN: send Authorization: Bearer <token>',
        );
      }
      const text = await metrics.registry.metrics();
      return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(text);
    },
  );
}
