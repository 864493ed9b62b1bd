import { Account, ChangePasswordBody, Empty, Session, SignInBody } from '@parley/protocol';
import { ACCOUNT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { errors } from '../../../errors/errors.js';
import { header } from '../../../http/headers.js';
import { ADMIN_SECURITY, ANONYMOUS_BODY_LIMIT, type Declare, operations } from '../../../http/operation.js';
import { listOf } from '../../../http/route-helpers.js';
import {
  requireSameOrigin,
  SESSION_COOKIE,
  type SessionTransport,
  sessionCookieOptions,
} from '../../../http/session-cookie.js';
import type { IdentityService, SignInClient } from '../contract.js';
import { IdParam } from './params.js';

/** A token, or the session cookie of a signed-in person. */
const SESSION_SECURITY = { account: [{ bearerAuth: [] }, { sessionCookie: [] }] };
const Revoked = Type.Object({ revokedSessions: Type.Integer({ minimum: 0 }) });

/** Where a request comes from, as its session lists it. */
const clientOf = (req: FastifyRequest): SignInClient => ({
  userAgent: header(req, 'user-agent') ?? '',
  address: req.ip,
});

/** Signing in, and listing the account's sessions. */
function signInRoutes(
  op: Declare,
  { identity, sessions }: { identity: IdentityService; sessions: SessionTransport },
  cookieOptions: ReturnType<typeof sessionCookieOptions>,
) {
  op(
    ACCOUNT_OPERATIONS.signIn,
    {
      bodyLimit: ANONYMOUS_BODY_LIMIT,
      security: [],
      description:
        "Signs in with an e-mail and a password: sets the session cookie (`parley_session`: HttpOnly, SameSite=Strict, Secure on https) and answers the account. A wrong e-mail and a wrong password get the same 401; too many failures for the e-mail or from the address get 429 with `Retry-After`. A request naming another origin than the service's is refused (403).",
      body: SignInBody,
      status: 201,
      response: Type.Object({ account: Account, session: Session }),
    },
    async (req, reply) => {
      // No session yet to protect, but a page of another origin must not sign a browser into its account.
      requireSameOrigin(req, sessions.origin, true);
      const { account, session, secret } = await identity.signIn(req.body, clientOf(req));
      reply.setCookie(SESSION_COOKIE, secret, cookieOptions);
      return { account, session };
    },
  );

  op(ACCOUNT_OPERATIONS.listSessions, { response: listOf('sessions', Session) }, async (req) => ({
    sessions: await identity.listSessions(req.principal),
  }));
}

/** Ending sessions: this one, another, or all of them; `endCookie` forgets the cookie when this one ended. */
function signOutRoutes(
  op: Declare,
  identity: IdentityService,
  endCookie: (req: FastifyRequest, reply: FastifyReply, ended: boolean) => void,
) {
  op(
    ACCOUNT_OPERATIONS.signOut,
    {
      description: 'Signs out: ends the session this request came with and clears its cookie.',
      response: Empty,
    },
    async (req, reply) => {
      const principal = req.principal;
      const sessionId = principal.kind === 'account' ? principal.sessionId : undefined;
      if (!sessionId) {
        throw errors.invalidPayload(
          'This request is not signed in by a session cookie: a token is revoked with DELETE /v1/admin/account/pats/{id}',
        );
      }
      await identity.revokeSession(principal, sessionId);
      endCookie(req, reply, true);
      return {};
    },
  );

  op(ACCOUNT_OPERATIONS.revokeSession, { params: IdParam, response: Empty }, async (req, reply) => {
    await identity.revokeSession(req.principal, req.params.id);
    endCookie(req, reply, req.principal.kind === 'account' && req.principal.sessionId === req.params.id);
    return {};
  });

  op(
    ACCOUNT_OPERATIONS.revokeAllSessions,
    {
      description: "Signs out everywhere: ends every session of the caller's account, this one too.",
      response: Revoked,
    },
    async (req, reply) => {
      const result = await identity.revokeAllSessions(req.principal);
      endCookie(req, reply, true);
      return result;
    },
  );
}

/** Changing the caller's password. */
function passwordRoute(op: Declare, identity: IdentityService) {
  op(
    ACCOUNT_OPERATIONS.changePassword,
    {
      description:
        "Sets the caller's password (12 to 256 characters). `current` is required once the account has one (403 when wrong; counted as a failed sign-in). Every other session of the account ends.",
      body: ChangePasswordBody,
      response: Revoked,
    },
    async (req) => identity.changePassword(req.principal, req.body, clientOf(req)),
  );
}

/**
 * Human sign-in (the Console's): a password opens a server-side session carried in an HttpOnly, SameSite=Strict
 * cookie (Secure on https); the account's sessions are listed and ended here, and a password change ends the
 * others. The Admin API's hook takes the cookie as the account's credential where no token is sent.
 */
export function sessionRoutes(
  app: FastifyInstance,
  { identity, sessions }: { identity: IdentityService; sessions: SessionTransport },
) {
  const op = operations(app, { tags: ['account'], security: { ...ADMIN_SECURITY, ...SESSION_SECURITY } });
  const cookieOptions = sessionCookieOptions(sessions);
  const { maxAge: _lifetime, ...clearOptions } = cookieOptions;
  /** Forgets the cookie in the browser when the session the request came with has ended. */
  const endCookie = (req: FastifyRequest, reply: FastifyReply, ended: boolean) => {
    if (ended && req.principal.kind === 'account' && req.principal.sessionId)
      reply.clearCookie(SESSION_COOKIE, clearOptions);
  };

  signInRoutes(op, { identity, sessions }, cookieOptions);
  signOutRoutes(op, identity, endCookie);
  passwordRoute(op, identity);
}
