import { errors } from '../errors/errors.js';

/** Opaque cursor: the sort key and id of the last item of a page, plus what the list was sorted by. */
export interface Cursor {
  /** Sort field and direction the cursor was made for; a cursor is only valid for the same sort. */
  sort: string;
  value: string | number;
  id: string;
}

/** Encodes a cursor as the `nextToken` of a page. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.value, cursor.id]), 'utf8').toString('base64url');
}

/** Decodes a `nextToken`; a token that is malformed or made for another sort answers 400 InvalidQuery. */
export function decodeCursor(token: string | undefined, sort: string): Cursor | undefined {
  if (token === undefined || token === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    typeof parsed[0] !== 'string' ||
    (typeof parsed[1] !== 'string' && typeof parsed[1] !== 'number') ||
    typeof parsed[2] !== 'string'
  ) {
    throw errors.invalidQuery(
      'nextToken is not a token this API handed out; pass meta.nextToken of the previous page unchanged',
      [{ field: 'nextToken', message: 'malformed' }],
    );
  }
  if (parsed[0] !== sort) {
    throw errors.invalidQuery(
      'nextToken belongs to a list with another sort order; keep sortField and sortDirection the same while paging',
      [{ field: 'nextToken', message: 'made for another sort order' }],
    );
  }
  return { sort, value: parsed[1], id: parsed[2] };
}

/** A page of items and the token of the next one (absent on the last page). */
export interface Page<T> {
  items: T[];
  nextToken?: string;
}

/**
 * Turns `limit + 1` fetched rows into a page: the extra row only tells that there is a next page.
 * @example toPage(rows, 20, 'createdAt:desc', (r) => [r.created_at, r.id])
 */
export function toPage<T>(
  rows: T[],
  limit: number,
  sort: string,
  key: (row: T) => [string | number, string],
): Page<T> {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1] as T;
  const [value, id] = key(last);
  return { items, nextToken: encodeCursor({ sort, value, id }) };
}
