import type { HttpMethod } from './http.js';

/**
 * One operation of the API as the client sends it: the HTTP method, the path template and the operation id
 * of the server's OpenAPI document. Each API class declares a table of them, one per method, and sends every
 * request through it, so a test can hold the tables against `/openapi.json` (see `drift.test.ts`).
 */
export interface Operation<P extends string = string> {
  readonly method: HttpMethod;
  /** The path as the OpenAPI document writes it, parameters in braces: `/v1/admin/bots/{id}`. */
  readonly path: P;
  /** The server's operation id, e.g. `admin.getBot`. */
  readonly operationId: string;
}

/** The names of the `{parameters}` of a path template. */
export type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** The values of some path parameters, one non-empty string each. */
export type PathParams<Names extends string> = { readonly [K in Names]: string };

/** A table as written: method name → method and path, with the operation id when it is not `<api>.<name>`. */
type OperationSpecs = Readonly<Record<string, { method: HttpMethod; path: string; operationId?: string }>>;

/** A table of operations, keyed by the name of the client method that sends each. */
export type Operations<T extends OperationSpecs> = {
  readonly [K in keyof T & string]: Operation<T[K]['path']>;
};

/**
 * Declares the operations of one API: each method name maps to its method and path; its operation id is
 * `<api>.<name>` unless given (where the client's name differs from the server's).
 * @example operations('admin', { getBot: { method: 'GET', path: '/v1/admin/bots/{id}' } })
 */
export function operations<const T extends OperationSpecs>(api: string, specs: T): Operations<T> {
  const table: Record<string, Operation> = {};
  for (const [name, spec] of Object.entries(specs)) table[name] = { operationId: `${api}.${name}`, ...spec };
  return table as Operations<T>;
}

/**
 * Fills a path template, encoding each value as one path segment (a file key `docs/a.pdf` stays one).
 * @example fillPath('/v1/admin/bots/{id}', { id: 'bot_1' }) // '/v1/admin/bots/bot_1'
 */
export function fillPath(template: string, params: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '') {
      throw new TypeError(`Path parameter ${name} of ${template} must be a non-empty string`);
    }
    return encodeURIComponent(value);
  });
}
