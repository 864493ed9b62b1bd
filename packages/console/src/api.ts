import { ApiError, Client, ConnectionError, TimeoutError } from '@parley/client';

/**
 * The client of the signed-in person: same origin, no token. Without an `Authorization` header the Admin API
 * authenticates the `parley_session` cookie, which the browser sends on same-origin requests (`fetch`'s
 * default `credentials: 'same-origin'`), with the `Origin` header the server checks on state changes.
 */
export function consoleClient(workspaceId?: string): Client {
  return new Client({ apiUrl: window.location.origin, workspaceId, timeout: 30_000 });
}

/**
 * A client that sends no cookie: for what a person does as nobody (redeeming an invitation), so a session
 * this browser holds for another account is not taken as the one accepting.
 */
export function anonymousClient(): Client {
  return new Client({
    apiUrl: window.location.origin,
    timeout: 30_000,
    fetch: (input, init) => fetch(input, { ...init, credentials: 'omit' }),
  });
}

/** Whether a failure means the session is gone (expired, revoked, signed out elsewhere). */
export function isSignedOut(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** A failure of a call, in words for the person who clicked. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 429) {
      const seconds = Math.ceil((error.retryAfterMs ?? 60_000) / 1000);
      const wait = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
      return `Too many attempts. Try again in ${wait}.`;
    }
    if (error.status === 403) return `You are not allowed to do this here: ${error.message}`;
    return error.message;
  }
  if (error instanceof TimeoutError) return 'Parley took too long to answer. Try again.';
  if (error instanceof ConnectionError)
    return 'Parley cannot be reached. Check your connection and try again.';
  return error instanceof Error ? error.message : String(error);
}
