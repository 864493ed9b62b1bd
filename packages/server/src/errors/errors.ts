import { randomBytes } from 'node:crypto';
import { ERROR_TYPES, type ErrorType } from '@parley/protocol';

/** A failure the API answers in the wire format `{id, code, type, message, metadata?}`. */
export class ApiError extends Error {
  readonly type: ErrorType;
  readonly code: number;
  readonly metadata: Record<string, unknown> | undefined;

  constructor(type: ErrorType, message: string, metadata?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
    this.type = type;
    this.code = ERROR_TYPES[type];
    this.metadata = metadata;
  }
}

/** A new error id: `err_<UTC YYYYMMDDHHMMSS>x<8 hex>`. */
export function newErrorId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `err_${stamp}x${randomBytes(4).toString('hex')}`;
}

/** The body of an error in the wire format. */
export function errorBody(error: ApiError, id: string = newErrorId()) {
  return {
    id,
    code: error.code,
    type: error.type,
    message: error.message,
    ...(error.metadata ? { metadata: error.metadata } : {}),
  };
}

/** One invalid field and why. */
export interface FieldError {
  field: string;
  message: string;
}

/** Factories for the errors the service raises, so messages stay consistent. */
export const errors = {
  notFound: (kind: string, id: string) => new ApiError('ResourceNotFound', `${kind} "${id}" was not found`),
  forbidden: (message: string) => new ApiError('Forbidden', message),
  unauthorized: (message: string) => new ApiError('Unauthorized', message),
  invalidPayload: (message: string, fields?: FieldError[]) =>
    new ApiError('InvalidPayload', message, fields ? { errors: fields } : undefined),
  invalidQuery: (message: string, fields?: FieldError[]) =>
    new ApiError('InvalidQuery', message, fields ? { errors: fields } : undefined),
  alreadyExists: (message: string) => new ApiError('AlreadyExists', message),
  quotaExceeded: (message: string) => new ApiError('QuotaExceeded', message),
  gone: (message: string) => new ApiError('ResourceGone', message),
};
