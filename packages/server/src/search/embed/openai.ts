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
import { abortReason, EmbedderError } from './errors.js';
import {
  embeddingsUrl,
  endpoint,
  type FailedAttempt,
  postOnce,
  type RetryPolicy,
  withRetries,
} from './openai-request.js';
import { parseEmbeddings, unusableAnswer } from './openai-response.js';
import type { StartableEmbedder } from './port.js';

export { embeddingsUrl, parseRetryAfter } from './openai-request.js';

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
  private request(texts: string[], signal: AbortSignal, callerSignal?: AbortSignal): Promise<Float32Array[]> {
    const stop = (): unknown => this.stopReason(signal, callerSignal);
    return withRetries(() => this.attempt(texts, signal, stop), this.retryPolicy, signal, stop);
  }

  private async attempt(
    texts: string[],
    signal: AbortSignal,
    stop: () => unknown,
  ): Promise<{ value: Float32Array[] } | FailedAttempt> {
    const body = JSON.stringify({
      model: this.model,
      // Services reject empty strings; a blank gets the vector of a space.
      input: texts.map((text) => (text === '' ? ' ' : text)),
      ...(this.requestDimensions ? { dimensions: this.knownDimensions } : {}),
    });
    const request = { url: this.url, headers: this.headers, body, timeoutMs: this.timeoutMs };
    const outcome = await postOnce(request, signal, stop);
    if (!outcome.ok) return { error: outcome.error, retryAfterMs: outcome.retryAfterMs };
    return { value: this.parse(outcome.text, texts.length) };
  }

  /** Checks an answer and turns it into unit vectors in input order, of the known (or first) width. */
  private parse(text: string, count: number): Float32Array[] {
    const vectors = parseEmbeddings(text, count, endpoint(this.url));
    for (const vector of vectors) {
      if (this.knownDimensions === undefined) this.knownDimensions = vector.length;
      if (vector.length !== this.knownDimensions) {
        const why = `vectors of ${vector.length} dimensions where ${this.knownDimensions} are expected`;
        throw unusableAnswer(endpoint(this.url), why);
      }
    }
    return vectors;
  }

  private get retryPolicy(): RetryPolicy {
    const { maxRetries, retryBaseDelayMs, maxRetryDelayMs } = this;
    return { maxRetries, retryBaseDelayMs, maxRetryDelayMs };
  }

  /** Why the call stops: the caller's abort reason, `closed`, or (a sibling failed) a plain abort. */
  private stopReason(signal: AbortSignal, callerSignal: AbortSignal | undefined): unknown {
    if (callerSignal?.aborted) return abortReason(callerSignal);
    if (this.closing.signal.aborted) return closedError();
    return abortReason(signal);
  }
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
