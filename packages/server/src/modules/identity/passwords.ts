import { hashPassword, passwordProblem, verifyPassword } from '../../access/passwords.js';
import { errors } from '../../errors/errors.js';
import { accountOf, type IdentityContext } from './context.js';
import type { IdentityPasswords } from './contract.js';
import { toAccount } from './records.js';
import { identityRepo } from './repo.js';
import { sessionRepo } from './session-repo.js';
import { signInThrottle } from './throttle.js';

/** 400 naming `field` when a new password is outside the policy (12 to 256 characters). */
export function checkPolicy(password: string, field: string): void {
  const problem = passwordProblem(password);
  if (problem) throw errors.invalidPayload(`The password ${problem}`, [{ field, message: problem }]);
}

/** Passwords: set by the operator (every session ends), changed by their holder (the other sessions end). */
export function identityPasswords(ctx: IdentityContext): IdentityPasswords {
  const { db, now } = ctx;
  const throttle = signInThrottle(ctx);
  return {
    async setPassword(email, password) {
      checkPolicy(password, 'password');
      const account = await identityRepo(db).accountByEmail(email);
      if (!account) throw errors.notFound('Account', email);
      const hash = await hashPassword(password);
      await db.transaction().execute(async (tx) => {
        await sessionRepo(tx).setPassword(account.id, hash, now());
        await sessionRepo(tx).revokeSessions(account.id, now());
      });
      return toAccount(account);
    },

    async changePassword(principal, body, client) {
      const account = await accountOf(db, principal);
      checkPolicy(body.new, 'new');
      const stored = await sessionRepo(db).passwordOf(account.id);
      if (stored) {
        // A stolen session must not be a way to guess the password: wrong answers count as failed sign-ins.
        const keys = { email: account.email, address: client.address };
        const current = body.current;
        const ok =
          current !== undefined && (await throttle.attempt(keys, () => verifyPassword(current, stored)));
        if (!ok) throw errors.forbidden('The current password is wrong: send it as `current` to change it');
      }
      const hash = await hashPassword(body.new);
      const keep = principal.kind === 'account' ? principal.sessionId : undefined;
      return db.transaction().execute(async (tx) => {
        await sessionRepo(tx).setPassword(account.id, hash, now());
        const revokedSessions = await sessionRepo(tx).revokeSessions(
          account.id,
          now(),
          keep ? { except: keep } : {},
        );
        return { revokedSessions };
      });
    },
  };
}
