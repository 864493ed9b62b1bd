import { canFile } from '../../access/file-policy.js';
import { decodeCursor, toPage } from '../../http/pagination.js';
import { authorizeAny, loadFile, visibilityOf } from './access.js';
import type { FileIndexingState, FilesContext, FilesListQuery, FilesPage, FilesService } from './contract.js';
import type { FilesEnv } from './deps.js';
import { readJsonObject } from './json-field.js';
import { facts, toFile, uploaded } from './records.js';
import { FILE_SORT_COLUMNS, type FileRow, filesRepo } from './repo.js';

/** The cursor value of a row in a list sorted by `column` (a size as LISTED_SIZE sorts it). */
function sortValue(row: FileRow, column: (typeof FILE_SORT_COLUMNS)[keyof typeof FILE_SORT_COLUMNS]) {
  if (column === 'size') return uploaded(row) ? (row.size ?? -1) : -1;
  return row[column] as string;
}

/** One page of the bot's files the caller may see, filtered and sorted as asked, and how many match in all. */
async function listFiles(env: FilesEnv, ctx: FilesContext, q: FilesListQuery): Promise<FilesPage> {
  authorizeAny(ctx, 'list');
  const sortField = q.sortField ?? 'createdAt';
  const sortDirection = q.sortDirection ?? 'desc';
  const sort = `${sortField}:${sortDirection}`;
  const limit = q.pageSize ?? 20;
  const repo = filesRepo(env.db);
  const filter = {
    botId: ctx.botId,
    visibility: visibilityOf(ctx),
    tags: q.tags,
    ids: q.ids,
    indexed: q.indexed,
    keyContains: q.keyContains,
    status: q.status,
  };
  const rows = await repo.list({
    ...filter,
    sortField,
    sortDirection,
    limit,
    after: decodeCursor(q.nextToken, sort),
  });
  const column = FILE_SORT_COLUMNS[sortField];
  const page = toPage(rows, limit, sort, (r) => [sortValue(r, column), r.id]);
  const tags = await repo.tagsOf(page.items.map((r) => r.id));
  const items = await Promise.all(page.items.map((r) => toFile(env, r, tags.get(r.id) ?? {}, ctx.actor)));
  return { items, ...(page.nextToken ? { nextToken: page.nextToken } : {}), total: await repo.count(filter) };
}

/** Reading files: one, a page of them, and the fields other modules show of them. */
export function filesListing(
  env: FilesEnv,
): Pick<FilesService, 'get' | 'list' | 'summaries' | 'indexingStates'> {
  const { db } = env;
  return {
    async get(ctx, idOrKey) {
      return toFile(env, await loadFile(db, ctx, idOrKey, 'read'), undefined, ctx.actor);
    },
    list: (ctx, q) => listFiles(env, ctx, q),
    async summaries(ids) {
      const repo = filesRepo(db);
      const rows = await repo.byIds(ids);
      const tags = await repo.tagsOf(rows.map((r) => r.id));
      return new Map(
        rows.map((r) => [
          r.id,
          {
            id: r.id,
            key: r.key,
            contentType: r.content_type,
            metadata: readJsonObject(r.metadata),
            tags: tags.get(r.id) ?? {},
            createdAt: r.created_at,
            updatedAt: r.updated_at,
          },
        ]),
      );
    },
    async indexingStates(ctx, ids) {
      const rows = await filesRepo(db).byIds(ids, ctx.botId);
      const states = new Map<string, FileIndexingState>();
      for (const r of rows) {
        if (!canFile(ctx.actor, 'read', facts(r))) continue;
        states.set(r.id, {
          id: r.id,
          key: r.key,
          status: r.status as FileIndexingState['status'],
          failedStatusReason: r.failed_status_reason,
        });
      }
      return states;
    },
  };
}
