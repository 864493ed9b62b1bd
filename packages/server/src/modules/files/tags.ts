import { decodeCursor, type Page, toPage } from '../../http/pagination.js';
import { authorizeAny, visibilityOf } from './access.js';
import type { FilesContext, FilesPageQuery, FilesService } from './contract.js';
import type { FilesEnv } from './deps.js';
import { type FileVisibility, filesRepo } from './repo.js';

/** Reads `limit + 1` distinct strings after `after`, in order, among the files `visibility` lets one see. */
type StringList = (visibility: FileVisibility, limit: number, after: string | undefined) => Promise<string[]>;

/**
 * One page of distinct strings (tag keys, values of a tag) of the files the caller may see, in order; the
 * cursor of `sort` carries the last one.
 */
export async function stringPage(
  ctx: FilesContext,
  q: FilesPageQuery,
  sort: 'tag:asc' | 'value:asc',
  read: StringList,
): Promise<Page<string>> {
  authorizeAny(ctx, 'list');
  const limit = q.pageSize ?? 100;
  const after = decodeCursor(q.nextToken, sort);
  const rows = await read(visibilityOf(ctx), limit, after?.id);
  const page = toPage(rows, limit, sort, (s) => [s, s]);
  return { items: page.items, ...(page.nextToken ? { nextToken: page.nextToken } : {}) };
}

/** The tags of the files a caller may see: their keys, and the values of one key. */
export function filesTags(env: FilesEnv): Pick<FilesService, 'tagKeys' | 'tagValues'> {
  const repo = () => filesRepo(env.db);
  return {
    tagKeys: (ctx, q) =>
      stringPage(ctx, q, 'tag:asc', (vis, limit, after) => repo().tagStrings(ctx.botId, vis, limit, after)),
    tagValues: (ctx, tag, q) =>
      stringPage(ctx, q, 'value:asc', (vis, limit, after) =>
        repo().tagStrings(ctx.botId, vis, limit, after, tag),
      ),
  };
}
