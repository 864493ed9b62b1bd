import type { PageInput } from '@parley/protocol/operations/io/admin';
import { fetchOf, pick, retryOf } from './env.js';
import { DEFAULT_TIMEOUT_MS, type RequestOptions, type RequestSpec, Transport } from './http.js';
import { fillPath, type Operation, type ParamNames, type PathParams } from './operations.js';
import { type ListPage, PagePromise } from './pagination.js';
import type { RetryOptions } from './retry.js';
import { splitInput } from './split-input.js';

// What the API classes use besides the core: the options every method takes last, and the lists' answer.
export type { RequestOptions } from './http.js';
export type { PagePromise } from './pagination.js';

/** API URL when neither the `apiUrl` option nor `PARLEY_API_URL` is set: a local server's default address. */
export const DEFAULT_API_URL = 'http://127.0.0.1:3000';

/** The connection options of both clients (`Client` and `ChatClient`). */
export interface ConnectionOptions {
  /** Base URL of the server, without `/v1`. Env `PARLEY_API_URL`; default `http://127.0.0.1:3000`. */
  apiUrl?: string | undefined;
  /**
   * Per-attempt timeout in milliseconds; default 60000 (for `listen`: the wait for the stream to open).
   * `Infinity` turns it off.
   */
  timeout?: number | undefined;
  /** Retry settings; default 3 attempts, 500 ms base, 8 s cap, full jitter. `{ attempts: 1 }` turns retries off. */
  retry?: RetryOptions | undefined;
  /** Headers sent on every request. */
  headers?: Record<string, string> | undefined;
  /** A `fetch` to use instead of the global one (e.g. to add a proxy agent or instrument calls). */
  fetch?: typeof fetch | undefined;
}

/** The API URL: the option, else `PARLEY_API_URL`, else the default; without a trailing slash. */
export function apiUrlOf(option: string | undefined): string {
  return (pick(option, 'PARLEY_API_URL') ?? DEFAULT_API_URL).replace(/\/+$/, '');
}

/** A transport to `apiUrl` with the options' timeout, retries and fetch, sending `auth` over their headers. */
export function transportOf(
  options: ConnectionOptions,
  apiUrl: string,
  auth: Record<string, string>,
): Transport {
  return new Transport({
    apiUrl,
    timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
    retry: retryOf(options.retry),
    headers: { ...options.headers, ...auth },
    fetch: fetchOf(options.fetch),
    customFetch: options.fetch !== undefined,
  });
}

/** The item type of a page's array. */
type ItemOf<V> = V extends readonly (infer I)[] ? I : never;

/**
 * What a call sends besides its operation: the path parameters the core does not fill itself, the query,
 * the JSON body and the context headers the operation fixes.
 */
export type CallSpec<P extends string, Fixed extends string> = Omit<RequestSpec, 'method' | 'path'> &
  ([Exclude<ParamNames<P>, Fixed>] extends [never]
    ? { params?: undefined }
    : { params: PathParams<Exclude<ParamNames<P>, Fixed>> });

/** What a list sends besides its operation, its path parameters not yet checked. */
type PagedSpec = Omit<RequestSpec, 'method' | 'path' | 'query'> & {
  params?: Readonly<Record<string, unknown>> | undefined;
  query: Record<string, unknown>;
};

/**
 * The request core under every API class: sends a declared operation (its method, its path filled with the
 * call's parameters and the core's own, e.g. the chat client's `botId`) through the transport, which does
 * headers, timeouts, retries and errors; pages lists.
 */
export class RequestCore<Fixed extends string = never> {
  constructor(
    /** The transport (also for URLs the API hands out: uploads, downloads, streams). */
    readonly http: Transport,
    private readonly fixed: PathParams<Fixed>,
  ) {}

  /** The full URL of an operation, without query. */
  url<P extends string>(operation: Operation<P>, params: CallSpec<P, Fixed>['params']): string {
    return `${this.http.config.apiUrl}${this.path(operation, params)}`;
  }

  /**
   * Sends one operation with a method's input object, split by `splitInput` (path parameters, context
   * headers, query or body), and answers its JSON body.
   */
  async send<T>(operation: Operation, input: object, options: RequestOptions | undefined): Promise<T> {
    const { params, query, ...spec } = splitInput(operation, input, this.fixedNames);
    const path = this.path(operation, params);
    const request = { ...spec, query: query as RequestSpec['query'], method: operation.method, path };
    return this.http.request<T>(request, options);
  }

  /** A list operation sent with a method's input object (see `send`) as a `PagePromise` of `items`. */
  list<Page extends ListPage, K extends keyof Page>(
    operation: Operation,
    input: object,
    options: RequestOptions | undefined,
    items: K,
  ): PagePromise<Page, ItemOf<Page[K]>> {
    const { params, query = {}, ...spec } = splitInput(operation, input, this.fixedNames);
    return this.paged(operation, options, { ...spec, params, query }, items);
  }

  /**
   * A list operation as a `PagePromise`: one page when awaited, every item when iterated; `items` names the
   * page's array (`'bots'` of `{ bots, meta }`).
   */
  page<Page extends ListPage, K extends keyof Page, P extends string>(
    operation: Operation<P>,
    options: RequestOptions | undefined,
    spec: CallSpec<P, Fixed> & { query: PageInput & Record<string, unknown> },
    items: K,
  ): PagePromise<Page, ItemOf<Page[K]>> {
    return this.paged(operation, options, spec, items);
  }

  private paged<Page extends ListPage, K extends keyof Page>(
    operation: Operation,
    options: RequestOptions | undefined,
    { params, query, ...spec }: PagedSpec,
    items: K,
  ): PagePromise<Page, ItemOf<Page[K]>> {
    const fetchPage = async (nextToken: string | undefined) => {
      const path = this.path(operation, params);
      const pageQuery = { ...(query as RequestSpec['query']), nextToken };
      return this.http.request<Page>({ ...spec, method: operation.method, path, query: pageQuery }, options);
    };
    const startToken = query.nextToken as string | undefined;
    return new PagePromise(fetchPage, (page) => page[items] as readonly ItemOf<Page[K]>[], startToken);
  }

  private get fixedNames(): string[] {
    return Object.keys(this.fixed);
  }

  private path(operation: Operation, params: Readonly<Record<string, unknown>> | undefined): string {
    return fillPath(operation.path, { ...params, ...this.fixed });
  }
}

/** The base of the API classes: each sends its operations through the core it is given. */
export abstract class Api<Fixed extends string = never> {
  constructor(protected readonly core: RequestCore<Fixed>) {}
}

type ApiClass = abstract new (core: RequestCore) => Api;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * One class with the methods of several API classes (and of the classes they extend), over one core: how
 * `Client` offers every API as its own methods. Two APIs may not define the same method name.
 */
export function composeApis<const A extends readonly ApiClass[]>(
  ...apis: A
): new (
  core: RequestCore,
) => Intersection<InstanceType<A[number]>> {
  abstract class Composed extends Api {}
  const owners = new Map<string, unknown>();
  for (const api of apis) {
    for (let proto = api.prototype; proto !== Api.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        const descriptor = Object.getOwnPropertyDescriptor(proto, name);
        if (name === 'constructor' || !descriptor || owners.get(name) === descriptor.value) continue;
        if (owners.has(name)) throw new TypeError(`Two APIs define ${name}`);
        owners.set(name, descriptor.value);
        Object.defineProperty(Composed.prototype, name, descriptor);
      }
    }
  }
  return Composed as never;
}
