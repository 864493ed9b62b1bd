import type { AuthKind } from '@parley/protocol/operations';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor, Principal } from '../access/principal.js';
import { errors } from '../errors/errors.js';
import { header, parseBearer } from './headers.js';
import { changesState, requireSameOrigin, type SessionTransport, sessionCookie } from './session-cookie.js';

/** A bot a request reads for itself, which a bot access key of it may stand on (see AuthResolver.resolveToken). */
export type ReadBot = { id: string; workspaceId: string };

/** Resolves tokens and workspace membership; implemented by the identity service (http/ knows no module). */
export interface AuthResolver {
  /**
   * The principal a token value stands for, or undefined when unknown, revoked or expired. `readBot`: a bot
   * whose row the caller reads in this request (or its read under way, so the token is looked up meanwhile);
   * a bot access key of that bot takes its workspace from it instead of reading the row again (any other
   * token is resolved as without it). A `readBot` that fails fails the call.
   */
  resolveToken(value: string, readBot?: ReadBot | Promise<ReadBot>): Promise<Principal | undefined>;
  /** The account principal of a session cookie's value, or undefined when unknown, ended or revoked. */
  resolveSession(value: string): Promise<Principal | undefined>;
  /** The actor a principal is inside a workspace, or undefined when it does not belong there. */
  resolveActor(principal: Principal, workspaceId: string): Promise<Actor | undefined>;
}

/**
 * Who may call a route of a token API, set as `config: { auth }` on the route (the surface's hook reads it):
 * - `workspace`: a token plus `x-workspace-id` naming a workspace it belongs to (`request.actor`);
 * - `account`: a token (`request.principal`);
 * - `optional`: a token when the request has an Authorization header (or a live session cookie), none otherwise;
 * - `none`: nobody is authenticated (the route checks its own credential, e.g. a signed URL).
 * An operation's level is its `auth` in `@parley/protocol/operations`.
 */
export type AuthLevel = AuthKind;

/** Per-request context, filled by the hooks; services get what they need from it as arguments. */
export interface RequestContext {
  principal?: Principal;
  actor?: Actor;
  /** The bot a request concerns, for the bot's request log. */
  botId?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (see AuthLevel); each API surface has its default. */
    auth?: AuthLevel;
  }
  interface FastifyRequest {
    parley: RequestContext;
    /**
     * The caller's token identity, put there by the surface's auth hook. Reading it on a route whose auth
     * level authenticates nobody is a programming error (500), never a silent undefined.
     */
    readonly principal: Principal;
    /** The caller inside the workspace named by `x-workspace-id` (routes of auth level `workspace`). */
    readonly actor: Actor;
  }
}

/** Gives every request its context and the `principal` and `actor` accessors. */
export function installRequestContext(app: FastifyInstance): void {
  app.decorateRequest('parley', null as never);
  app.decorateRequest('principal', {
    getter(this: FastifyRequest): Principal {
      const principal = this.parley.principal;
      if (!principal)
        throw new Error(`${this.routeOptions.url ?? this.url} reads request.principal unauthenticated`);
      return principal;
    },
  } as never);
  app.decorateRequest('actor', {
    getter(this: FastifyRequest): Actor {
      const actor = this.parley.actor;
      if (!actor)
        throw new Error(`${this.routeOptions.url ?? this.url} reads request.actor without a workspace`);
      return actor;
    },
  } as never);
  // Callback style: an async hook costs every request a promise and a turn of the microtask queue.
  app.addHook('onRequest', (req, reply, done) => {
    req.parley = {};
    reply.header('x-request-id', req.id);
    done();
  });
}

const AUTH_HELP = 'Send a valid token as "Authorization: Bearer <token>"';

/** The token of a request, or 401 saying what is wrong with the Authorization header. */
export function bearerToken(request: FastifyRequest): string {
  const value = header(request, 'authorization');
  if (value === undefined || value.trim() === '') {
    throw errors.unauthorized(
      `Missing Authorization header. ${AUTH_HELP} (a personal access token, bot access key or integration key).`,
    );
  }
  const token = parseBearer(value);
  if (!token) throw errors.unauthorized(`Malformed Authorization header. ${AUTH_HELP}.`);
  return token;
}

/** Resolves the caller's principal from its token (once per request), or answers 401. */
export async function requirePrincipal(request: FastifyRequest, auth: AuthResolver): Promise<Principal> {
  if (request.parley.principal) return request.parley.principal;
  const principal = await auth.resolveToken(bearerToken(request));
  if (!principal) {
    throw errors.unauthorized(
      `Invalid token: it is unknown, revoked or expired. ${AUTH_HELP}; create one with "parley tokens create" or POST /v1/admin/account/pats.`,
    );
  }
  request.parley.principal = principal;
  return principal;
}

/** Resolves the caller as an actor of the workspace named by `x-workspace-id` (once per request), or answers 401. */
export async function requireWorkspaceActor(request: FastifyRequest, auth: AuthResolver): Promise<Actor> {
  if (request.parley.actor) return request.parley.actor;
  const principal = await requirePrincipal(request, auth);
  const workspaceId = header(request, 'x-workspace-id');
  if (workspaceId === undefined || workspaceId.trim() === '') {
    throw errors.unauthorized(
      'Missing x-workspace-id header. Send "x-workspace-id: <workspace id>" naming a workspace you belong to (GET /v1/admin/workspaces lists them).',
    );
  }
  const actor = await auth.resolveActor(principal, workspaceId.trim());
  if (!actor) {
    throw errors.unauthorized(
      `Invalid x-workspace-id "${workspaceId}": it is not a workspace this token belongs to. Send the id of one of your workspaces (GET /v1/admin/workspaces lists them).`,
    );
  }
  request.parley.actor = actor;
  return actor;
}

/**
 * A request without an Authorization header that carries a session cookie: its account principal, once a
 * state change proves it comes from the service's own origin. A bearer token, when sent, takes precedence.
 * An ended session is 401 where the route needs a caller; a route with an optional caller treats it as none.
 * Surfaces that take the cookie (the Admin API; the Files API, for the Console) call it before their own auth.
 */
export async function sessionPrincipal(
  request: FastifyRequest,
  auth: AuthResolver,
  sessions: SessionTransport,
  level: AuthLevel,
): Promise<void> {
  if (request.parley.principal || request.headers.authorization !== undefined) return;
  const value = sessionCookie(request);
  if (value === undefined) return;
  const principal = await auth.resolveSession(value);
  if (!principal) {
    if (level === 'optional') return;
    throw errors.unauthorized(
      'Your session has ended (signed out, expired or revoked): sign in again with POST /v1/admin/account/sessions.',
    );
  }
  if (changesState(request.method)) requireSameOrigin(request, sessions.origin);
  request.parley.principal = principal;
}

/**
 * The authentication hook of a token API surface, a preParsing hook: it runs before the body is read, so a
 * caller without a valid credential is answered 401 without its body being read or parsed (and a request
 * both malformed and unauthenticated is a 401). It authenticates the caller as the route's `config.auth`
 * level says, `fallback` when the route says nothing, and puts it on the request. With `sessions` (the
 * Admin API), a request with no Authorization header may be authenticated by the session cookie instead
 * (see {@link sessionPrincipal}).
 * @example admin.addHook('preParsing', authenticate(auth, 'workspace', sessions));
 */
export function authenticate(
  auth: AuthResolver,
  fallback: AuthLevel,
  sessions?: SessionTransport,
): (req: FastifyRequest) => Promise<void> {
  return async (req) => {
    // A preflight never authenticates: the CORS plugin's OPTIONS route answers it (404 for another origin).
    if (req.method === 'OPTIONS') return;
    const level = req.routeOptions.config?.auth ?? fallback;
    if (sessions && level !== 'none') await sessionPrincipal(req, auth, sessions, level);
    if (level === 'workspace') await requireWorkspaceActor(req, auth);
    else if (level === 'account') await requirePrincipal(req, auth);
    else if (level === 'optional' && req.headers.authorization !== undefined)
      await requirePrincipal(req, auth);
  };
}
