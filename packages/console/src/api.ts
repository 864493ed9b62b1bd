import { ApiError, Client, ConnectionError, TimeoutError } from '@parley/client';
import { formatNumber } from './format.js';
import { type MessageKey, t } from './i18n.js';

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

/**
 * What a refusal of the API is, by HTTP status, said before the server's own message (which is English) in
 * the languages past English; English shows the message alone.
 */
const API_ERROR_WORDS: Partial<Record<number, MessageKey>> = {
  400: 'error.invalid',
  401: 'error.unauthorized',
  404: 'error.notFound',
  409: 'error.conflict',
  410: 'error.gone',
  413: 'error.tooLarge',
};

/** A failure of a call, in words for the person who clicked. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 429) {
      const seconds = Math.ceil((error.retryAfterMs ?? 60_000) / 1000);
      const wait =
        seconds >= 120
          ? t('error.minutes', { n: formatNumber(Math.ceil(seconds / 60)) })
          : t('error.seconds', { n: formatNumber(seconds) });
      return t('error.tooMany', { wait });
    }
    if (error.status === 403) return t('error.forbidden', { message: error.message });
    return t(API_ERROR_WORDS[error.status] ?? (error.status >= 500 ? 'error.internal' : 'error.other'), {
      message: error.message,
    });
  }
  if (error instanceof TimeoutError) return t('error.timeout');
  if (error instanceof ConnectionError) return t('error.connection');
  return error instanceof Error ? error.message : String(error);
}
