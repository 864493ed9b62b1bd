import { errorFromResponse, localErrorId, ParleyError, UnknownError } from './errors.js';
import { ConnectionError, TimeoutError } from './local-errors.js';
import { encodeQuery, type QueryValue } from './query.js';
import {
  abortErrorOf,
  mergeRetry,
  parseRetryAfter,
  type ResolvedRetry,
  type RetryOptions,
  retryDelay,
  sleep,
} from './retry.js';

// The retry policy lives in retry.ts; its pure parts are also reachable here, beside the transport that uses them.
export { backoffDelay, DEFAULT_RETRY, parseRetryAfter, type RetryOptions } from './retry.js';

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
  /** Path below the API URL, already encoded (see `fillPath`). */
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

/** What one attempt is: where it goes, how long it may take, who may abort it. */
interface Attempt {
  url: string;
  method: string;
  timeout: number;
  signal: AbortSignal | undefined;
  mode: SendMode;
}

/** An attempt's timeout: aborts the attempt's controller when it fires; `arm` (re)starts it. */
class AttemptTimer {
  timedOut = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly controller: AbortController,
    private readonly timeout: number,
  ) {}

  arm(): void {
    if (!Number.isFinite(this.timeout) || this.timeout <= 0) return;
    this.stop();
    this.timer = setTimeout(
      () => {
        this.timedOut = true;
        this.controller.abort();
      },
      Math.min(this.timeout, MAX_TIMER_MS),
    );
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
  }
}

/** The error to throw for a failed fetch: the caller's abort, the body's own error, a timeout or the connection. */
function failureOf(error: unknown, attempt: Attempt, timedOut: boolean): ParleyError {
  const { signal, method, url, timeout } = attempt;
  if (signal?.aborted) return abortErrorOf(signal);
  // The request body's own failure (e.g. an upload source of the wrong size) is the error to throw.
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (error instanceof ParleyError) return error;
  if (cause instanceof ParleyError) return cause;
  if (timedOut) {
    const kind = attempt.mode.idle ? 'moved no byte for' : 'got no complete answer within';
    return new TimeoutError(`${method} ${url} ${kind} ${timeout} ms`, timeout);
  }
  return new ConnectionError(`${method} ${url} failed: ${describeCause(error)}`, { cause: error });
}

/** The parsed JSON body of a 2xx answer; any other answer, or a 2xx whose body is not JSON, is thrown. */
function answerOf<T>(res: Response, text: string, { method, url }: Attempt): T {
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
  if (res.ok && isJson) return (body ?? {}) as T;
  if (res.ok) {
    throw new UnknownError({
      id: localErrorId(),
      code: res.status,
      message: `${method} ${url} answered ${res.status} with a body that is not JSON`,
      metadata: { body: text.slice(0, 500) },
      requestId,
    });
  }
  throw errorFromResponse({
    status: res.status,
    statusText: res.statusText,
    body,
    text,
    requestId,
    retryAfterMs: parseRetryAfter(res.headers.get('retry-after')),
  });
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
    const retry = mergeRetry(this.config.retry, options.retry);
    const attempts = Math.max(1, Math.floor(retry.attempts));
    const { signal } = options;
    const attempt: Attempt = { url, method, timeout: options.timeout ?? this.config.timeout, signal, mode };
    for (let n = 1; ; n++) {
      if (signal?.aborted) throw abortErrorOf(signal);
      try {
        return await this.attempt<T>(attempt, makeInit);
      } catch (error) {
        const delay = n < attempts ? retryDelay(error, IDEMPOTENT.has(method), n, retry) : undefined;
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

  private async attempt<T>(
    attempt: Attempt,
    makeInit: (touch: () => void) => AttemptInit | Promise<AttemptInit>,
  ): Promise<T> {
    const { signal, mode } = attempt;
    const controller = new AbortController();
    const timer = new AttemptTimer(controller, attempt.timeout);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let keepListening = false;
    try {
      timer.arm();
      const init = await makeInit(mode.idle ? () => timer.arm() : () => undefined);
      let res: Response;
      let text: string;
      try {
        const doFetch = mode.fetch ?? this.config.fetch;
        res = await doFetch(attempt.url, { ...init, signal: controller.signal } as RequestInit);
        if (mode.raw && res.ok) {
          // The body is the caller's to read: the timeout stops here, the caller's signal keeps aborting it.
          keepListening = true;
          return res as T;
        }
        text = await res.text();
      } catch (error) {
        throw failureOf(error, attempt, timer.timedOut);
      }
      return answerOf<T>(res, text, attempt);
    } finally {
      timer.stop();
      if (!keepListening) signal?.removeEventListener('abort', onAbort);
    }
  }
}
