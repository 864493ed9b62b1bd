import {
  FileObject,
  ListFilePassagesResponse,
  MAX_PASSAGES_PAGE,
  SearchFilesQuery,
  SearchFilesResponse,
  SetFilePassagesBody,
} from '@parley/protocol';
import { FILE_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { FILES_OPERATIONS, operations } from '../../../http/operation.js';
import { pageBody } from '../../../http/route-helpers.js';
import { parseTagFilter } from '../../../http/tag-filter.js';
import type { FilesService } from '../../files/service.js';
import type { KnowledgeBaseService } from '../knowledge-bases.js';
import type { PassagesService } from '../passages.js';
import type { SearchService } from '../search.js';

const FileParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 1024 }) });
const FileAnswer = Type.Object({ file: FileObject });

/** searchFiles, scoped to knowledge bases when asked. */
export function searchRoute(
  app: FastifyInstance,
  deps: { search: SearchService; knowledgeBases: KnowledgeBaseService },
): void {
  operations(app, FILES_OPERATIONS)(
    FILE_OPERATIONS.searchFiles,
    {
      description:
        'Passages of the indexed files the caller may read that best match `query` (hybrid lexical + semantic ranking by default).',
      query: SearchFilesQuery,
      response: SearchFilesResponse,
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
  app: FastifyInstance,
  deps: { files: FilesService; passages: PassagesService },
): void {
  const op = operations(app, FILES_OPERATIONS);

  op(
    FILE_OPERATIONS.listFilePassages,
    {
      params: FileParam,
      query: Type.Object({
        nextToken: Type.Optional(Type.String()),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PASSAGES_PAGE })),
      }),
      response: ListFilePassagesResponse,
    },
    async (req) => pageBody('passages', await deps.passages.list(req.filesCaller, req.params.id, req.query)),
  );

  op(
    FILE_OPERATIONS.setFilePassages,
    {
      description:
        "Replaces the file's passages with the caller's own chunks; they are embedded in the background.",
      params: FileParam,
      body: SetFilePassagesBody,
      response: FileAnswer,
    },
    async (req) => ({ file: await deps.passages.set(req.filesCaller, req.params.id, req.body.passages) }),
  );

  op(
    FILE_OPERATIONS.reindexFile,
    {
      description:
        'Indexes the file again without a new upload (after indexing_failed, or to use a new model); turns `index` on.',
      params: FileParam,
      response: FileAnswer,
    },
    async (req) => ({ file: await deps.files.reindex(req.filesCaller, req.params.id) }),
  );
}
