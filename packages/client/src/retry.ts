import { ApiError } from './errors.js';
import { AbortError, ConnectionError, TimeoutError } from './local-errors.js';

/** How failed attempts are retried. */
export interface RetryOptions {
  /** Attempts in all, the first included; 1 turns retries off. Default 3. */
  attempts?: number | undefined;
  /** Backoff before the first retry, before jitter; doubles each retry. Default 500 ms. */
  baseDelayMs?: number | undefined;
  /** Cap of the backoff, before jitter. Default 8000 ms. */
  maxDelayMs?: number | undefined;
  /**
   * Longest `Retry-After` the client waits for; when the server asks for more, the error is thrown at once
   * (its `retryAfterMs` tells how long to wait). Default 60000 ms.
   */
  maxRetryAfterMs?: number | undefined;
}

/** Retry settings with every default filled in. */
export type ResolvedRetry = Required<{ [K in keyof RetryOptions]: number }>;

/** Default retry settings. */
export const DEFAULT_RETRY: ResolvedRetry = {
  attempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
};

/** Retry settings: `base` with the settings of `overrides` that are set over it. */
export function mergeRetry(base: ResolvedRetry, overrides: RetryOptions | undefined): ResolvedRetry {
  const retry = { ...base };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (value !== undefined) retry[key as keyof ResolvedRetry] = value;
  }
  return retry;
}

/**
 * Milliseconds a `Retry-After` header asks for: delay-seconds (decimals allowed) or an HTTP date.
 * Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Anything else must be an HTTP date (it names a day and a month), not a negative or odd number.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Full-jitter exponential backoff: a random delay in [0, min(max, base · 2^(retry−1))). */
export function backoffDelay(retry: number, settings: ResolvedRetry, random = Math.random): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Delay before the next attempt after `error`, or undefined when that failure must not be retried: a 429
 * was refused before any effect, so any method may be retried; a 5xx (but 501), a lost connection or a
 * timeout only when the method is idempotent. `Retry-After` wins over the backoff, up to `maxRetryAfterMs`.
 */
export function retryDelay(
  error: unknown,
  idempotent: boolean,
  attempt: number,
  retry: ResolvedRetry,
): number | undefined {
  if (error instanceof ApiError) {
    const retryable = error.status === 429 || (idempotent && error.status >= 500 && error.status !== 501);
    if (!retryable) return undefined;
    if (error.retryAfterMs !== undefined) {
      return error.retryAfterMs <= retry.maxRetryAfterMs ? error.retryAfterMs : undefined;
    }
    return backoffDelay(attempt, retry);
  }
  if (idempotent && (error instanceof ConnectionError || error instanceof TimeoutError)) {
    return backoffDelay(attempt, retry);
  }
  return undefined;
}

/** The `AbortError` of an aborted signal, naming its reason when that is an error of its own. */
export function abortErrorOf(signal: AbortSignal): AbortError {
  const reason: unknown = signal.reason;
  const detail = reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : '';
  return new AbortError(`The request was aborted${detail}`, { cause: reason });
}

/** Waits `ms`, or rejects with an `AbortError` as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortErrorOf(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortErrorOf(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
