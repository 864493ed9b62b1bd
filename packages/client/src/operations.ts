// The operations the client sends are the tables of `@parley/protocol/operations` (method, path template,
// operation id, how the input is sent), the same the server's routes are declared with; each API class sends
// every request through the table of its methods (`api-class.ts`), held against `/openapi.json` by `drift.test.ts`.
export type { Operation } from '@parley/protocol/operations';

/** The names of the `{parameters}` of a path template. */
export type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** The values of some path parameters, one non-empty string each. */
export type PathParams<Names extends string> = { readonly [K in Names]: string };

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
