import {
  AbortError,
  ApiError,
  ConnectionError,
  errorFromResponse,
  localErrorId,
  ParleyError,
  TimeoutError,
  UnknownError,
} from './errors.js';
import { encodeQuery, type QueryValue } from './query.js';

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

/** Default per-attempt timeout: 60 s. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Options every operation accepts as its last argument. */
export interface RequestOptions {
  /** Aborts the request (and any wait between retries) with an `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Per-attempt timeout in milliseconds for this call. */
  timeout?: number | undefined;
  /** Retry settings for this call, merged over the client's. */
  retry?: RetryOptions | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
  /** `x-workspace-id` for this call instead of the client's. */
  workspaceId?: string | undefined;
  /** `x-bot-id` for this call instead of the client's. */
  botId?: string | undefined;
  /** `x-integration-id` for this call instead of the client's. */
  integrationId?: string | undefined;
}

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Methods a retry cannot turn into a second effect. */
const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

/** One request as an operation describes it. */
export interface RequestSpec {
  method: HttpMethod;
  /** Path below the API URL, already encoded (see `path`). */
  path: string;
  query?: { readonly [key: string]: QueryValue } | undefined;
  /** JSON body; undefined sends no body and no Content-Type. */
  body?: unknown;
  /** Context headers the operation itself fixes (e.g. `x-workspace-id` of a workspace named in the path). */
  headers?: Record<string, string | undefined> | undefined;
}

/** What a transport is made from. */
export interface TransportConfig {
  apiUrl: string;
  timeout: number;
  retry: ResolvedRetry;
  /** Headers sent on every request (auth and context included). */
  headers: Record<string, string>;
  fetch: typeof fetch;
  /** Whether `fetch` is the caller's own (the `fetch` option) rather than the global one. */
  customFetch?: boolean;
}

/**
 * Builds a path from a template, encoding each interpolated value as one path segment.
 * @example path`/bots/${id}/access-keys/${keyId}`
 */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    if (typeof value !== 'string' || value === '') {
      throw new TypeError(`Path parameter ${i + 1} of ${strings.join('{}')} must be a non-empty string`);
    }
    out += encodeURIComponent(value) + (strings[i + 1] ?? '');
  });
  return out;
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

export function abortErrorOf(signal: AbortSignal): AbortError {
  const reason: unknown = signal.reason;
  const detail = reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : '';
  return new AbortError(`The request was aborted${detail}`, { cause: reason });
}

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

function describeCause(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const inner = cause instanceof Error ? cause : error instanceof Error ? error : undefined;
  if (!inner) return String(error);
  const code = (inner as { code?: unknown }).code;
  if (typeof code !== 'string' || inner.message.includes(code)) return inner.message || String(code);
  return inner.message ? `${code} ${inner.message}` : code;
}

/** Largest delay setTimeout accepts. */
const MAX_TIMER_MS = 2_147_483_647;

/** One attempt's request as `send` builds it: method, headers and an optional body (a stream needs `duplex`). */
export interface AttemptInit {
  method: string;
  headers: Headers;
  body?: RequestInit['body'] | undefined;
  duplex?: 'half' | undefined;
}

/** How `send` treats an attempt. */
export interface SendMode {
  /**
   * Idle timeout: the timer restarts each time the body builder calls its `touch` (e.g. on every chunk of an
   * upload), so a long transfer that keeps moving never times out. Default: the timeout covers the attempt.
   */
  idle?: boolean;
  /**
   * Answer the `Response` itself once its headers arrive (a download), its body unread; the timeout then
   * stops, and the caller's signal still aborts the body. Default: read and parse the JSON body.
   */
  raw?: boolean;
  /** A `fetch` for this send instead of the transport's (uploads in Node go through `node:http`). */
  fetch?: typeof fetch | undefined;
}

/**
 * Sends requests: headers, JSON, per-attempt timeouts, the caller's abort signal, retries with capped
 * exponential backoff and full jitter, `Retry-After`, and the mapping of failures to error classes.
 */
export class Transport {
  constructor(readonly config: TransportConfig) {}

  /** Sends one operation's request, retrying as allowed, and answers its parsed JSON body. */
  async request<T>(spec: RequestSpec, options: RequestOptions = {}): Promise<T> {
    const init = this.init(spec, options);
    return this.send<T>(this.url(spec), spec.method, () => init, options);
  }

  /**
   * Sends a request to any URL (an upload or download URL the API handed out): `makeInit` builds each
   * attempt's request afresh (a streamed body cannot be sent twice), with a `touch` to call on progress
   * when `mode.idle` is set. Same retries, timeouts, aborts and error classes as `request`.
   */
  async send<T>(
    url: string,
    method: HttpMethod,
    makeInit: (touch: () => void) => AttemptInit | Promise<AttemptInit>,
    options: RequestOptions = {},
    mode: SendMode = {},
  ): Promise<T> {
    const retry: ResolvedRetry = { ...this.config.retry };
    for (const [key, value] of Object.entries(options.retry ?? {})) {
      if (value !== undefined) retry[key as keyof ResolvedRetry] = value;
    }
    const attempts = Math.max(1, Math.floor(retry.attempts));
    const timeout = options.timeout ?? this.config.timeout;
    const { signal } = options;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw abortErrorOf(signal);
      try {
        return await this.attempt<T>(url, method, makeInit, timeout, signal, mode);
      } catch (error) {
        const delay = attempt < attempts ? this.retryDelay(error, method, attempt, retry) : undefined;
        if (delay === undefined) throw error;
        await sleep(delay, signal);
      }
    }
  }

  /** Headers every request of this transport carries, plus the per-call context and extra headers. */
  headers(options: RequestOptions, fixed: Record<string, string | undefined> = {}): Headers {
    const headers = new Headers({ accept: 'application/json' });
    const set = (name: string, value: string | undefined) => {
      if (value !== undefined && value !== '') headers.set(name, value);
    };
    for (const [name, value] of Object.entries(this.config.headers)) set(name, value);
    set('x-workspace-id', options.workspaceId);
    set('x-bot-id', options.botId);
    set('x-integration-id', options.integrationId);
    for (const [name, value] of Object.entries(fixed)) set(name, value);
    for (const [name, value] of Object.entries(options.headers ?? {})) set(name, value);
    return headers;
  }

  private url(spec: RequestSpec): string {
    const query = encodeQuery(spec.query);
    return `${this.config.apiUrl}${spec.path}${query ? `?${query}` : ''}`;
  }

  private init(spec: RequestSpec, options: RequestOptions): AttemptInit {
    const headers = this.headers(options, spec.headers);
    if (spec.body === undefined) return { method: spec.method, headers };
    headers.set('content-type', 'application/json');
    return { method: spec.method, headers, body: JSON.stringify(spec.body) };
  }

  /** Delay before the next attempt, or undefined when the failure must not be retried. */
  private retryDelay(error: unknown, method: HttpMethod, attempt: number, retry: ResolvedRetry) {
    const idempotent = IDEMPOTENT.has(method);
    if (error instanceof ApiError) {
      // A 429 was refused before any effect, so any method may be retried; a 5xx only when idempotent.
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

  private async attempt<T>(
    url: string,
    method: string,
    makeInit: (touch: () => void) => AttemptInit | Promise<AttemptInit>,
    timeout: number,
    signal: AbortSignal | undefined,
    mode: SendMode,
  ): Promise<T> {
    const controller = new AbortController();
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hasTimeout = Number.isFinite(timeout) && timeout > 0;
    const arm = () => {
      if (!hasTimeout) return;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(
        () => {
          timedOut = true;
          controller.abort();
        },
        Math.min(timeout, MAX_TIMER_MS),
      );
    };
    const touch = mode.idle ? arm : () => undefined;
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let keepListening = false;
    const failure = (error: unknown): ParleyError => {
      if (signal?.aborted) return abortErrorOf(signal);
      // The request body's own failure (e.g. an upload source of the wrong size) is the error to throw.
      const cause = (error as { cause?: unknown } | undefined)?.cause;
      if (error instanceof ParleyError) return error;
      if (cause instanceof ParleyError) return cause;
      if (timedOut) {
        const kind = mode.idle ? 'moved no byte for' : 'got no complete answer within';
        return new TimeoutError(`${method} ${url} ${kind} ${timeout} ms`, timeout);
      }
      return new ConnectionError(`${method} ${url} failed: ${describeCause(error)}`, { cause: error });
    };
    try {
      arm();
      const init = await makeInit(touch);
      let res: Response;
      let text: string;
      try {
        const doFetch = mode.fetch ?? this.config.fetch;
        res = await doFetch(url, { ...init, signal: controller.signal } as RequestInit);
        if (mode.raw && res.ok) {
          // The body is the caller's to read: the timeout stops here, the caller's signal keeps aborting it.
          keepListening = true;
          return res as T;
        }
        text = await res.text();
      } catch (error) {
        throw failure(error);
      }
      const requestId = res.headers.get('x-request-id') ?? undefined;
      let body: unknown;
      let isJson = text === '';
      if (text !== '') {
        try {
          body = JSON.parse(text);
          isJson = true;
        } catch {
          body = undefined;
        }
      }
      if (res.ok) {
        if (!isJson) {
          throw new UnknownError({
            id: localErrorId(),
            code: res.status,
            message: `${method} ${url} answered ${res.status} with a body that is not JSON`,
            metadata: { body: text.slice(0, 500) },
            requestId,
          });
        }
        return (body ?? {}) as T;
      }
      throw errorFromResponse({
        status: res.status,
        statusText: res.statusText,
        body,
        text,
        requestId,
        retryAfterMs: parseRetryAfter(res.headers.get('retry-after')),
      });
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      if (!keepListening) signal?.removeEventListener('abort', onAbort);
    }
  }
}
