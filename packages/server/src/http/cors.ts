import type { FastifyCorsOptions } from '@fastify/cors';
import { ADMIN_KEY_HEADER, USER_KEY_HEADER } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';

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

/**
 * The CORS policies of what any origin may call, because its credential is a header or the URL itself, never a
 * cookie: the Chat API (the webchat runs on customers' sites and sends `x-user-key`), the capability URLs
 * (signed upload and download URLs), and the webchat's public assets and configuration. Each answer carries
 * its policy's headers; a preflight answers 204 with them. The token APIs' policy is `tokenApiCors` above.
 */
export const OPEN_CORS = {
  chat: {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
    'access-control-allow-headers': `authorization, content-type, ${USER_KEY_HEADER}, ${ADMIN_KEY_HEADER}, last-event-id`,
    'access-control-expose-headers': TOKEN_API_EXPOSED_HEADERS.join(', '),
    'access-control-max-age': '600',
  },
  capability: {
    'access-control-allow-origin': '*',
    // POST, PATCH, DELETE and upload-offset: resumable uploads (modules/files/resumable.ts).
    'access-control-allow-methods': 'GET, HEAD, PUT, POST, PATCH, DELETE, OPTIONS',
    'access-control-allow-headers': 'content-type, range, if-none-match, upload-offset',
    'access-control-expose-headers':
      'content-length, content-range, content-disposition, etag, accept-ranges, x-request-id, upload-offset, upload-length, location',
    'access-control-max-age': '600',
  },
  asset: { 'access-control-allow-origin': '*' },
} as const satisfies Record<string, Record<string, string>>;

/** One of the open CORS policies. */
export type OpenCorsPolicy = keyof typeof OPEN_CORS;

/** Headers a browser reads only on a preflight's answer. */
const PREFLIGHT_ONLY = new Set([
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
]);

/**
 * The headers of an open policy that an answer other than a preflight's carries: allow-origin and
 * expose-headers, the only ones a browser reads there (allow-methods, allow-headers and max-age answer a
 * preflight). Every chat message's answer and stream carried the three others for nothing.
 */
export function openCorsAnswer(policy: OpenCorsPolicy): Readonly<Record<string, string>> {
  return OPEN_CORS_ANSWERS[policy];
}

const OPEN_CORS_ANSWERS = Object.fromEntries(
  Object.entries(OPEN_CORS).map(([policy, headers]) => [
    policy,
    Object.freeze(Object.fromEntries(Object.entries(headers).filter(([name]) => !PREFLIGHT_ONLY.has(name)))),
  ]),
) as Record<OpenCorsPolicy, Readonly<Record<string, string>>>;

/**
 * Gives every answer of a surface (an encapsulated plugin) an open policy's headers ({@link openCorsAnswer}),
 * and answers its preflights (any OPTIONS, before routing and authentication) with 204 and all of them.
 * @example chatApi.register(async (app) => { installOpenCors(app, 'chat'); … });
 */
export function installOpenCors(
  app: FastifyInstance,
  policy: OpenCorsPolicy,
  options: { preflightPaths?: readonly string[] } = {},
): void {
  const answer = openCorsAnswer(policy);
  app.addHook('onRequest', (req, reply, done) => {
    // A preflight is answered here; a hook that answers does not go on (no done()).
    if (req.method === 'OPTIONS') reply.headers(OPEN_CORS[policy]).status(204).send();
    else {
      reply.headers(answer);
      done();
    }
  });
  // A preflight must reach a route of the surface for its hooks to run (an unknown path would 404 first).
  for (const path of options.preflightPaths ?? []) {
    app.options(
      path,
      { config: { cors: false, auth: 'none' }, schema: { hide: true } },
      async (_req, reply) => reply.status(204).send(),
    );
  }
}
