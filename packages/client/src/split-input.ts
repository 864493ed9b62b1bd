import type { Operation } from './operations.js';

/** What one call sends, split from its input: path parameters, context headers, and the query or the body. */
export interface SplitInput {
  params: Record<string, unknown>;
  headers?: Record<string, string | undefined>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/**
 * Splits a method's one input object into what its operation sends: each path parameter from the field of
 * its name (or the one `from` names), the `headers` fields, and the rest of the fields as the query of a
 * GET, the body of a POST or PUT (none with `noBody`), nothing for a DELETE. Parameters in `fixed` are the
 * core's own (the chat client's `botId`) and are not read from the input.
 * @example splitInput(BOT_OPERATIONS.updateBot, { id: 'bot_1', name: 'A' }, []) // { params: { id }, body: { name } }
 */
export function splitInput(operation: Operation, input: object, fixed: readonly string[]): SplitInput {
  const fields = input as Readonly<Record<string, unknown>>;
  const rest: Record<string, unknown> = { ...fields };
  const params: Record<string, unknown> = {};
  for (const [, name = ''] of operation.path.matchAll(/\{(\w+)\}/g)) {
    if (fixed.includes(name)) continue;
    const field = operation.from?.[name] ?? name;
    params[name] = fields[field];
    delete rest[field];
  }
  const split: SplitInput = { params };
  if (operation.headers) {
    const headers: Record<string, string | undefined> = {};
    for (const [header, field] of Object.entries(operation.headers)) {
      headers[header] = fields[field] as string | undefined;
      delete rest[field];
    }
    split.headers = headers;
  }
  if (operation.method === 'GET') split.query = rest;
  else if ((operation.method === 'POST' || operation.method === 'PUT') && !operation.noBody)
    split.body = rest;
  return split;
}
