import type { FastifyRequest } from 'fastify';
import type { Actor, Principal } from '../access/principal.js';
import { errors } from '../errors/errors.js';

/** Resolves tokens and workspace membership; implemented by the identity service (http/ knows no module). */
export interface AuthResolver {
  /** The principal a token value stands for, or undefined when unknown, revoked or expired. */
  resolveToken(value: string): Promise<Principal | undefined>;
  /** The actor a principal is inside a workspace, or undefined when it does not belong there. */
  resolveActor(principal: Principal, workspaceId: string): Promise<Actor | undefined>;
}

/** Per-request context, resolved once in hooks and passed to services as arguments. */
export interface RequestContext {
  principal?: Principal;
  actor?: Actor;
  /** The bot a request concerns, for the bot's request log. */
  botId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    parley: RequestContext;
  }
}

const AUTH_HELP = 'Send a valid token as "Authorization: Bearer <token>"';

/** The token of a request, or 401 saying what is wrong with the Authorization header. */
export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') {
    throw errors.unauthorized(
      `Missing Authorization header. ${AUTH_HELP} (a personal access token, bot access key or integration key).`,
    );
  }
  const match = /^bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw errors.unauthorized(`Malformed Authorization header. ${AUTH_HELP}.`);
  return match[1];
}

/** Resolves the caller's principal from its token, or answers 401. */
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

/** Resolves the caller as an actor of the workspace named by `x-workspace-id`, or answers 401. */
export async function requireWorkspaceActor(request: FastifyRequest, auth: AuthResolver): Promise<Actor> {
  if (request.parley.actor) return request.parley.actor;
  const principal = await requirePrincipal(request, auth);
  const raw = request.headers['x-workspace-id'];
  const workspaceId = Array.isArray(raw) ? raw[0] : raw;
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
