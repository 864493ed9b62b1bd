import { describe, expect, it } from 'vitest';
import { thrownApiError } from '../../../testkit/src/server/wire.js';
import type { ApiError } from '../errors/errors.js';
import { decodeCursor, encodeCursor, toPage } from './pagination.js';

const invalidQuery = (fn: () => unknown): ApiError => thrownApiError(fn, 'an InvalidQuery error');

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

describe('cursor encoding', () => {
  it('roundtrips a text sort value', () => {
    const cursor = { sort: 'createdAt:desc', value: '2026-01-02T03:04:05.678Z', id: 'bot-1' };
    expect(decodeCursor(encodeCursor(cursor), 'createdAt:desc')).toEqual(cursor);
  });

  it('roundtrips a numeric sort value and keeps it a number', () => {
    const cursor = { sort: 'size:asc', value: 42, id: 'file_9' };
    expect(decodeCursor(encodeCursor(cursor), 'size:asc')).toEqual(cursor);
  });

  it('roundtrips values with quotes, unicode and URL-special characters', () => {
    const cursor = { sort: 'name:asc', value: 'Ünïcødé "bot" & co/?+=', id: 'a/b+c' };
    const token = encodeCursor(cursor);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(token, 'name:asc')).toEqual(cursor);
  });

  it('treats a missing or empty token as the first page', () => {
    expect(decodeCursor(undefined, 'name:asc')).toBeUndefined();
    expect(decodeCursor('', 'name:asc')).toBeUndefined();
  });
});

describe('decodeCursor rejections', () => {
  const malformed: Array<[string, string]> = [
    ['text that is not base64 JSON', 'not-a-token'],
    ['JSON that is not a list', b64({ sort: 'name:asc', value: 'a', id: 'b' })],
    ['a list of the wrong length', b64(['name:asc', 'a'])],
    ['a sort that is not text', b64([1, 'a', 'b'])],
    ['a value that is neither text nor number', b64(['name:asc', null, 'b'])],
    ['an id that is not text', b64(['name:asc', 'a', 7])],
  ];
  for (const [what, token] of malformed) {
    it(`rejects ${what} with 400 InvalidQuery`, () => {
      const error = invalidQuery(() => decodeCursor(token, 'name:asc'));
      expect(error.type).toBe('InvalidQuery');
      expect(error.code).toBe(400);
      expect(error.metadata).toEqual({ errors: [{ field: 'nextToken', message: 'malformed' }] });
    });
  }

  it('rejects a token made for another sort with 400 InvalidQuery', () => {
    const token = encodeCursor({ sort: 'createdAt:desc', value: '2026-01-01T00:00:00.000Z', id: 'x' });
    const error = invalidQuery(() => decodeCursor(token, 'createdAt:asc'));
    expect(error.type).toBe('InvalidQuery');
    expect(error.code).toBe(400);
    expect(error.message).toBe(
      'nextToken belongs to a list with another sort order; keep sortField and sortDirection the same while paging',
    );
    expect(error.metadata).toEqual({
      errors: [{ field: 'nextToken', message: 'made for another sort order' }],
    });
  });
});

describe('toPage', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, at: `t${i}` }));
  const key = (r: { id: string; at: string }): [string, string] => [r.at, r.id];

  it('gives no nextToken when there are fewer rows than the limit', () => {
    expect(toPage(rows(3), 5, 's', key)).toEqual({ items: rows(3) });
  });

  it('gives no nextToken when there are exactly as many rows as the limit', () => {
    const page = toPage(rows(5), 5, 's', key);
    expect(page).toEqual({ items: rows(5) });
    expect('nextToken' in page).toBe(false);
  });

  it('drops the extra row and points the nextToken at the last item kept', () => {
    const page = toPage(rows(6), 5, 'at:asc', key);
    expect(page.items).toEqual(rows(5));
    expect(page.nextToken).toBeDefined();
    expect(decodeCursor(page.nextToken, 'at:asc')).toEqual({ sort: 'at:asc', value: 't4', id: 'r4' });
  });

  it('answers an empty page for no rows', () => {
    expect(toPage([], 20, 's', key)).toEqual({ items: [] });
  });
});
