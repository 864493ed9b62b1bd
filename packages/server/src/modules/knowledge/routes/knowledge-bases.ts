import { Empty, KnowledgeBase, KnowledgeBaseBody, ListKnowledgeBaseFilesResponse } from '@parley/protocol';
import { KNOWLEDGE_BASE_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { FILES_OPERATIONS, operations } from '../../../http/operation.js';
import { empty, pageBody, pageOf } from '../../../http/route-helpers.js';
import type { KnowledgeBaseService } from '../knowledge-bases.js';

/** What the knowledge base operations share: their tag, and a bearer token (the bot named by `x-bot-id`). */
const KB_OPERATIONS = { ...FILES_OPERATIONS, tags: ['knowledge bases'] };
const KbId = Type.String({ minLength: 1, maxLength: 100 });
const KbParam = Type.Object({ id: KbId });
const LinkParams = Type.Object({ id: KbId, fileId: Type.String({ minLength: 1, maxLength: 1024 }) });
const KbAnswer = Type.Object({ knowledgeBase: KnowledgeBase });
const KbPage = Type.Object({
  nextToken: Type.Optional(Type.String()),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});

/** The knowledge bases of a bot (list, create, get, update, delete) and their files (list, link, unlink). */
export function knowledgeBaseRoutes(
  app: FastifyInstance,
  { knowledgeBases }: { knowledgeBases: KnowledgeBaseService },
): void {
  const op = operations(app, KB_OPERATIONS);

  op(
    KNOWLEDGE_BASE_OPERATIONS.listKnowledgeBases,
    {
      query: KbPage,
      response: pageOf('knowledgeBases', KnowledgeBase),
    },
    async (req) => pageBody('knowledgeBases', await knowledgeBases.list(req.filesCaller, req.query)),
  );

  op(
    KNOWLEDGE_BASE_OPERATIONS.createKnowledgeBase,
    { body: KnowledgeBaseBody, status: 201, response: KbAnswer },
    async (req) => ({ knowledgeBase: await knowledgeBases.create(req.filesCaller, req.body) }),
  );

  op(KNOWLEDGE_BASE_OPERATIONS.getKnowledgeBase, { params: KbParam, response: KbAnswer }, async (req) => ({
    knowledgeBase: await knowledgeBases.get(req.filesCaller, req.params.id),
  }));

  op(
    KNOWLEDGE_BASE_OPERATIONS.updateKnowledgeBase,
    {
      params: KbParam,
      body: KnowledgeBaseBody,
      response: KbAnswer,
    },
    async (req) => ({ knowledgeBase: await knowledgeBases.update(req.filesCaller, req.params.id, req.body) }),
  );

  op(KNOWLEDGE_BASE_OPERATIONS.deleteKnowledgeBase, { params: KbParam, response: Empty }, async (req) =>
    empty(knowledgeBases.delete(req.filesCaller, req.params.id)),
  );

  // The files of a knowledge base: listed with their indexing state, linked, unlinked.
  op(
    KNOWLEDGE_BASE_OPERATIONS.listKnowledgeBaseFiles,
    {
      description: 'The files linked to the knowledge base with their indexing state.',
      params: KbParam,
      response: ListKnowledgeBaseFilesResponse,
    },
    async (req) => ({ files: await knowledgeBases.files(req.filesCaller, req.params.id) }),
  );

  op(
    KNOWLEDGE_BASE_OPERATIONS.linkKnowledgeBaseFile,
    {
      description:
        'Links a file (id or key) to the knowledge base; a file that is not indexed starts indexing.',
      params: LinkParams,
      response: KbAnswer,
    },
    async (req) => ({
      knowledgeBase: await knowledgeBases.link(req.filesCaller, req.params.id, req.params.fileId),
    }),
  );

  op(
    KNOWLEDGE_BASE_OPERATIONS.unlinkKnowledgeBaseFile,
    { params: LinkParams, response: KbAnswer },
    async (req) => ({
      knowledgeBase: await knowledgeBases.unlink(req.filesCaller, req.params.id, req.params.fileId),
    }),
  );
}
