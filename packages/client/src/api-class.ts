import { Api, type PagePromise, type RequestCore, type RequestOptions } from './core.js';
import type { Operation, Sent } from './operations.js';
import type { ListPage } from './pagination.js';

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

/** The client method of a table entry: `Lists` for an entry that pages items, `Sends` for another. */
type MethodOf<O> =
  O extends Sent<infer I, infer R, infer Item>
    ? [Item] extends [never]
      ? Sends<I, R>
      : R extends ListPage
        ? Lists<I, R, Item>
        : never
    : never;

/**
 * The methods of an operation table, one per entry, documented on the entry (`@parley/protocol/operations`):
 * what an API class of that table offers.
 */
export type ApiOf<T> = { -readonly [K in keyof T]: MethodOf<T[K]> };

/** A class whose instances have the methods of `I`, over a request core filling path parameters `Fixed`. */
export type ApiClass<I, Fixed extends string = never> = new (core: RequestCore<Fixed>) => Api<Fixed> & I;

/**
 * The API class of an operation table: each method sends the table entry of its name with `core.send`, or
 * with `core.list` for a list (an entry naming the `items` field of its pages). Its methods' types and
 * documentation are the entries' (`ApiOf`); `Fixed` names the path parameters the core fills (the chat
 * client's `botId`).
 * @example export const BotsApi = apiClass(BOT_OPERATIONS); // new BotsApi(core).getBot({ id })
 */
export function apiClass<const T extends Readonly<Record<string, Operation>>, Fixed extends string = never>(
  table: T,
): ApiClass<ApiOf<T>, Fixed> {
  class Sender extends Api<Fixed> {
    static {
      for (const [name, operation] of Object.entries(table)) {
        const { items } = operation;
        // A function of the method's name (for stack traces), as a class method would be.
        const method = {
          [name](this: Sender, input: object = {}, options?: RequestOptions) {
            return items === undefined
              ? this.core.send(operation, input, options)
              : this.core.list(operation, input, options, items as never);
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
  return Sender as unknown as ApiClass<ApiOf<T>, Fixed>;
}
