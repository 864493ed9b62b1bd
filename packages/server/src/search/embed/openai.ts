/**
 * An embedder for any service speaking the OpenAI embeddings protocol (OpenAI, Azure-style gateways,
 * Ollama, vLLM, LM Studio, Text Embeddings Inference, LiteLLM…):
 * `POST {baseUrl}/v1/embeddings {model, input: string[]}` → `{data: [{embedding, index}]}`.
 *
 * Texts go in batches (`batchSize`, at most `concurrency` requests at once); each request has a time
 * bound; 408/409/429/5xx answers, time-outs and connection failures are retried with exponential backoff
 * and jitter, honouring `Retry-After`/`retry-after-ms`; other answers fail at once with the service's own
 * message. Vectors are checked (count, order, width, finite numbers) and scaled to unit length.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { ResponseTooLargeError, readTextCapped } from '../../outbound-body.js';
import { abortReason, EmbedderError } from './errors.js';
import type { StartableEmbedder } from './port.js';

/** Largest answer read from the embeddings service (a batch of 32 vectors of 3,072 floats is ~2 MB as JSON). */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Settings of the OpenAI-compatible embedder. */
export interface OpenAiEmbedderOptions {
  /** Service root, e.g. `https://api.openai.com` (a trailing `/v1` is accepted too). */
  baseUrl: string;
  /** Model name sent with each request, e.g. `text-embedding-3-small`. */
  model: string;
  /** Sent as `Authorization: Bearer …` when given. */
  apiKey?: string;
  /** Vector width; when absent it is learnt from the first answer (`dimensions` is 0 until then). */
  dimensions?: number;
  /** Also send `dimensions` in each request (models that can shorten their vectors). Default false. */
  requestDimensions?: boolean;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** Requests in flight at once for one call. Default 2. */
  concurrency?: number;
  /** Time bound of one request, answer included. Default 30 s. */
  timeoutMs?: number;
  /** Retries after the first attempt of a request. Default 5. */
  maxRetries?: number;
  /** First backoff delay, doubled at each retry. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Longest wait before a retry; a longer `Retry-After` fails the call (retryable) instead. Default 60 s. */
  maxRetryDelayMs?: number;
  /** Extra request headers (e.g. `api-key` for Azure, organisation ids). */
  headers?: Record<string, string>;
}

interface EmbeddingsAnswer {
  data?: unknown;
}

/** Statuses worth another try, as openai-node retries them. */
const RETRYABLE_STATUSES = new Set([408, 409, 429]);

/**
 * Embeds through an OpenAI-compatible HTTP service.
 *
 * @example
 * const embedder = new OpenAiEmbedder({ baseUrl: 'https://api.openai.com', model: 'text-embedding-3-small', apiKey });
 * const vectors = await embedder.embed(['How do I reset my password?']);
 */
export class OpenAiEmbedder implements StartableEmbedder {
  readonly id: string;
  private knownDimensions: number | undefined;
  private readonly url: URL;
  private readonly headers: Record<string, string>;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly retryBaseDelayMs: number;
  private readonly maxRetryDelayMs: number;
  private readonly requestDimensions: boolean;
  private readonly model: string;
  private readonly closing = new AbortController();
  private probe: Promise<void> | undefined;

  constructor(options: OpenAiEmbedderOptions) {
    if (typeof options.model !== 'string' || options.model.trim() === '') {
      throw new EmbedderError('invalid_configuration', 'the embeddings model name is required');
    }
    this.model = options.model;
    this.id = `openai:${options.model}`;
    this.url = embeddingsUrl(options.baseUrl);
    if (options.dimensions !== undefined) positiveInteger(options.dimensions, 'dimensions');
    this.knownDimensions = options.dimensions;
    this.requestDimensions = options.requestDimensions ?? false;
    if (this.requestDimensions && options.dimensions === undefined) {
      throw new EmbedderError('invalid_configuration', 'requestDimensions needs dimensions');
    }
    this.batchSize = positiveInteger(options.batchSize ?? 64, 'batchSize');
    this.concurrency = positiveInteger(options.concurrency ?? 2, 'concurrency');
    this.timeoutMs = positiveInteger(options.timeoutMs ?? 30_000, 'timeoutMs');
    this.maxRetries = nonNegativeInteger(options.maxRetries ?? 5, 'maxRetries');
    this.retryBaseDelayMs = nonNegativeInteger(options.retryBaseDelayMs ?? 500, 'retryBaseDelayMs');
    this.maxRetryDelayMs = nonNegativeInteger(options.maxRetryDelayMs ?? 60_000, 'maxRetryDelayMs');
    this.headers = {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      ...options.headers,
    };
  }

  /** Vector width: configured, or learnt from the first answer; 0 while unknown (see `ready()`). */
  get dimensions(): number {
    return this.knownDimensions ?? 0;
  }

  /** Embeds one probe text: checks the service answers, and learns the dimensions. Done once. */
  ready(): Promise<void> {
    this.probe ??= this.embed(['dimension probe']).then(
      () => undefined,
      (error: unknown) => {
        this.probe = undefined;
        throw error;
      },
    );
    return this.probe;
  }

  /** Unit vectors of `texts`, in order; `[]` for no texts. */
  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (this.closing.signal.aborted) throw closedError();
    signal?.throwIfAborted();
    if (texts.length === 0) return [];
    const batches: string[][] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      batches.push(texts.slice(start, start + this.batchSize));
    }
    // One failing batch stops its siblings.
    const call = new AbortController();
    const signals = [call.signal, this.closing.signal, ...(signal ? [signal] : [])];
    const callSignal = AbortSignal.any(signals);
    const results: Float32Array[][] = new Array(batches.length);
    let next = 0;
    const runner = async (): Promise<void> => {
      while (next < batches.length) {
        const index = next++;
        results[index] = await this.request(batches[index] as string[], callSignal, signal);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(this.concurrency, batches.length) }, runner));
    } catch (error) {
      call.abort();
      throw error;
    }
    return results.flat();
  }

  /** Aborts requests in flight (they fail with `closed`) and refuses new calls. */
  async close(): Promise<void> {
    this.closing.abort(closedError());
  }

  /** One batch, with retries. `callerSignal` tells the caller's abort from a sibling's failure. */
  private async request(
    texts: string[],
    signal: AbortSignal,
    callerSignal?: AbortSignal,
  ): Promise<Float32Array[]> {
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(texts, signal, callerSignal);
      if (outcome.vectors) return outcome.vectors;
      const { error, retryAfterMs } = outcome;
      if (!error.retryable || attempt >= this.maxRetries) throw error;
      let wait = this.backoff(attempt);
      if (retryAfterMs !== undefined) {
        if (retryAfterMs > this.maxRetryDelayMs) throw error;
        wait = retryAfterMs;
      }
      await delay(wait, undefined, { signal }).catch(() => {
        throw this.stopReason(signal, callerSignal);
      });
    }
  }

  private async attempt(
    texts: string[],
    signal: AbortSignal,
    callerSignal: AbortSignal | undefined,
  ): Promise<
    | { vectors: Float32Array[]; error?: never; retryAfterMs?: never }
    | {
        vectors?: never;
        error: EmbedderError;
        retryAfterMs: number | undefined;
      }
  > {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const body = JSON.stringify({
      model: this.model,
      // Services reject empty strings; a blank gets the vector of a space.
      input: texts.map((text) => (text === '' ? ' ' : text)),
      ...(this.requestDimensions ? { dimensions: this.knownDimensions } : {}),
    });
    let response: Response;
    let text: string;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: this.headers,
        body,
        signal: AbortSignal.any([signal, timeout]),
      });
      text = await readTextCapped(response, MAX_RESPONSE_BYTES);
    } catch (error) {
      if (signal.aborted) throw this.stopReason(signal, callerSignal);
      if (error instanceof ResponseTooLargeError) {
        const message = `${this.where()} answered too much: ${error.message}`;
        return { error: new EmbedderError('bad_response', message), retryAfterMs: undefined };
      }
      if (timeout.aborted) {
        const message = `${this.where()} did not answer within ${this.timeoutMs} ms`;
        return { error: new EmbedderError('timeout', message, { retryable: true }), retryAfterMs: undefined };
      }
      const message = `could not reach ${this.where()}: ${describeNetworkError(error)}`;
      return {
        error: new EmbedderError('network_error', message, { retryable: true, cause: error }),
        retryAfterMs: undefined,
      };
    }
    if (response.ok) return { vectors: this.parse(text, texts.length) };

    const status = response.status;
    const retryAfterMs = parseRetryAfter(response.headers);
    const shouldRetry = response.headers.get('x-should-retry');
    const retryable =
      shouldRetry === 'true' ||
      (shouldRetry !== 'false' && (RETRYABLE_STATUSES.has(status) || status >= 500));
    const hint = status === 401 || status === 403 ? ' (check the API key)' : '';
    const message = `${this.where()} answered ${status} ${response.statusText}: ${serviceMessage(text)}${hint}`;
    const code = status === 429 ? 'rate_limited' : 'http_error';
    const error = new EmbedderError(code, message, {
      retryable,
      status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
    return { error, retryAfterMs };
  }

  /** Checks an answer and turns it into unit vectors in input order. */
  private parse(text: string, count: number): Float32Array[] {
    const bad = (why: string): EmbedderError =>
      new EmbedderError('bad_response', `${this.where()} gave an unusable answer: ${why}`);
    let answer: EmbeddingsAnswer;
    try {
      answer = JSON.parse(text) as EmbeddingsAnswer;
    } catch {
      throw bad(`not JSON (${serviceMessage(text)})`);
    }
    const data = answer?.data;
    if (!Array.isArray(data)) throw bad('no `data` array');
    if (data.length !== count) throw bad(`${data.length} embeddings for ${count} inputs`);
    const vectors: (Float32Array | undefined)[] = new Array(count);
    data.forEach((item: { embedding?: unknown; index?: unknown } | null, position) => {
      const index = item?.index ?? position;
      if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= count) {
        throw bad(`index ${String(index)} out of range`);
      }
      if (vectors[index as number] !== undefined) throw bad(`index ${String(index)} given twice`);
      vectors[index as number] = toVector(item?.embedding, bad);
    });
    for (const vector of vectors as Float32Array[]) {
      if (this.knownDimensions === undefined) this.knownDimensions = vector.length;
      if (vector.length !== this.knownDimensions) {
        throw bad(`vectors of ${vector.length} dimensions where ${this.knownDimensions} are expected`);
      }
    }
    return vectors as Float32Array[];
  }

  private backoff(attempt: number): number {
    const exponential = Math.min(this.maxRetryDelayMs, this.retryBaseDelayMs * 2 ** attempt);
    return Math.round(exponential * (1 - Math.random() * 0.25));
  }

  /** Why the call stops: the caller's abort reason, `closed`, or (a sibling failed) a plain abort. */
  private stopReason(signal: AbortSignal, callerSignal: AbortSignal | undefined): unknown {
    if (callerSignal?.aborted) return abortReason(callerSignal);
    if (this.closing.signal.aborted) return closedError();
    return abortReason(signal);
  }

  /** The endpoint, without any credentials a URL might carry. */
  private where(): string {
    return `POST ${this.url.origin}${this.url.pathname}`;
  }
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

/** The service's own error message: OpenAI's `error.message`, other common shapes, or the raw text. */
function serviceMessage(text: string): string {
  let message: unknown;
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = body?.error;
    message =
      (typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : error) ??
      body?.message ??
      body?.detail;
    if (typeof message !== 'string') message = undefined;
  } catch {
    // not JSON: use the text
  }
  const raw = (typeof message === 'string' ? message : text).trim() || '(empty body)';
  return raw.length > 500 ? `${raw.slice(0, 500)}…` : raw;
}

/** A JSON number array or base64 little-endian float32, as a unit Float32Array. */
function toVector(embedding: unknown, bad: (why: string) => EmbedderError): Float32Array {
  let vector: Float32Array;
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64');
    if (bytes.length === 0 || bytes.length % 4 !== 0) throw bad('a base64 embedding is not float32');
    vector = new Float32Array(bytes.length / 4);
    for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4);
  } else if (Array.isArray(embedding) && embedding.length > 0) {
    vector = new Float32Array(embedding.length);
    for (let i = 0; i < embedding.length; i++) {
      const value = embedding[i] as unknown;
      if (typeof value !== 'number' || !Number.isFinite(value)) throw bad('an embedding holds a non-number');
      vector[i] = value;
    }
  } else {
    throw bad('an item has no embedding');
  }
  let sum = 0;
  for (const value of vector) sum += value * value;
  if (!(sum > 0) || !Number.isFinite(sum)) throw bad('a zero or non-finite vector');
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) * scale;
  return vector;
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function closedError(): EmbedderError {
  return new EmbedderError('closed', 'the embedder is closed');
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new EmbedderError('invalid_configuration', `${name} must be a positive integer, got ${value}`);
  }
  return value;
}

function nonNegativeInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new EmbedderError('invalid_configuration', `${name} must be an integer ≥ 0, got ${value}`);
  }
  return value;
}
