import { ERROR_TYPES, type ErrorType, isApiErrorBody } from '@parley/protocol';

/** Base of every error the client throws: API errors, connection, timeout and abort errors. */
export class ParleyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ParleyError';
  }
}

/** What an API error is made from: the wire body plus what the response told about it. */
export interface ApiErrorInit {
  id: string;
  code: number;
  type: string;
  message: string;
  metadata?: Record<string, unknown> | undefined;
  /** HTTP status of the response (usually equal to `code`). */
  status?: number | undefined;
  /** `x-request-id` of the response, to find the request in the server log. */
  requestId?: string | undefined;
  /** Delay the server asked for in `Retry-After`, in milliseconds. */
  retryAfterMs?: number | undefined;
}

/**
 * An error the API answered: `{id, code, type, message, metadata?}` of the wire format.
 * Each error type has its own subclass (`ResourceNotFoundError`, …); an unrecognised type stays an `ApiError`.
 * @example try { await client.getBot({ id }) } catch (e) { if (e instanceof ResourceNotFoundError) … }
 */
export class ApiError extends ParleyError {
  /** Always true; tells API errors apart from connection, timeout and abort errors (see `isApiError`). */
  readonly isApiError = true as const;
  /** Error id (`err_…`), also in the server log. */
  readonly id: string;
  /** HTTP status the wire body names. */
  readonly code: number;
  /** Error type of the wire format, e.g. `ResourceNotFound`. */
  readonly type: string;
  /** Details, e.g. `metadata.errors: [{field, message}]` on validation errors. */
  readonly metadata: Record<string, unknown> | undefined;
  /** HTTP status of the response. */
  readonly status: number;
  /** `x-request-id` of the response, when it had one. */
  readonly requestId: string | undefined;
  /** Delay the server asked for in `Retry-After`, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.id = init.id;
    this.code = init.code;
    this.type = init.type;
    this.metadata = init.metadata;
    this.status = init.status ?? init.code;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** The class of the API errors of one type. */
export interface ApiErrorClass<T extends ErrorType> {
  new (init: Omit<ApiErrorInit, 'type'>): ApiError & { readonly type: T };
  /** The error type this class stands for. */
  readonly type: T;
  /** The HTTP status of this error type (`ERROR_TYPES`). */
  readonly code: number;
}

function errorClass<T extends ErrorType>(type: T): ApiErrorClass<T> {
  const name = `${type}Error`;
  // A named class per type, so `instanceof`, `e.name` and stack traces all show the type.
  const cls = class extends ApiError {
    static readonly type = type;
    static readonly code: number = ERROR_TYPES[type];
    declare readonly type: T;
    constructor(init: Omit<ApiErrorInit, 'type'>) {
      super({ ...init, type });
      this.name = name;
    }
  };
  Object.defineProperty(cls, 'name', { value: name });
  return cls;
}

/** The error class of every error type of the wire format: one per entry of `ERROR_TYPES`, named `<type>Error`. */
export const ERROR_CLASSES = Object.fromEntries(
  Object.keys(ERROR_TYPES).map((type) => [type, errorClass(type as ErrorType)]),
) as { readonly [K in ErrorType]: ApiErrorClass<K> };

/** 500 Unknown; also any failure whose body is not a wire error (HTML from a proxy, empty body, …). */
export const UnknownError = ERROR_CLASSES.Unknown;
/** 500 Internal. */
export const InternalError = ERROR_CLASSES.Internal;
/** 401 Unauthorized: token missing or invalid, or `x-workspace-id` missing or not one of yours. */
export const UnauthorizedError = ERROR_CLASSES.Unauthorized;
/** 403 Forbidden: the caller's role lacks the permission. */
export const ForbiddenError = ERROR_CLASSES.Forbidden;
/** 413 PayloadTooLarge. */
export const PayloadTooLargeError = ERROR_CLASSES.PayloadTooLarge;
/** 400 InvalidPayload: bad body; `metadata.errors` names each bad field. */
export const InvalidPayloadError = ERROR_CLASSES.InvalidPayload;
/** 415 UnsupportedMediaType. */
export const UnsupportedMediaTypeError = ERROR_CLASSES.UnsupportedMediaType;
/** 405 MethodNotFound. */
export const MethodNotFoundError = ERROR_CLASSES.MethodNotFound;
/** 404 ResourceNotFound (also for resources of another workspace). */
export const ResourceNotFoundError = ERROR_CLASSES.ResourceNotFound;
/** 400 InvalidJsonSchema. */
export const InvalidJsonSchemaError = ERROR_CLASSES.InvalidJsonSchema;
/** 400 InvalidDataFormat. */
export const InvalidDataFormatError = ERROR_CLASSES.InvalidDataFormat;
/** 400 InvalidIdentifier: bad path parameter. */
export const InvalidIdentifierError = ERROR_CLASSES.InvalidIdentifier;
/** 409 RelationConflict. */
export const RelationConflictError = ERROR_CLASSES.RelationConflict;
/** 409 ReferenceConstraint. */
export const ReferenceConstraintError = ERROR_CLASSES.ReferenceConstraint;
/** 409 ResourceLockedConflict. */
export const ResourceLockedConflictError = ERROR_CLASSES.ResourceLockedConflict;
/** 410 ResourceGone: e.g. a used or expired invitation. */
export const ResourceGoneError = ERROR_CLASSES.ResourceGone;
/** 400 ReferenceNotFound. */
export const ReferenceNotFoundError = ERROR_CLASSES.ReferenceNotFound;
/** 400 InvalidQuery: bad query string; `metadata.errors` names each bad parameter. */
export const InvalidQueryError = ERROR_CLASSES.InvalidQuery;
/** 400 Runtime. */
export const RuntimeError = ERROR_CLASSES.Runtime;
/** 409 AlreadyExists. */
export const AlreadyExistsError = ERROR_CLASSES.AlreadyExists;
/** 429 RateLimited: see `retryAfterMs`. */
export const RateLimitedError = ERROR_CLASSES.RateLimited;
/** 402 PaymentRequired. */
export const PaymentRequiredError = ERROR_CLASSES.PaymentRequired;
/** 403 QuotaExceeded. */
export const QuotaExceededError = ERROR_CLASSES.QuotaExceeded;
/** 413 LimitExceeded. */
export const LimitExceededError = ERROR_CLASSES.LimitExceeded;
/** 400 BreakingChanges. */
export const BreakingChangesError = ERROR_CLASSES.BreakingChanges;
/** 504 OperationTimeout (the server gave up; the client's own timeout is `TimeoutError`). */
export const OperationTimeoutError = ERROR_CLASSES.OperationTimeout;

/** Instance types of the error classes, so they can be named in type positions too. */
export type UnknownError = InstanceType<typeof UnknownError>;
export type InternalError = InstanceType<typeof InternalError>;
export type UnauthorizedError = InstanceType<typeof UnauthorizedError>;
export type ForbiddenError = InstanceType<typeof ForbiddenError>;
export type PayloadTooLargeError = InstanceType<typeof PayloadTooLargeError>;
export type InvalidPayloadError = InstanceType<typeof InvalidPayloadError>;
export type UnsupportedMediaTypeError = InstanceType<typeof UnsupportedMediaTypeError>;
export type MethodNotFoundError = InstanceType<typeof MethodNotFoundError>;
export type ResourceNotFoundError = InstanceType<typeof ResourceNotFoundError>;
export type InvalidJsonSchemaError = InstanceType<typeof InvalidJsonSchemaError>;
export type InvalidDataFormatError = InstanceType<typeof InvalidDataFormatError>;
export type InvalidIdentifierError = InstanceType<typeof InvalidIdentifierError>;
export type RelationConflictError = InstanceType<typeof RelationConflictError>;
export type ReferenceConstraintError = InstanceType<typeof ReferenceConstraintError>;
export type ResourceLockedConflictError = InstanceType<typeof ResourceLockedConflictError>;
export type ResourceGoneError = InstanceType<typeof ResourceGoneError>;
export type ReferenceNotFoundError = InstanceType<typeof ReferenceNotFoundError>;
export type InvalidQueryError = InstanceType<typeof InvalidQueryError>;
export type RuntimeError = InstanceType<typeof RuntimeError>;
export type AlreadyExistsError = InstanceType<typeof AlreadyExistsError>;
export type RateLimitedError = InstanceType<typeof RateLimitedError>;
export type PaymentRequiredError = InstanceType<typeof PaymentRequiredError>;
export type QuotaExceededError = InstanceType<typeof QuotaExceededError>;
export type LimitExceededError = InstanceType<typeof LimitExceededError>;
export type BreakingChangesError = InstanceType<typeof BreakingChangesError>;
export type OperationTimeoutError = InstanceType<typeof OperationTimeoutError>;

/**
 * True when `e` is an error the API answered (any `ApiError`), false for connection, timeout and abort
 * errors and anything else. Also recognises API errors of another copy of this package.
 */
export function isApiError(e: unknown): e is ApiError {
  return (
    e instanceof ApiError ||
    (typeof e === 'object' && e !== null && (e as { isApiError?: unknown }).isApiError === true)
  );
}

/** An error id in the wire format, for errors the client makes up from a response that carried none. */
export function localErrorId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const hex = Math.floor(Math.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, '0');
  return `err_${stamp}x${hex}`;
}

/** What a failed response told: its status, parsed body (or raw text) and a few headers. */
export interface FailedResponse {
  status: number;
  statusText?: string;
  /** The JSON body, or undefined when the body was not JSON. */
  body: unknown;
  /** The raw body text. */
  text: string;
  requestId?: string | undefined;
  retryAfterMs?: number | undefined;
}

/**
 * Turns a failed response into the error to throw: the class of its wire type, a plain `ApiError` for a
 * type this client does not know, and an `UnknownError` carrying the HTTP status for a body that is not a
 * wire error (not JSON, or missing `id`, `code`, `type` or `message`).
 */
export function errorFromResponse(res: FailedResponse): ApiError {
  const extra = { status: res.status, requestId: res.requestId, retryAfterMs: res.retryAfterMs };
  if (isApiErrorBody(res.body)) {
    const { id, code, type, message, metadata } = res.body;
    const init = { id, code, message, metadata, ...extra };
    if (Object.hasOwn(ERROR_CLASSES, type)) return new ERROR_CLASSES[type as ErrorType](init);
    return new ApiError({ ...init, type });
  }
  const snippet = res.text.length > 500 ? `${res.text.slice(0, 500)}…` : res.text;
  const label = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
  return new UnknownError({
    id: localErrorId(),
    code: res.status,
    message: `${label}: the response is not a Parley error body${snippet ? `: ${snippet}` : ' (empty body)'}`,
    metadata: { body: snippet },
    ...extra,
  });
}
