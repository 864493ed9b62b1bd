/** Why an embedder failed; `retryable` tells a job whether trying again later may succeed. */
export type EmbedderErrorCode =
  /** The embedder was closed while the call waited or ran. */
  | 'closed'
  /** The local model could not be loaded (missing package files, corrupt weights, no WebAssembly). */
  | 'model_load_failed'
  /** A model worker died or overran its time bound while embedding. */
  | 'worker_failed'
  /** The embedding service answered with an error status. */
  | 'http_error'
  /** The embedding service kept answering 429 after every retry, or asked to wait too long. */
  | 'rate_limited'
  /** The embedding service did not answer in time. */
  | 'timeout'
  /** The embedding service could not be reached. */
  | 'network_error'
  /** The answer did not have the promised shape (count, order, dimensions, numbers). */
  | 'bad_response'
  /** The embedder's settings are incomplete or contradictory. */
  | 'invalid_configuration';

/** An embedder failure, with a stable code, whether a retry may help, and the HTTP status if any. */
export class EmbedderError extends Error {
  readonly code: EmbedderErrorCode;
  readonly retryable: boolean;
  readonly status: number | undefined;
  /** How long the service asked to wait before trying again, when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(
    code: EmbedderErrorCode,
    message: string,
    options: { retryable?: boolean; status?: number; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EmbedderError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The error an aborted call rejects with: the signal's reason, or a standard AbortError. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}
