import type { Session } from '@parley/protocol';
import type { Kysely } from 'kysely';
import { hashPassword, needsRehash, verifyNothing, verifyPassword } from '../../access/passwords.js';
import type { Principal } from '../../access/principal.js';
import { hashToken, newSessionSecret, sameHash } from '../../access/tokens.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import { newId } from '../../ids.js';
import { accountOf, type IdentityContext } from './context.js';
import type { IdentitySessions } from './contract.js';
import { toAccount } from './records.js';
import { type AccountRow, identityRepo } from './repo.js';
import { type SessionRow, sessionRepo } from './session-repo.js';
import { signInThrottle } from './throttle.js';

/** The one answer to a wrong e-mail and to a wrong password alike. */
export const SIGN_IN_REFUSED = 'Wrong e-mail or password';

/** When a session ends unless used before: the earlier of its idle and its absolute limit (ms). */
export function sessionEndMs(row: SessionRow, idleMs: number): number {
  return Math.min(Date.parse(row.last_seen_at) + idleMs, Date.parse(row.expires_at));
}

/** The live session of a secret at `nowMs` (not revoked, not idle too long, not past its absolute end). */
export async function liveSession(
  db: Kysely<Database>,
  secret: string,
  nowMs: number,
  idleMs: number,
): Promise<SessionRow | undefined> {
  const hash = hashToken(secret);
  const row = await sessionRepo(db).sessionByHash(hash);
  if (!row || !sameHash(row.hash, hash) || row.revoked_at !== null) return undefined;
  return sessionEndMs(row, idleMs) > nowMs ? row : undefined;
}

function toSession(row: SessionRow, idleMs: number, currentId: string | undefined): Session {
  return {
    id: row.id,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: new Date(sessionEndMs(row, idleMs)).toISOString(),
    userAgent: row.user_agent,
    address: row.address,
    current: row.id === currentId,
  };
}

/** Signing in with a password, and the sessions of the caller's account. */
export function identitySessions(ctx: IdentityContext): IdentitySessions {
  const { db, clock, now } = ctx;
  const { idleMs, maxAgeMs } = ctx.config.sessions;
  const throttle = signInThrottle(ctx);
  const currentOf = (principal: Principal) =>
    principal.kind === 'account' ? principal.sessionId : undefined;

  return {
    async signIn(body, client) {
      const keys = { email: body.email, address: client.address };
      const found: { account?: AccountRow | undefined; stored?: string | undefined } = {};
      // The attempt is counted before the password is checked (an unknown e-mail's too).
      const ok = await throttle.attempt(keys, async () => {
        found.account = await identityRepo(db).accountByEmail(body.email.trim());
        found.stored = found.account ? await sessionRepo(db).passwordOf(found.account.id) : undefined;
        // An unknown e-mail, or an account without a password, costs one hashing too: no timing tells them apart.
        return found.stored
          ? verifyPassword(body.password, found.stored)
          : verifyNothing(body.password).then(() => false);
      });
      const { account, stored } = found;
      if (!account || !stored || !ok) throw errors.unauthorized(SIGN_IN_REFUSED);
      const rehashed = needsRehash(stored) ? await hashPassword(body.password) : undefined;
      const at = clock();
      const secret = newSessionSecret();
      const row: SessionRow = {
        id: newId('sess'),
        hash: hashToken(secret),
        account_id: account.id,
        user_agent: client.userAgent.slice(0, 500),
        address: client.address.slice(0, 100),
        created_at: at.toISOString(),
        last_seen_at: at.toISOString(),
        expires_at: new Date(at.getTime() + maxAgeMs).toISOString(),
        revoked_at: null,
      };
      await db.transaction().execute(async (tx) => {
        const repo = sessionRepo(tx);
        if (rehashed) await repo.setPassword(account.id, rehashed, row.created_at);
        await repo.pruneSessions(account.id, row.created_at, new Date(at.getTime() - idleMs).toISOString());
        await repo.insertSession(row);
        // Signed into: no later invitation resets this account (modules/identity/invitations.ts).
        if (account.unclaimed_via !== null) await identityRepo(tx).claimAccount(account.id);
      });
      return { account: toAccount(account), session: toSession(row, idleMs, row.id), secret };
    },

    async listSessions(principal) {
      const account = await accountOf(db, principal);
      const nowMs = clock().getTime();
      const rows = await sessionRepo(db).sessionsOf(account.id);
      return rows
        .filter((row) => sessionEndMs(row, idleMs) > nowMs)
        .map((row) => toSession(row, idleMs, currentOf(principal)));
    },

    async revokeSession(principal, id) {
      const account = await accountOf(db, principal);
      const revoked = await sessionRepo(db).revokeSessions(account.id, now(), { only: id });
      if (revoked !== 1) throw errors.notFound('Session', id);
    },

    async revokeAllSessions(principal) {
      const account = await accountOf(db, principal);
      return { revokedSessions: await sessionRepo(db).revokeSessions(account.id, now()) };
    },
  };
}
