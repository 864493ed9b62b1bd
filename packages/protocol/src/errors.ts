import Type, { type Static } from 'typebox';

/** Every error type of the wire format with its HTTP status (API-COMPAT.md). */
export const ERROR_TYPES = {
  Unknown: 500,
  Internal: 500,
  Unauthorized: 401,
  Forbidden: 403,
  PayloadTooLarge: 413,
  InvalidPayload: 400,
  UnsupportedMediaType: 415,
  MethodNotFound: 405,
  ResourceNotFound: 404,
  InvalidJsonSchema: 400,
  InvalidDataFormat: 400,
  InvalidIdentifier: 400,
  RelationConflict: 409,
  ReferenceConstraint: 409,
  ResourceLockedConflict: 409,
  ResourceGone: 410,
  ReferenceNotFound: 400,
  InvalidQuery: 400,
  Runtime: 400,
  AlreadyExists: 409,
  RateLimited: 429,
  PaymentRequired: 402,
  QuotaExceeded: 403,
  LimitExceeded: 413,
  BreakingChanges: 400,
  OperationTimeout: 504,
} as const;

/** Name of an error type of the wire format, e.g. `ResourceNotFound`. */
export type ErrorType = keyof typeof ERROR_TYPES;

/** The error body every failing request answers: `{id, code, type, message, metadata?}`. */
export const ApiErrorBody = Type.Object(
  {
    id: Type.String({ description: 'err_<UTC YYYYMMDDHHMMSS>x<8 hex>' }),
    code: Type.Integer({ description: 'HTTP status code' }),
    type: Type.String({ description: 'Error type, e.g. ResourceNotFound' }),
    message: Type.String(),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { $id: 'ApiError', description: 'Error body' },
);
/** The error body type. */
export type ApiErrorBody = Static<typeof ApiErrorBody>;

/** True when `value` has the four fields the wire format requires of an error body. */
export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    typeof v.code === 'number' &&
    typeof v.type === 'string' &&
    typeof v.message === 'string'
  );
}
