import { ApiError } from '../../errors/errors.js';
import type { IdentityContext } from './context.js';
import { sessionRepo } from './session-repo.js';

/** Who a sign-in attempt is counted against: the e-mail it names (whether or not it has an account) and its address. */
export interface AttemptKeys {
  email: string;
  address: string;
}

/** The failed-sign-in throttle: failures per e-mail and per client address within a window (in the database). */
export interface SignInThrottle {
  /** 429 `RateLimited` (with the seconds to wait) when the e-mail or the address has failed too often lately. */
  check(keys: AttemptKeys): Promise<void>;
  /** Counts one failure against both keys. */
  fail(keys: AttemptKeys): Promise<void>;
  /** Forgets the e-mail's failures (after a successful sign-in). */
  succeed(keys: AttemptKeys): Promise<void>;
}

const emailKey = (keys: AttemptKeys) => `email:${keys.email.trim().toLowerCase()}`;
const addressKey = (keys: AttemptKeys) => `address:${keys.address}`;

/** The throttle of failed sign-ins, configured by PARLEY_SIGN_IN_* and counted on the injected clock. */
export function signInThrottle(ctx: Pick<IdentityContext, 'db' | 'clock' | 'config'>): SignInThrottle {
  const { db, clock } = ctx;
  const { failuresPerAccount, failuresPerAddress, failureWindowMs } = ctx.config.sessions;
  return {
    async check(keys) {
      const nowMs = clock().getTime();
      const since = new Date(nowMs - failureWindowMs).toISOString();
      const limits = new Map([
        [emailKey(keys), failuresPerAccount],
        [addressKey(keys), failuresPerAddress],
      ]);
      const rows = await sessionRepo(db).failuresSince([...limits.keys()], since);
      let waitMs = 0;
      for (const [key, limit] of limits) {
        const times = rows.filter((r) => r.key === key).map((r) => Date.parse(r.failed_at));
        // Over the limit until enough of the failures leave the window: the (n - limit + 1)th oldest.
        const freeing = times.length >= limit ? times[times.length - limit] : undefined;
        if (freeing !== undefined) waitMs = Math.max(waitMs, freeing + failureWindowMs - nowMs);
      }
      if (waitMs > 0) {
        const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
        throw new ApiError(
          'RateLimited',
          `Too many failed sign-ins for this e-mail or from this address; try again in ${retryAfterSeconds} seconds`,
          { retryAfterSeconds },
        );
      }
    },
    async fail(keys) {
      const at = clock();
      const repo = sessionRepo(db);
      await repo.addFailures([emailKey(keys), addressKey(keys)], at.toISOString());
      await repo.pruneFailures(new Date(at.getTime() - failureWindowMs).toISOString());
    },
    async succeed(keys) {
      await sessionRepo(db).clearFailures(emailKey(keys));
    },
  };
}
