import { FileObject, ListFilesQuery, ListFilesResponse, UpsertFileBody } from '@parley/protocol';
import { FILE_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { FILES_OPERATIONS, operations } from '../../../http/operation.js';
import { pageBody, pageOf } from '../../../http/route-helpers.js';
import { parseTagFilter } from '../../../http/tag-filter.js';
import type { FilesService } from '../service.js';

const PageOnly = Type.Object({
  nextToken: Type.Optional(Type.String()),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});
const Upserted = Type.Object({ file: Type.Object({ ...FileObject.properties, uploadUrl: Type.String() }) });

/** The files of the bot: upsert one, list them, list their tags and a tag's values. */
export function fileCollectionRoutes(app: FastifyInstance, files: FilesService): void {
  const op = operations(app, FILES_OPERATIONS);

  op(
    FILE_OPERATIONS.upsertFile,
    {
      description:
        'Creates a file record, or replaces the one with the same key; answers the file with an uploadUrl to PUT the bytes to.',
      body: UpsertFileBody,
      response: Upserted,
    },
    async (req) => ({ file: await files.upsert(req.filesCaller, req.body) }),
  );

  op(
    FILE_OPERATIONS.listFiles,
    {
      description:
        'Files of the bot the caller may access; tag filters as tags.k=v, tags[k]=v or tags={JSON}; keyContains searches keys, status keeps files in those states.',
      query: ListFilesQuery,
      response: ListFilesResponse,
    },
    async (req) => {
      const q = req.query;
      const page = await files.list(req.filesCaller, {
        nextToken: q.nextToken,
        pageSize: q.pageSize,
        sortField: q.sortField,
        sortDirection: q.sortDirection,
        tags: parseTagFilter(q as Record<string, unknown>),
        ids: q.ids,
        indexed: q.indexed,
        keyContains: q.keyContains,
        status: q.status,
      });
      const next = page.nextToken ? { nextToken: page.nextToken } : {};
      return { files: page.items, meta: { ...next, total: page.total } };
    },
  );

  op(
    FILE_OPERATIONS.listFileTags,
    { query: PageOnly, response: pageOf('tags', Type.String()) },
    async (req) => pageBody('tags', await files.tagKeys(req.filesCaller, req.query)),
  );

  op(
    FILE_OPERATIONS.listFileTagValues,
    {
      params: Type.Object({ tag: Type.String({ minLength: 1, maxLength: 100 }) }),
      query: PageOnly,
      response: pageOf('values', Type.String()),
    },
    async (req) => pageBody('values', await files.tagValues(req.filesCaller, req.params.tag, req.query)),
  );
}
