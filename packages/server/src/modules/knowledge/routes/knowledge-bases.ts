import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  Empty,
  KnowledgeBase,
  KnowledgeBaseBody,
  ListKnowledgeBaseFilesResponse,
  ListMeta,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, listBody, responses } from '../../../http/route-helpers.js';
import type { KnowledgeBaseService } from '../knowledge-bases.js';

const kbTags = ['knowledge bases'];
const Id = Type.String({ minLength: 1, maxLength: 1024 });
const KbParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const KbAnswer = Type.Object({ knowledgeBase: KnowledgeBase });

/** The knowledge bases of a bot: list, create, get, update, delete. */
export function knowledgeBaseRoutes(
  fastify: FastifyInstance,
  deps: { knowledgeBases: KnowledgeBaseService },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
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
}

/** The files of a knowledge base: listed with their indexing state, linked, unlinked. */
export function knowledgeBaseFileRoutes(
  fastify: FastifyInstance,
  deps: { knowledgeBases: KnowledgeBaseService },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
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
