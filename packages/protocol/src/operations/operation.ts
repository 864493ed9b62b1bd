/** The HTTP methods of the API's operations. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an operation: a credential of a workspace (`workspace`), of an account without a workspace
 * (`account`), with or without a credential (`optional`), or anyone (`none`). Unset: the surface's default.
 */
export type AuthKind = 'workspace' | 'account' | 'optional' | 'none';

/**
 * One operation of the API, as the server serves it and the client sends it: the HTTP method, the path
 * template, the operation id of the OpenAPI document and who may call it. The server's routes are declared
 * with these entries (`http/operation.ts`) and the client's methods send them, so a path is written once.
 */
export interface Operation<P extends string = string> {
  readonly method: HttpMethod;
  /** The path as the OpenAPI document writes it, parameters in braces: `/v1/admin/bots/{id}`. */
  readonly path: P;
  /** The operation id, e.g. `admin.getBot`. */
  readonly operationId: string;
  /** Who may call it; unset: the surface's default (a workspace credential on the Admin API). */
  readonly auth?: AuthKind | undefined;
  /** Where the client reads a path parameter from when its input names it otherwise (`{ id: 'conversationId' }`). */
  readonly from?: Readonly<Record<string, string>> | undefined;
  /** Headers the client sends from input fields (`{ 'x-workspace-id': 'id' }`). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** A POST or PUT that takes no body (its input is all path parameters). */
  readonly noBody?: true | undefined;
  /** A list: the field of its page that holds the items (the client pages through it). */
  readonly items?: string | undefined;
}

/** Where an entry keeps the types of its client method; nothing at run time. */
declare const method: unique symbol;

/**
 * An entry the client sends as a method: it takes `I`, answers `R` and, for a list, pages `Item`s (`never`
 * otherwise). Type-only: the client's API types are read from these entries, with their documentation.
 */
export interface Sent<I, R, Item = never> {
  readonly [method]?: { readonly input: I; readonly answer: R; readonly item: Item };
}

/** An operation written as its route: the method, a space and the path template (`GET /v1/admin/bots/{id}`). */
export type Route = `${HttpMethod} /${string}`;

/** How an entry is served and sent besides its route: the `Operation` fields after its path. */
type EntryRules = Pick<Operation, 'auth' | 'from' | 'headers' | 'noBody'>;

/** An entry's rules and its operation id when it is not `<api>.<name>` (where the client's name differs). */
type SentRules = EntryRules & { operationId?: string };

/**
 * An entry of a table as written: the route, or the method and path apart with the operation id when it is
 * not `<api>.<name>` and its rules.
 */
type OperationSpec = Route | SpecObject;

/** An entry as written apart: its method, path and rules (and, for a list, the field of its items). */
type SpecObject = { method: HttpMethod; path: string; items?: string } & SentRules;

/** A table as written: name → its operation. */
type OperationSpecs = Readonly<Record<string, OperationSpec>>;

/** The path template of an entry. */
type PathOf<S> = S extends `${HttpMethod} ${infer P}`
  ? P
  : S extends { path: infer P extends string }
    ? P
    : never;

/** A table of operations, keyed by the name of the client method that sends each (with its types, if any). */
export type Operations<T extends OperationSpecs> = {
  readonly [K in keyof T]: T[K] extends Sent<infer I, infer R, infer Item>
    ? Operation<PathOf<T[K]>> & Sent<I, R, Item>
    : Operation<PathOf<T[K]>>;
};

/** The method and path of a route. */
function parseRoute(route: Route): { method: HttpMethod; path: string } {
  const space = route.indexOf(' ');
  return { method: route.slice(0, space) as HttpMethod, path: route.slice(space + 1) };
}

/**
 * An entry the client sends as a method taking `I` and answering `R`: its route and rules.
 * @example getBot: sends<IdInput, BotResponse>('GET /v1/admin/bots/{id}')
 */
export function sends<I, R>(route: Route, rules: SentRules = {}): SpecObject & Sent<I, R> {
  return { ...parseRoute(route), ...rules };
}

/** The field of a list's page that holds its items: the page's one field besides `meta`. */
type ItemsField<Page> = Exclude<keyof Page, 'meta'> & string;

/** The items of a list's page. */
type ItemOf<Page> = Page[ItemsField<Page>] extends readonly (infer Item)[] ? Item : never;

/**
 * An entry the client sends as a list method taking `I`: awaited, a page `Page`; iterated, the items of its
 * field `items`, page after page.
 * @example listBots: lists<ListBotsInput | undefined, ListBotsResponse>('GET /v1/admin/bots', 'bots')
 */
export function lists<I, Page>(
  route: Route,
  items: ItemsField<Page>,
  rules: SentRules = {},
): SpecObject & Sent<I, Page, ItemOf<Page>> {
  return { ...parseRoute(route), items, ...rules };
}

/**
 * Declares the operations of one API: each name maps to its route (or its method, path and rules); its
 * operation id is `<api>.<name>` unless given (where the client's name differs from the server's). `shared`
 * rules hold for every entry that does not set its own (e.g. the account's operations: `auth: 'account'`).
 * @example operations('admin', { getBot: 'GET /v1/admin/bots/{id}' })
 */
export function operations<const T extends OperationSpecs>(
  api: string,
  specs: T,
  shared: EntryRules = {},
): Operations<T> {
  const table: Record<string, Operation> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const entry = typeof spec === 'string' ? parseRoute(spec) : spec;
    table[name] = { operationId: `${api}.${name}`, ...shared, ...entry };
  }
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
