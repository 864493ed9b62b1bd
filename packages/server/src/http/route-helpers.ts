import { ApiErrorBody } from '@parley/protocol';
import type { TSchema } from 'typebox';

/** Response schemas for a route: its success answer plus the wire error for every failure. */
export function responses(status: number, schema: TSchema): Record<string, TSchema> {
  return { [status]: schema, '4xx': ApiErrorBody, '5xx': ApiErrorBody };
}

/** Body of a list page: `{ <name>: items, meta: { nextToken? } }`. */
export function listBody<T>(name: string, page: { items: T[]; nextToken?: string }) {
  return { [name]: page.items, meta: page.nextToken ? { nextToken: page.nextToken } : {} };
}

/** Security requirement of token-authenticated routes, for the OpenAPI document. */
export const BEARER = [{ bearerAuth: [] }];
