import type { FastifyRequest } from 'fastify';

/** One value of a request header: the first when the header is repeated, undefined when absent. */
export function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The token of an `Authorization: Bearer <token>` value (scheme in any case, whitespace around it ignored),
 * or undefined when the value is absent or not exactly one bearer token. The one parser of bearer tokens.
 */
export function parseBearer(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return /^\s*bearer\s+(\S+)\s*$/i.exec(value)?.[1];
}
