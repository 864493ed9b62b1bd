import type { FastifyCorsOptions } from '@fastify/cors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: the route answers CORS itself and `@fastify/cors` skips it. */
    cors?: false;
  }
}

/** Request headers a page may send to the Admin and Files APIs (the ones the official client sends). */
export const TOKEN_API_ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'x-workspace-id',
  'x-bot-id',
  'x-integration-id',
  'x-integration-alias',
  'x-user-id',
  'x-user-role',
  'x-destination-bot-id',
];

/** Response headers a page may read: the request id for support, and the rate limit's state. */
export const TOKEN_API_EXPOSED_HEADERS = [
  'x-request-id',
  'retry-after',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
];

/**
 * `@fastify/cors` options of the token APIs (`/v1/admin`, `/v1/files`), registered inside each of their
 * plugins. They authenticate with a bearer token in a header and never read a cookie, so a page on another
 * origin can do nothing its own token does not allow: credentials are never allowed, and `origins` (the
 * setting PARLEY_CORS_ORIGINS) is `'*'` or the exact origins to answer. A request from another origin gets no
 * CORS header, and its preflight is refused (404). Preflights answer 204 in the onRequest hook, before
 * authentication, the rate limit (a route hook) and the bot request log (no bot is resolved).
 *
 * Routes with `config: { cors: false }` (the capability URLs: uploads and downloads) answer their own CORS.
 * @example await admin.register(cors, tokenApiCors(config.corsOrigins));
 */
export function tokenApiCors(origins: '*' | readonly string[]): FastifyCorsOptions {
  const allowed = origins === '*' ? undefined : new Set(origins);
  return {
    origin: allowed
      ? (origin, cb) => {
          cb(null, origin !== undefined && allowed.has(origin) ? origin : false);
        }
      : '*',
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: TOKEN_API_ALLOWED_HEADERS,
    exposedHeaders: TOKEN_API_EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
    // Any OPTIONS answers 204 with the headers, also one that a browser did not send (no Origin).
    strictPreflight: false,
  };
}
