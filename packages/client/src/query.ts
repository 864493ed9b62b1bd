/** A value the query encoder accepts: scalars, lists of scalars, and nested objects of those. */
export type QueryValue =
  | string
  | number
  | boolean
  | Date
  | null
  | undefined
  | readonly QueryValue[]
  | { readonly [key: string]: QueryValue };

function scalar(value: string | number | boolean | Date): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

function add(params: URLSearchParams, key: string, value: QueryValue): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value as readonly QueryValue[]) {
      if (Array.isArray(item) || (typeof item === 'object' && item !== null && !(item instanceof Date))) {
        throw new TypeError(`Query parameter ${key}: a list may hold only strings, numbers and booleans`);
      }
      add(params, key, item);
    }
    return;
  }
  if (typeof value === 'object' && !(value instanceof Date)) {
    for (const [k, v] of Object.entries(value as Record<string, QueryValue>)) add(params, `${key}.${k}`, v);
    return;
  }
  params.append(key, scalar(value as string | number | boolean | Date));
}

/**
 * Encodes a query the way the public client does: nested objects with dots, lists as repeated keys,
 * `undefined` and `null` left out, dates as ISO 8601.
 * @example encodeQuery({ tags: { team: ['a', 'b'], env: { not: 'x' } }, ids: ['1', '2'] })
 * // 'tags.team=a&tags.team=b&tags.env.not=x&ids=1&ids=2'
 */
export function encodeQuery(query: { readonly [key: string]: QueryValue } | undefined): string {
  const params = new URLSearchParams();
  if (query) for (const [key, value] of Object.entries(query)) add(params, key, value);
  return params.toString();
}
