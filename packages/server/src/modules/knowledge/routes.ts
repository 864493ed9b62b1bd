import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  Empty,
  FileObject,
  KnowledgeBase,
  KnowledgeBaseBody,
  ListFilePassagesResponse,
  ListKnowledgeBaseFilesResponse,
  ListMeta,
  MAX_PASSAGES_PAGE,
  SearchFilesQuery,
  SearchFilesResponse,
  SetFilePassagesBody,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, listBody, responses } from '../../http/route-helpers.js';
import { parseTagFilter } from '../../http/tag-filter.js';
import type { FilesService } from '../files/service.js';
import type { KnowledgeBaseService } from './knowledge-bases.js';
import type { PassagesService } from './passages.js';
import type { SearchService } from './search.js';

const tags = ['files'];
const kbTags = ['knowledge bases'];
const Id = Type.String({ minLength: 1, maxLength: 1024 });

/** searchFiles, passages, re-indexing and knowledge bases, under `/v1/files`. */
export function knowledgeRoutes(
  fastify: FastifyInstance,
  deps: {
    files: FilesService;
    search: SearchService;
    passages: PassagesService;
    knowledgeBases: KnowledgeBaseService;
  },
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

  const KbParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
  const KbAnswer = Type.Object({ knowledgeBase: KnowledgeBase });

  app.get(
    '/knowledge-bases',
    {
      schema: {
        operationId: 'files.listKnowledgeBases',
        tags: kbTags,
        security: BEARER,
        querystring: Type.Object({
          nextToken: Type.Optional(Type.String()),
          pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
        }),
        response: responses(200, Type.Object({ knowledgeBases: Type.Array(KnowledgeBase), meta: ListMeta })),
      },
    },
    async (req) =>
      listBody('knowledgeBases', await deps.knowledgeBases.list(req.filesCaller, req.query)) as {
        knowledgeBases: never[];
        meta: object;
      },
  );

  app.post(
    '/knowledge-bases',
    {
      schema: {
        operationId: 'files.createKnowledgeBase',
        tags: kbTags,
        security: BEARER,
        body: KnowledgeBaseBody,
        response: responses(201, KbAnswer),
      },
    },
    async (req, reply) =>
      reply.status(201).send({ knowledgeBase: await deps.knowledgeBases.create(req.filesCaller, req.body) }),
  );

  app.get(
    '/knowledge-bases/:id',
    {
      schema: {
        operationId: 'files.getKnowledgeBase',
        tags: kbTags,
        security: BEARER,
        params: KbParam,
        response: responses(200, KbAnswer),
      },
    },
    async (req) => ({ knowledgeBase: await deps.knowledgeBases.get(req.filesCaller, req.params.id) }),
  );

  app.put(
    '/knowledge-bases/:id',
    {
      schema: {
        operationId: 'files.updateKnowledgeBase',
        tags: kbTags,
        security: BEARER,
        params: KbParam,
        body: KnowledgeBaseBody,
        response: responses(200, KbAnswer),
      },
    },
    async (req) => ({
      knowledgeBase: await deps.knowledgeBases.update(req.filesCaller, req.params.id, req.body),
    }),
  );

  app.delete(
    '/knowledge-bases/:id',
    {
      schema: {
        operationId: 'files.deleteKnowledgeBase',
        tags: kbTags,
        security: BEARER,
        params: KbParam,
        response: responses(200, Empty),
      },
    },
    async (req) => {
      await deps.knowledgeBases.delete(req.filesCaller, req.params.id);
      return {};
    },
  );

  app.get(
    '/knowledge-bases/:id/files',
    {
      schema: {
        operationId: 'files.listKnowledgeBaseFiles',
        tags: kbTags,
        security: BEARER,
        description: 'The files linked to the knowledge base with their indexing state.',
        params: KbParam,
        response: responses(200, ListKnowledgeBaseFilesResponse),
      },
    },
    async (req) => ({ files: await deps.knowledgeBases.files(req.filesCaller, req.params.id) }),
  );

  app.put(
    '/knowledge-bases/:id/files/:fileId',
    {
      schema: {
        operationId: 'files.linkKnowledgeBaseFile',
        tags: kbTags,
        security: BEARER,
        description:
          'Links a file (id or key) to the knowledge base; a file that is not indexed starts indexing.',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), fileId: Id }),
        response: responses(200, KbAnswer),
      },
    },
    async (req) => ({
      knowledgeBase: await deps.knowledgeBases.link(req.filesCaller, req.params.id, req.params.fileId),
    }),
  );

  app.delete(
    '/knowledge-bases/:id/files/:fileId',
    {
      schema: {
        operationId: 'files.unlinkKnowledgeBaseFile',
        tags: kbTags,
        security: BEARER,
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), fileId: Id }),
        response: responses(200, KbAnswer),
      },
    },
    async (req) => ({
      knowledgeBase: await deps.knowledgeBases.unlink(req.filesCaller, req.params.id, req.params.fileId),
    }),
  );
}
