import { ApiErrorBody, ListMeta } from '@parley/protocol';
import type { FastifyReply } from 'fastify';
import Type, { type TArray, type TSchema } from 'typebox';
import { type Cursor, decodeCursor, type Page, toPage } from './pagination.js';

/** Response schemas for a route: its success answer plus the wire error for every failure. */
export function responses(status: number, schema: TSchema): Record<string, TSchema> {
  return { [status]: schema, '4xx': ApiErrorBody, '5xx': ApiErrorBody };
}

/** The schema of a whole list, `{ <name>: items }`. */
export function listOf<K extends string, T extends TSchema>(name: K, item: T) {
  return Type.Object({ [name]: Type.Array(item) } as { [P in K]: TArray<T> });
}

/** The schema of a list page, `{ <name>: items, meta: { nextToken? } }` (see pageBody). */
export function pageOf<K extends string, T extends TSchema>(name: K, item: T) {
  return Type.Object({ [name]: Type.Array(item), meta: ListMeta } as { [P in K]: TArray<T> } & {
    meta: typeof ListMeta;
  });
}

/** Body of a list page: `{ <name>: items, meta: { nextToken? } }`. */
export function listBody<T>(name: string, page: { items: T[]; nextToken?: string }) {
  return { [name]: page.items, meta: page.nextToken ? { nextToken: page.nextToken } : {} };
}

/** The body of a list page typed by its name, as a route's response schema declares it. */
export type PageBody<K extends string, T> = { [P in K]: T[] } & { meta: { nextToken?: string } };

/**
 * Body of a list page, `{ <name>: items, meta: { nextToken? } }`, typed by its name: a route with a TypeBox
 * type provider returns it without a cast.
 * @example return pageBody('bots', await bots.list(req.actor, query));
 */
export function pageBody<K extends string, T>(name: K, page: Page<T>): PageBody<K, T> {
  return listBody(name, page) as PageBody<K, T>;
}

/** Paging of a list query: the token of the page to read and how many items it may hold. */
export interface PageRequest {
  nextToken?: string | undefined;
  pageSize?: number | undefined;
}

/** How a service reads one keyset page of a list (see readPage). */
export interface PageReader<R, T> {
  /** Sort field and direction the list's cursors are made for (`id:asc`, `createdAt:desc`…). */
  sort: string;
  /** Reads `limit + 1` rows after the cursor (the extra row only tells that there is a next page). */
  rows: (limit: number, after: Cursor | undefined) => Promise<R[]>;
  /** A row on the wire. */
  toItem: (row: R) => T | Promise<T>;
  /** The sort value and id of a row, for the next page's cursor; default: its id twice (lists sorted by id). */
  key?: (row: R) => [string | number, string];
}

/**
 * One page of a keyset-paginated list (20 items unless the query asks otherwise): the rows after the
 * query's `nextToken` (400 when it was made for another sort), on the wire, and the next page's token.
 * @example readPage(query, { sort: 'id:asc', rows: (n, after) => repo.list(ws, n, after), toItem })
 */
export async function readPage<R extends { id: string }, T>(
  query: PageRequest,
  reader: PageReader<R, T>,
): Promise<Page<T>> {
  const limit = query.pageSize ?? 20;
  const rows = await reader.rows(limit, decodeCursor(query.nextToken, reader.sort));
  const page = toPage(rows, limit, reader.sort, reader.key ?? ((r) => [r.id, r.id]));
  const items = await Promise.all(page.items.map(reader.toItem));
  return { items, ...(page.nextToken ? { nextToken: page.nextToken } : {}) };
}

/** Security requirement of token-authenticated routes, for the OpenAPI document. */
export const BEARER = [{ bearerAuth: [] }];

/** The `:id` of an Admin API resource (a bot, a workspace…). */
export const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/**
 * The body of an operation that answers `Empty`: `{}`, once `work` is done.
 * @example async (req) => empty(bots.delete(req.actor, req.params.id))
 */
export async function empty(work: Promise<unknown>): Promise<Record<string, never>> {
  await work;
  return {};
}

/**
 * The answer of a get-or-create operation: the resource with 201 when the call created it, 200 when it found it.
 * @example async (req, reply) => foundOrCreated(reply, await chat.getOrCreateConversation(caller, req.body))
 */
export function foundOrCreated<B extends object>(
  reply: FastifyReply,
  { created, ...body }: B & { created: boolean },
) {
  return reply.status(created ? 201 : 200).send(body);
}
