import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  FileObject,
  ListFilePassagesResponse,
  MAX_PASSAGES_PAGE,
  SearchFilesQuery,
  SearchFilesResponse,
  SetFilePassagesBody,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, listBody, responses } from '../../../http/route-helpers.js';
import { parseTagFilter } from '../../../http/tag-filter.js';
import type { FilesService } from '../../files/service.js';
import type { KnowledgeBaseService } from '../knowledge-bases.js';
import type { PassagesService } from '../passages.js';
import type { SearchService } from '../search.js';

const tags = ['files'];
const Id = Type.String({ minLength: 1, maxLength: 1024 });

/** searchFiles, scoped to knowledge bases when asked. */
export function searchRoute(
  fastify: FastifyInstance,
  deps: { search: SearchService; knowledgeBases: KnowledgeBaseService },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/search',
    {
      schema: {
        operationId: 'files.searchFiles',
        tags,
        security: BEARER,
        description:
          'Passages of the indexed files the caller may read that best match `query` (hybrid lexical + semantic ranking by default).',
        querystring: SearchFilesQuery,
        response: responses(200, SearchFilesResponse),
      },
    },
    async (req) => {
      const c = req.filesCaller;
      const q = req.query;
      const fileIds = q.knowledgeBaseIds?.length
        ? await deps.knowledgeBases.fileIdsOf(c, q.knowledgeBaseIds)
        : undefined;
      const passages = await deps.search.search(c, {
        query: q.query,
        limit: q.limit,
        tags: parseTagFilter(q as Record<string, unknown>),
        contextDepth: q.contextDepth,
        consolidate: q.consolidate,
        includeBreadcrumb: q.includeBreadcrumb,
        withContext: q.withContext,
        fileIds,
        mode: q.mode,
      });
      return { passages };
    },
  );
}

/** A file's passages (listed, or set by the caller) and its re-indexing. */
export function passageRoutes(
  fastify: FastifyInstance,
  deps: { files: FilesService; passages: PassagesService },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/:id/passages',
    {
      schema: {
        operationId: 'files.listFilePassages',
        tags,
        security: BEARER,
        params: Type.Object({ id: Id }),
        querystring: Type.Object({
          nextToken: Type.Optional(Type.String()),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PASSAGES_PAGE })),
        }),
        response: responses(200, ListFilePassagesResponse),
      },
    },
    async (req) =>
      listBody('passages', await deps.passages.list(req.filesCaller, req.params.id, req.query)) as {
        passages: never[];
        meta: object;
      },
  );

  app.put(
    '/:id/passages',
    {
      schema: {
        operationId: 'files.setFilePassages',
        tags,
        security: BEARER,
        description:
          "Replaces the file's passages with the caller's own chunks; they are embedded in the background.",
        params: Type.Object({ id: Id }),
        body: SetFilePassagesBody,
        response: responses(200, Type.Object({ file: FileObject })),
      },
    },
    async (req) => ({ file: await deps.passages.set(req.filesCaller, req.params.id, req.body.passages) }),
  );

  app.put(
    '/:id/index',
    {
      schema: {
        operationId: 'files.reindexFile',
        tags,
        security: BEARER,
        description:
          'Indexes the file again without a new upload (after indexing_failed, or to use a new model); turns `index` on.',
        params: Type.Object({ id: Id }),
        response: responses(200, Type.Object({ file: FileObject })),
      },
    },
    async (req) => ({ file: await deps.files.reindex(req.filesCaller, req.params.id) }),
  );
}
