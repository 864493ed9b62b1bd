import { ERROR_TYPES, type ErrorType } from '@parley/protocol';

/** Error types of the wire catalogue (ERROR_TYPES) answered with one HTTP status, and when. */
export interface ErrorEntry {
  status: number;
  types: readonly ErrorType[];
  /** When the service answers so (Markdown). */
  when: string;
}

/**
 * The statuses whose wire type the service answers with another status than the wire catalogue's:
 * a request body that does not arrive in time is 408 Request Timeout (the catalogue's 504 is a gateway's).
 */
const STATUS_OVERRIDES: Partial<Record<ErrorType, number>> = { OperationTimeout: 408 };

/** The HTTP status the service answers an error type with. */
export function statusOf(type: ErrorType): number {
  return STATUS_OVERRIDES[type] ?? ERROR_TYPES[type];
}

const entry = (types: readonly ErrorType[], when: string): ErrorEntry => ({
  status: statusOf(types[0] ?? 'Internal'),
  types,
  when,
});

/**
 * Every error type the service answers with, by status: the errors table of docs/admin-api.md is generated from it
 * (`npm run docs:tables -w @parley/server`) and `catalogue.test.ts` fails when the service raises a type
 * missing here or that table differs.
 */
export const ERROR_CATALOGUE: readonly ErrorEntry[] = [
  entry(
    ['InvalidPayload', 'InvalidQuery', 'InvalidIdentifier'],
    'bad body (incl. malformed JSON), query or path',
  ),
  entry(['Unauthorized'], 'token missing or invalid, or `x-workspace-id` missing or not one of yours'),
  entry(['Forbidden', 'QuotaExceeded'], 'your role lacks the permission; a quota is reached'),
  entry(['ResourceNotFound'], 'not found, or in another workspace (never revealed)'),
  entry(
    ['OperationTimeout'],
    'the request body did not arrive in time (`PARLEY_BODY_TIMEOUT_MS`, `PARLEY_UPLOAD_TIMEOUT_MS`); the connection closes',
  ),
  entry(
    ['AlreadyExists', 'ResourceLockedConflict'],
    "a duplicate (account, member, integration or knowledge base name, conversation, file key); a file copied or downloaded before its content is uploaded or while it is replaced; a handoff action that does not apply to the conversation's state, or a reply to a conversation someone else answers",
  ),
  entry(
    ['ResourceGone'],
    'used or expired invitation or upload URL; a file replaced or deleted while uploading',
  ),
  entry(
    ['PayloadTooLarge'],
    'body over the limit; a file over 1 GB or an upload of another size than declared',
  ),
  entry(['UnsupportedMediaType'], 'body that is not JSON'),
  entry(['RateLimited'], 'over the rate limit or the live streams allowed; see `Retry-After`'),
  entry(
    ['Internal'],
    'an unexpected failure: the answer carries no internals, quote its `id` (it is in the log)',
  ),
];
