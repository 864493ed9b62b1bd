import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import { errors } from '../errors/errors.js';
import { header } from './headers.js';

/** The name of the cookie a signed-in person's session travels in. */
export const SESSION_COOKIE = 'parley_session';

/** How the Admin API carries sessions: the public URL's origin, and whether cookies are `Secure` (https). */
export interface SessionTransport {
  /** `scheme://host[:port]` of PARLEY_PUBLIC_URL: the only origin whose pages may change state by cookie. */
  origin: string;
  secure: boolean;
  /** The cookie's lifetime (the sessions' absolute limit), in seconds. */
  maxAgeSeconds: number;
}

/** The session transport of a public URL. */
export function sessionTransport(publicUrl: string, maxAgeMs: number): SessionTransport {
  const url = new URL(publicUrl);
  return {
    origin: url.origin,
    secure: url.protocol === 'https:',
    maxAgeSeconds: Math.floor(maxAgeMs / 1000),
  };
}

/** The attributes of the session cookie: never readable by scripts, never sent cross-site, `Secure` on https. */
export function sessionCookieOptions(transport: SessionTransport): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: transport.secure,
    maxAge: transport.maxAgeSeconds,
  };
}

/** The session cookie's value on a request, when it has one. */
export function sessionCookie(request: FastifyRequest): string | undefined {
  const value = request.cookies?.[SESSION_COOKIE];
  return value === undefined || value === '' ? undefined : value;
}

/** The origin a request says it comes from: `Origin`, else the origin of `Referer`; undefined without either. */
function claimedOrigin(request: FastifyRequest): string | undefined {
  const origin = header(request, 'origin');
  if (origin !== undefined) return origin;
  const referer = header(request, 'referer');
  if (referer === undefined) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

/** Methods that change state, which a cookie alone must never authorize from another origin. */
export function changesState(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}

/**
 * 403 unless the request proves it comes from a page of the service's own origin: the check that stands in
 * for a CSRF token on requests a session cookie authenticates. With `whenClaimed`, a request that names no
 * origin at all passes (a sign-in by a script, which carries no cookie to abuse).
 */
export function requireSameOrigin(request: FastifyRequest, origin: string, whenClaimed = false): void {
  const claimed = claimedOrigin(request);
  if (claimed === undefined && whenClaimed) return;
  if (claimed !== origin) {
    throw errors.forbidden(
      `Cross-origin request refused: a request signed in by the session cookie that changes something must come from ${origin} (its Origin or Referer header), and this one ${claimed === undefined ? 'names no origin' : `comes from ${claimed}`}. Scripts on other origins use a token in the Authorization header.`,
    );
  }
}
