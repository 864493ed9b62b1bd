import { Api, type PagePromise, type RequestCore, type RequestOptions } from './core.js';
import type { Operation } from './operations.js';
import type { ListPage } from './pagination.js';

/** A method an operation table can send: one input object and the request options, answering a promise or a page. */
type SentMethod = (
  input: never,
  options?: RequestOptions,
) => Promise<unknown> | PagePromise<ListPage, unknown>;

/**
 * A method that sends one operation: its input object (optional when `undefined` is one of its values) and
 * the request options, answering the operation's body.
 */
export type Sends<I, R> = undefined extends I
  ? (input?: I, options?: RequestOptions) => Promise<R>
  : (input: I, options?: RequestOptions) => Promise<R>;

/** A method that sends a list operation: awaited, one page of type `Page`; iterated, each `Item` of every page. */
export type Lists<I, Page extends ListPage, Item> = undefined extends I
  ? (input?: I, options?: RequestOptions) => PagePromise<Page, Item>
  : (input: I, options?: RequestOptions) => PagePromise<Page, Item>;

/** `I` when its members are exactly the entries of table `T`, each a method as `SentMethod` says. */
type MethodsOf<I, T> = { readonly [K in keyof I]: K extends keyof T ? SentMethod : never } & {
  readonly [K in keyof T]: SentMethod;
};

/** The page type of a method answering a `PagePromise`; `never` for one answering a promise. */
type PageOf<M> = M extends (...args: never[]) => PagePromise<infer Page, infer _Item> ? Page : never;

/** For each list method of `I` (one answering a `PagePromise`), the field of its page holding the items. */
export type ListItems<I> = {
  readonly [K in keyof I as [PageOf<I[K]>] extends [never] ? never : K]: Exclude<keyof PageOf<I[K]>, 'meta'> &
    string;
};

/** A class whose instances have the methods of `I`, over a request core filling path parameters `Fixed`. */
export type ApiClass<I, Fixed extends string = never> = new (core: RequestCore<Fixed>) => Api<Fixed> & I;

/**
 * An API class built from its interface and its operation table: each method of interface `I` sends the
 * table entry of its name with `core.send`, or with `core.list` for a list, whose page field of items
 * `lists` names. The interface holds the signatures and their documentation; the compiler refuses an
 * interface member without an entry, and an entry without a member (`never` in the error).
 * @example
 * export interface BotsApi { listBots(input?: ListBotsInput, options?: RequestOptions): PagePromise<…>; … }
 * export const BotsApi = apiClass(BOT_OPERATIONS).implementing<BotsApi>({ listBots: 'bots' });
 */
export function apiClass<const T extends Readonly<Record<string, Operation>>>(table: T) {
  return {
    implementing<I extends MethodsOf<I, T>, Fixed extends string = never>(
      lists: ListItems<I>,
    ): ApiClass<I, Fixed> {
      const items: Readonly<Record<string, string>> = lists;
      class Sender extends Api<Fixed> {
        static {
          for (const [name, operation] of Object.entries(table)) {
            const field = items[name];
            // A function of the method's name (for stack traces), as a class method would be.
            const method = {
              [name](this: Sender, input: object = {}, options?: RequestOptions) {
                return field === undefined
                  ? this.core.send(operation, input, options)
                  : this.core.list(operation, input, options, field as never);
              },
            }[name];
            Object.defineProperty(Sender.prototype, name, {
              value: method,
              writable: true,
              configurable: true,
            });
          }
        }
      }
      return Sender as unknown as ApiClass<I, Fixed>;
    },
  };
}
