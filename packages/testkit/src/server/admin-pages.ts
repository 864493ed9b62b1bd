import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** Every item of an Admin API list read page by page, and how many pages that took. */
export interface AllPages<T> {
  items: T[];
  pages: number;
}

/**
 * Reads a list page by page (`pageSize` items at most on each, every answer a 200) until it has no next
 * page, or ten pages were read.
 * @example const { items, pages } = await readAllPages((q) => t.asOwner('GET', `/v1/admin/workspace-members?${q}`), 'members', 2);
 */
export async function readAllPages<T>(
  get: (query: string) => Promise<LightMyRequestResponse>,
  field: string,
  pageSize: number,
): Promise<AllPages<T>> {
  const items: T[] = [];
  let nextToken: string | undefined;
  let pages = 0;
  do {
    const res = await get(
      `pageSize=${pageSize}${nextToken ? `&nextToken=${encodeURIComponent(nextToken)}` : ''}`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json() as Record<string, T[]> & { meta: { nextToken?: string } };
    const page = body[field] ?? [];
    expect(page.length).toBeLessThanOrEqual(pageSize);
    expect(body.meta).toBeTypeOf('object');
    items.push(...page);
    nextToken = body.meta.nextToken;
    pages += 1;
  } while (nextToken && pages < 10);
  return { items, pages };
}
