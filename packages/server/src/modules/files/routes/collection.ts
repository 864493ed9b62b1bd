import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { FileObject, ListFilesQuery, ListMeta, UpsertFileBody } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, listBody, responses } from '../../../http/route-helpers.js';
import { parseTagFilter } from '../../../http/tag-filter.js';
import type { FilesService } from '../service.js';

const tags = ['files'];
const PageOnly = Type.Object({
  nextToken: Type.Optional(Type.String()),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

/** The files of the bot: upsert one, list them, list their tags and a tag's values. */
export function fileCollectionRoutes(fastify: FastifyInstance, files: FilesService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.put(
    '/',
    {
      schema: {
        operationId: 'files.upsertFile',
        tags,
        security: BEARER,
        description:
          'Creates a file record, or replaces the one with the same key; answers the file with an uploadUrl to PUT the bytes to.',
        body: UpsertFileBody,
        response: responses(
          200,
          Type.Object({ file: Type.Object({ ...FileObject.properties, uploadUrl: Type.String() }) }),
        ),
      },
    },
    async (req) => ({ file: await files.upsert(req.filesCaller, req.body) }),
  );

  app.get(
    '/',
    {
      schema: {
        operationId: 'files.listFiles',
        tags,
        security: BEARER,
        description:
          'Files of the bot the caller may access; tag filters as tags.k=v, tags[k]=v or tags={JSON}.',
        querystring: ListFilesQuery,
        response: responses(200, Type.Object({ files: Type.Array(FileObject), meta: ListMeta })),
      },
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
      });
      return listBody('files', page) as { files: never[]; meta: object };
    },
  );

  app.get(
    '/tags',
    {
      schema: {
        operationId: 'files.listFileTags',
        tags,
        security: BEARER,
        querystring: PageOnly,
        response: responses(200, Type.Object({ tags: Type.Array(Type.String()), meta: ListMeta })),
      },
    },
    async (req) =>
      listBody('tags', await files.tagKeys(req.filesCaller, req.query)) as { tags: string[]; meta: object },
  );

  app.get(
    '/tags/:tag/values',
    {
      schema: {
        operationId: 'files.listFileTagValues',
        tags,
        security: BEARER,
        params: Type.Object({ tag: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: PageOnly,
        response: responses(200, Type.Object({ values: Type.Array(Type.String()), meta: ListMeta })),
      },
    },
    async (req) =>
      listBody('values', await files.tagValues(req.filesCaller, req.params.tag, req.query)) as {
        values: string[];
        meta: object;
      },
  );
}
