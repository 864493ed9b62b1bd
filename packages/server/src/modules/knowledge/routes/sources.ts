import {
  CreateKnowledgeSourceBody,
  Empty,
  KnowledgeSourceResponse,
  ListKnowledgeSourcesResponse,
  UpdateKnowledgeSourceBody,
} from '@parley/protocol';
import { KNOWLEDGE_BASE_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { FILES_OPERATIONS, operations } from '../../../http/operation.js';
import { empty } from '../../../http/route-helpers.js';
import type { WebsiteSourcesService } from '../websites/sources.js';

const SOURCE_OPERATIONS = { ...FILES_OPERATIONS, tags: ['knowledge bases'] };
const KbId = Type.String({ minLength: 1, maxLength: 100 });
const KbParam = Type.Object({ id: KbId });
const SourceParams = Type.Object({ id: KbId, sourceId: Type.String({ minLength: 1, maxLength: 100 }) });

/** The website sources of a knowledge base: create (and crawl), list, get, update, sync, stop, delete. */
export function sourceRoutes(app: FastifyInstance, { websites }: { websites: WebsiteSourcesService }): void {
  const op = operations(app, SOURCE_OPERATIONS);

  op(
    KNOWLEDGE_BASE_OPERATIONS.createKnowledgeSource,
    {
      description:
        'Adds a website (a start page or a sitemap) to the knowledge base; its first crawl is queued at once. Its pages become files of the bot (`web/{host}/{path}`, tag `webSource`).',
      params: KbParam,
      body: CreateKnowledgeSourceBody,
      status: 201,
      response: KnowledgeSourceResponse,
    },
    async (req) => ({ source: await websites.create(req.filesCaller, req.params.id, req.body) }),
  );

  op(
    KNOWLEDGE_BASE_OPERATIONS.listKnowledgeSources,
    {
      description:
        'The websites of the knowledge base, and whether this server renders pages by JavaScript (`PARLEY_CRAWL_RENDER_JS`).',
      params: KbParam,
      response: ListKnowledgeSourcesResponse,
    },
    async (req) => ({
      sources: await websites.list(req.filesCaller, req.params.id),
      rendersJavaScript: websites.rendersJavaScript,
    }),
  );

  op(
    KNOWLEDGE_BASE_OPERATIONS.getKnowledgeSource,
    {
      description: "The source's state, its crawl's counts and skipped pages, and its last runs.",
      params: SourceParams,
      response: KnowledgeSourceResponse,
    },
    async (req) => ({ source: await websites.get(req.filesCaller, req.params.id, req.params.sourceId) }),
  );

  op(
    KNOWLEDGE_BASE_OPERATIONS.updateKnowledgeSource,
    {
      description:
        "Changes the source's include and exclude patterns, page and depth limits, subdomains or schedule (each one given replaces the source's). They apply from the next crawl; a changed schedule counts from now.",
      params: SourceParams,
      body: UpdateKnowledgeSourceBody,
      response: KnowledgeSourceResponse,
    },
    async (req) => ({
      source: await websites.update(req.filesCaller, req.params.id, req.params.sourceId, req.body),
    }),
  );

  op(
    KNOWLEDGE_BASE_OPERATIONS.syncKnowledgeSource,
    {
      description: 'Queues a crawl of the source (409 while one is queued or running).',
      params: SourceParams,
      response: KnowledgeSourceResponse,
    },
    async (req) => ({ source: await websites.sync(req.filesCaller, req.params.id, req.params.sourceId) }),
  );

  op(
    KNOWLEDGE_BASE_OPERATIONS.stopKnowledgeSource,
    {
      description: 'Stops the queued or running crawl at its next page (the pages written so far stay).',
      params: SourceParams,
      response: KnowledgeSourceResponse,
    },
    async (req) => ({ source: await websites.stop(req.filesCaller, req.params.id, req.params.sourceId) }),
  );

  op(
    KNOWLEDGE_BASE_OPERATIONS.deleteKnowledgeSource,
    {
      description: 'Deletes the source and the files of its pages; a running crawl stops.',
      params: SourceParams,
      response: Empty,
    },
    async (req) => empty(websites.delete(req.filesCaller, req.params.id, req.params.sourceId)),
  );
}
