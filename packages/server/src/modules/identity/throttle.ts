import { ApiError } from '../../errors/errors.js';
import { newUlid } from '../../ids.js';
import type { IdentityContext } from './context.js';
import { sessionRepo } from './session-repo.js';

/** Who a sign-in attempt is counted against: the e-mail it names (whether or not it has an account) and its address. */
export interface AttemptKeys {
  email: string;
  address: string;
}

/** The failed-sign-in throttle: attempts reserved in the database before a password is checked. */
export interface SignInThrottle {
  /**
   * Checks a password under the throttle: reserves the attempt first (counted as a failure against the e-mail
   * from this address, the e-mail from anywhere, and the address), then runs `check`; a success takes the
   * reservation back and forgets the e-mail's failures from this address. 429 `RateLimited` (with the seconds
   * to wait) before `check` runs when a limit is reached or another attempt for the e-mail is in flight.
   */
  attempt(keys: AttemptKeys, check: () => Promise<boolean>): Promise<boolean>;
}

/** How long an attempt in flight holds off the e-mail's next one (a process that died while hashing lets go after this). */
export const IN_FLIGHT_MS = 30_000;

const normal = (email: string) => email.trim().toLowerCase();

/** The throttle's keys of an attempt, with their limits. */
function keysOf(keys: AttemptKeys, limits: { pair: number; total: number; address: number }) {
  const email = normal(keys.email);
  return {
    pair: { key: `pair:${JSON.stringify([email, keys.address])}`, limit: limits.pair },
    total: { key: `email:${email}`, limit: limits.total },
    address: { key: `address:${keys.address}`, limit: limits.address },
    busy: `busy:${email}`,
  };
}

function refused(waitMs: number, message: string): ApiError {
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError('RateLimited', `${message}; try again in ${retryAfterSeconds} seconds`, {
    retryAfterSeconds,
  });
}

/**
 * The throttle of sign-ins, configured by PARLEY_SIGN_IN_* and counted on the injected clock. The reservation is
 * one transaction holding the e-mail's and the address's locks (PostgreSQL advisory locks; SQLite runs one
 * transaction at a time), so concurrent attempts, in one process or many, never check more passwords than the
 * limits allow, and at most one attempt per e-mail is being checked at any time.
 */
export function signInThrottle(ctx: Pick<IdentityContext, 'db' | 'clock' | 'config'>): SignInThrottle {
  const { db, clock } = ctx;
  const { failuresPerAccount, failuresPerAccountTotal, failuresPerAddress, failureWindowMs } =
    ctx.config.sessions;
  const limits = { pair: failuresPerAccount, total: failuresPerAccountTotal, address: failuresPerAddress };

  async function reserve(keys: AttemptKeys): Promise<{ id: string; pairKey: string; busyKey: string }> {
    const k = keysOf(keys, limits);
    const counted = [k.pair, k.total, k.address];
    const id = newUlid();
    await db.transaction().execute(async (tx) => {
      const repo = sessionRepo(tx);
      await repo.lockFailureKeys([k.total.key, k.address.key]);
      const nowMs = clock().getTime();
      const since = new Date(nowMs - failureWindowMs).toISOString();
      const rows = await repo.failuresSince([...counted.map((c) => c.key), k.busy], since);
      const busySince = nowMs - IN_FLIGHT_MS;
      if (rows.some((r) => r.key === k.busy && Date.parse(r.failed_at) > busySince))
        throw refused(1000, 'Another sign-in to this e-mail is being checked');
      let waitMs = 0;
      for (const { key, limit } of counted) {
        const times = rows.filter((r) => r.key === key).map((r) => Date.parse(r.failed_at));
        // Over the limit until enough of the failures leave the window: the (n - limit + 1)th oldest.
        const freeing = times.length >= limit ? times[times.length - limit] : undefined;
        if (freeing !== undefined) waitMs = Math.max(waitMs, freeing + failureWindowMs - nowMs);
      }
      if (waitMs > 0) throw refused(waitMs, 'Too many failed sign-ins for this e-mail or from this address');
      await repo.addFailures([...counted.map((c) => c.key), k.busy], new Date(nowMs).toISOString(), id);
    });
    return { id, pairKey: k.pair.key, busyKey: k.busy };
  }

  return {
    async attempt(keys, check) {
      const reserved = await reserve(keys);
      let ok = false;
      try {
        ok = await check();
      } finally {
        const repo = sessionRepo(db);
        if (ok) {
          // A success is no failure: its own rows go, and so do the e-mail's earlier failures from this address.
          await repo.clearAttempt(reserved.id);
          await repo.clearFailures(reserved.pairKey);
        } else {
          await repo.clearAttempt(reserved.id, [reserved.busyKey]);
          await repo.pruneFailures(new Date(clock().getTime() - failureWindowMs).toISOString());
        }
      }
      return ok;
    },
  };
}
