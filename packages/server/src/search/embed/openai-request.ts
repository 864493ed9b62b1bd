/**
 * The HTTP side of the OpenAI-compatible embedder: the endpoint URL, one POST with its time bound and
 * the error it fails with, and the retry loop (exponential backoff with jitter, honouring
 * `Retry-After`/`retry-after-ms`).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { ResponseTooLargeError, readTextCapped } from '../../outbound-body.js';
import { EmbedderError } from './errors.js';
import { serviceMessage } from './openai-response.js';

/** Largest answer read from the embeddings service (a batch of 32 vectors of 3,072 floats is ~2 MB as JSON). */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Statuses worth another try, as openai-node retries them. */
const RETRYABLE_STATUSES = new Set([408, 409, 429]);

/** An attempt's failure, and the wait the service asked for before the next one. */
export interface FailedAttempt {
  error: EmbedderError;
  retryAfterMs: number | undefined;
}

/** What one POST gave: the answer text of a 2xx, or a failure. */
export type PostOutcome = { ok: true; text: string } | ({ ok: false } & FailedAttempt);

/** One POST of `body` to `url`, bounded by `timeoutMs`. Throws `stopReason()` when `signal` aborts. */
export async function postOnce(
  request: { url: URL; headers: Record<string, string>; body: string; timeoutMs: number },
  signal: AbortSignal,
  stopReason: () => unknown,
): Promise<PostOutcome> {
  const { url, headers, body, timeoutMs } = request;
  const where = endpoint(url);
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.any([signal, timeout]),
    });
    text = await readTextCapped(response, MAX_RESPONSE_BYTES);
  } catch (error) {
    if (signal.aborted) throw stopReason();
    if (error instanceof ResponseTooLargeError) {
      const message = `${where} answered too much: ${error.message}`;
      return { ok: false, error: new EmbedderError('bad_response', message), retryAfterMs: undefined };
    }
    if (timeout.aborted) {
      const message = `${where} did not answer within ${timeoutMs} ms`;
      return {
        ok: false,
        error: new EmbedderError('timeout', message, { retryable: true }),
        retryAfterMs: undefined,
      };
    }
    const message = `could not reach ${where}: ${describeNetworkError(error)}`;
    return {
      ok: false,
      error: new EmbedderError('network_error', message, { retryable: true, cause: error }),
      retryAfterMs: undefined,
    };
  }
  if (response.ok) return { ok: true, text };
  return { ok: false, ...failedAnswer(response, text, where) };
}

/** The error of a non-2xx answer, retryable as openai-node decides. */
function failedAnswer(response: Response, text: string, where: string): FailedAttempt {
  const status = response.status;
  const retryAfterMs = parseRetryAfter(response.headers);
  const shouldRetry = response.headers.get('x-should-retry');
  const retryable =
    shouldRetry === 'true' || (shouldRetry !== 'false' && (RETRYABLE_STATUSES.has(status) || status >= 500));
  const hint = status === 401 || status === 403 ? ' (check the API key)' : '';
  const message = `${where} answered ${status} ${response.statusText}: ${serviceMessage(text)}${hint}`;
  const code = status === 429 ? 'rate_limited' : 'http_error';
  const error = new EmbedderError(code, message, {
    retryable,
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
  return { error, retryAfterMs };
}

/** How often and how long to wait before trying again. */
export interface RetryPolicy {
  maxRetries: number;
  retryBaseDelayMs: number;
  maxRetryDelayMs: number;
}

/**
 * Runs `attempt` until it gives a value, retrying retryable failures by `policy`; a failure that is not
 * retryable, the last one, or one asking for a wait longer than allowed is thrown. Waiting stops with
 * `stopReason()` when `signal` aborts.
 */
export async function withRetries<T>(
  attempt: () => Promise<{ value: T } | FailedAttempt>,
  policy: RetryPolicy,
  signal: AbortSignal,
  stopReason: () => unknown,
): Promise<T> {
  for (let count = 0; ; count++) {
    const outcome = await attempt();
    if ('value' in outcome) return outcome.value;
    const { error, retryAfterMs } = outcome;
    if (!error.retryable || count >= policy.maxRetries) throw error;
    let wait = backoff(count, policy);
    if (retryAfterMs !== undefined) {
      if (retryAfterMs > policy.maxRetryDelayMs) throw error;
      wait = retryAfterMs;
    }
    await delay(wait, undefined, { signal }).catch(() => {
      throw stopReason();
    });
  }
}

function backoff(attempt: number, policy: RetryPolicy): number {
  const exponential = Math.min(policy.maxRetryDelayMs, policy.retryBaseDelayMs * 2 ** attempt);
  return Math.round(exponential * (1 - Math.random() * 0.25));
}

/** The endpoint, without any credentials a URL might carry. */
export function endpoint(url: URL): string {
  return `POST ${url.origin}${url.pathname}`;
}

/** `{baseUrl}/v1/embeddings`, accepting a base URL that already ends in `/v1`. */
export function embeddingsUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new EmbedderError(
      'invalid_configuration',
      `the embeddings URL ${JSON.stringify(baseUrl)} is not a URL`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EmbedderError(
      'invalid_configuration',
      `the embeddings URL must be http(s), got ${url.protocol}`,
    );
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/v1') ? `${path}/embeddings` : `${path}/v1/embeddings`;
  return url;
}

/** Milliseconds asked for by `retry-after-ms`, or `Retry-After` as seconds or an HTTP date. */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number.parseFloat(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
