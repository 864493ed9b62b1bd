// The operations the client sends are the tables of `@parley/protocol/operations` (method, path template,
// operation id, how the input is sent), the same the server's routes are declared with; each API class sends
// every request through the table of its methods (`api-class.ts`), held against `/openapi.json` by `drift.test.ts`.
export { fillPath, type Operation, type Sent } from '@parley/protocol/operations';

/** The names of the `{parameters}` of a path template. */
export type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** The values of some path parameters, one non-empty string each. */
export type PathParams<Names extends string> = { readonly [K in Names]: string };
