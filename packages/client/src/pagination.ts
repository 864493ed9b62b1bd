import type { ListMeta } from '@parley/protocol';
import { ParleyError } from './errors.js';

/** A page of a list as the API answers it: `{ <items>: [...], meta: { nextToken? } }`. */
export interface ListPage {
  meta: ListMeta;
}

/**
 * The answer of a paginated list operation: both a promise of one page and an async iterable of every item.
 *
 * - `await client.listBots(q)` sends one request and answers that page (`{bots, meta}`); pass
 *   `meta.nextToken` back as `nextToken` for the next page.
 * - `for await (const bot of client.listBots(q))` walks every item, page after page, following
 *   `meta.nextToken` until the last page (starting from `q.nextToken` when given).
 * - `.pages()` walks whole pages; `.collect({ limit })` gathers items into an array.
 *
 * Nothing is sent until it is awaited or iterated; the first page is fetched once and shared.
 * @example for await (const bot of client.listBots({ pageSize: 100 })) console.log(bot.name);
 */
export class PagePromise<Page extends ListPage, Item> implements PromiseLike<Page>, AsyncIterable<Item> {
  readonly [Symbol.toStringTag] = 'PagePromise';
  private firstPage: Promise<Page> | undefined;

  constructor(
    private readonly fetchPage: (nextToken: string | undefined) => Promise<Page>,
    private readonly itemsOf: (page: Page) => readonly Item[],
    private readonly startToken: string | undefined,
  ) {}

  private first(): Promise<Page> {
    this.firstPage ??= this.fetchPage(this.startToken);
    return this.firstPage;
  }

  // biome-ignore lint/suspicious/noThenProperty: a PagePromise is awaitable on purpose (one page).
  then<A = Page, B = never>(
    onfulfilled?: ((page: Page) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.first().then(onfulfilled, onrejected);
  }

  /** Like `Promise.prototype.catch`, for the first page. */
  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page | B> {
    return this.first().catch(onrejected);
  }

  /** Like `Promise.prototype.finally`, for the first page. */
  finally(onfinally?: (() => void) | null): Promise<Page> {
    return this.first().finally(onfinally);
  }

  /** Every page, from the first (or the one of the start token) to the last. */
  async *pages(): AsyncGenerator<Page, void, undefined> {
    let page = await this.first();
    yield page;
    const seen = new Set<string>();
    for (let token = page.meta.nextToken; token !== undefined && token !== ''; token = page.meta.nextToken) {
      if (seen.has(token)) throw new ParleyError(`The API handed out the same nextToken twice (${token})`);
      seen.add(token);
      page = await this.fetchPage(token);
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* this.itemsOf(page);
  }

  /** Gathers the items of every page (at most `limit` of them) into an array. */
  async collect(options: { limit?: number } = {}): Promise<Item[]> {
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const items: Item[] = [];
    if (limit <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}
