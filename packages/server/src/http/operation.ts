import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuthKind, Operation } from '@parley/protocol/operations';
import type {
  ContextConfigDefault,
  FastifyInstance,
  preValidationAsyncHookHandler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import type { TSchema } from 'typebox';
import type { AuthLevel } from './context.js';
import { BEARER, responses } from './route-helpers.js';

/** An OpenAPI security requirement list (`[]`: explicitly none). */
export type Security = Array<Record<string, string[]>>;

/** What the operations of one registrar share: their OpenAPI tags and security. */
export interface OperationDefaults {
  /** OpenAPI tags of an operation that names none. */
  tags: string[];
  /**
   * OpenAPI security by the operation's auth level: `default` for operations that set none (the surface's
   * fallback level); an operation whose level is not listed here declares no security.
   */
  security: { default?: Security } & Partial<Record<AuthLevel, Security>>;
  /** The `preValidation` hook of an operation that has none, e.g. the bot log's marker of a bot's routes. */
  preValidation?: preValidationAsyncHookHandler;
}

/**
 * What the Files API's operations share (the files module's routes and the knowledge module's, which serve
 * the same surface): their tag, and a bearer token (the bot named by `x-bot-id`).
 */
export const FILES_OPERATIONS: OperationDefaults = { tags: ['files'], security: { default: BEARER } };

/** The security of the Admin API: a token, whether the operation wants a workspace (the default) or an account. */
export const ADMIN_SECURITY: OperationDefaults['security'] = { default: BEARER, account: BEARER };

/**
 * An operation as a module declares it: everything of its route but the method, path, id and who may call it
 * (its entry of `@parley/protocol/operations`) and the handler.
 */
export interface OperationSpec<P, Q, B> {
  /** Only for a route given as `'METHOD /path'` (one no client sends: not in the operations tables). */
  operationId?: string;
  /** Default: the registrar's tags. */
  tags?: string[];
  /** Only for a route given as `'METHOD /path'`: who may call it (`config.auth`); default: the surface's. */
  auth?: AuthLevel;
  /** Default: the registrar's security for the auth level. */
  security?: Security;
  description?: string;
  /** Left out of the OpenAPI document. */
  hide?: true;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * The success status (200 unless said): the handler's answer goes out with it. Several statuses: the
   * handler picks one itself (`reply.status`), each answering `response`.
   */
  status?: number | [number, ...number[]];
  /** The success body; the 4xx/5xx wire error is added (see `responses`). */
  response?: TSchema;
  /** The whole response map instead of `status` and `response`, as OpenAPI shows it (e.g. a redirect). */
  responses?: Record<string, TSchema>;
  /** A `preValidation` hook, e.g. the bot request log's marker (bots/routes.ts `botMarker`). */
  preValidation?: preValidationAsyncHookHandler;
  /**
   * Largest body in bytes (413 above it); default: the surface's. An operation anyone may call without a
   * credential takes a limit fitted to its fields (e.g. {@link ANONYMOUS_BODY_LIMIT}).
   */
  bodyLimit?: number;
}

/** Largest body of an operation callable without a credential whose fields are a few short strings (sign-in). */
export const ANONYMOUS_BODY_LIMIT = 16 * 1024;

/** The handler of an operation: its request typed by the operation's params, query and body schemas. */
export type OperationHandler<P, Q, B> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  { params: P; querystring: Q; body: B; response: Record<string, TSchema> },
  TypeBoxTypeProvider
>;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** A route as written where no operations table entry names it: `'METHOD /path'`, relative to the prefix. */
type RouteString = `${Method} /${string}`;

/** Declares operations on `app`, each by its table entry (or as `'METHOD /path'`); see `operations`. */
export type Declare = <
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
>(
  route: Operation | RouteString,
  spec: OperationSpec<P, Q, B>,
  handler: OperationHandler<P, Q, B>,
) => void;

/**
 * The Fastify URL of an operation's path template under a plugin's prefix: `/v1/admin/bots/{id}` under
 * `/v1/admin` is `/bots/:id`; the prefix itself is `/`. Throws for a path outside the prefix (a table entry
 * declared on the wrong surface).
 */
export function routeUrl(path: string, prefix: string): string {
  const rest = path.slice(prefix.length);
  if (!path.startsWith(prefix) || (rest !== '' && !rest.startsWith('/'))) {
    throw new Error(`Operation path ${path} is not under the prefix ${prefix}`);
  }
  return rest === '' ? '/' : rest.replace(/\{(\w+)\}/g, ':$1');
}

/** The method, URL, id and auth level of a route: from its table entry, or from `'METHOD /path'` and the spec. */
function routeOf(
  route: Operation | RouteString,
  spec: OperationSpec<unknown, unknown, unknown>,
  prefix: string,
): { method: Method; url: string; operationId: string; auth: AuthKind | undefined } {
  if (typeof route === 'object') {
    return {
      method: route.method,
      url: routeUrl(route.path, prefix),
      operationId: route.operationId,
      auth: route.auth,
    };
  }
  if (!spec.operationId) throw new Error(`Route ${route} needs an operationId`);
  const space = route.indexOf(' ');
  const method = route.slice(0, space) as Method;
  return { method, url: route.slice(space + 1), operationId: spec.operationId, auth: spec.auth };
}

/** `responses()` for the first success status, and the same body for the others. */
function successResponses(status: OperationSpec<unknown, unknown, unknown>['status'], body: TSchema) {
  const [first, ...more] = typeof status === 'object' ? status : [status ?? 200];
  return Object.assign(responses(first, body), ...more.map((code) => ({ [code]: body })));
}

/** The OpenAPI schema of an operation, its keys in the order the document has always listed them. */
export function operationSchema(
  spec: OperationSpec<unknown, unknown, unknown> & { operationId: string },
  defaults: OperationDefaults,
) {
  const security = spec.security ?? defaults.security[spec.auth ?? 'default'];
  const answers =
    spec.responses ?? (spec.response ? successResponses(spec.status, spec.response) : undefined);
  return {
    operationId: spec.operationId,
    tags: spec.tags ?? defaults.tags,
    ...(spec.hide ? { hide: true } : {}),
    ...(security ? { security } : {}),
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.params ? { params: spec.params } : {}),
    ...(spec.query ? { querystring: spec.query } : {}),
    ...(spec.body ? { body: spec.body } : {}),
    ...(answers ? { response: answers } : {}),
  };
}

/**
 * The registrar of a module's operations: one call per operation, its entry of `@parley/protocol/operations`
 * (method, path, id, who may call it: the same the client sends), the rest of the operation (description,
 * params/query/body schemas, success status and body), and a handler whose
 * `req.params`, `req.query` and `req.body` are typed by those schemas. A handler returns the success body; an
 * operation with one non-200 status answers it with that status.
 * @example
 * const op = operations(app, { tags: ['account'], security: ADMIN_SECURITY });
 * op(ACCOUNT_OPERATIONS.listPersonalAccessTokens, { response: Pats },
 *   async (req) => ({ pats: await identity.listPats(req.principal) }));
 */
export function operations(app: FastifyInstance, defaults: OperationDefaults): Declare {
  return (route, spec, handler) => {
    const { method, url, operationId, auth } = routeOf(route, spec, app.prefix);
    const status = typeof spec.status === 'number' ? spec.status : 200;
    const run = handler as unknown as RouteHandlerMethod;
    const preValidation = spec.preValidation ?? defaults.preValidation;
    app.route({
      method,
      url,
      ...(auth ? { config: { auth } } : {}),
      ...(preValidation ? { preValidation } : {}),
      ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
      schema: operationSchema({ ...spec, operationId, ...(auth ? { auth } : {}) }, defaults),
      handler:
        status === 200
          ? run
          : async function (this: FastifyInstance, req, reply) {
              const body = await run.call(this, req, reply);
              if (!reply.sent) reply.status(status);
              return body;
            },
    } as RouteOptions);
  };
}
