import type { FastifyInstance } from 'fastify';
import type { FilesService } from '../files/service.js';
import type { KnowledgeBaseService } from './knowledge-bases.js';
import type { PassagesService } from './passages.js';
import { knowledgeBaseRoutes } from './routes/knowledge-bases.js';
import { passageRoutes, searchRoute } from './routes/search.js';
import { sourceRoutes } from './routes/sources.js';
import type { SearchService } from './search.js';
import type { WebsiteSourcesService } from './websites/sources.js';

/** searchFiles, passages, re-indexing and knowledge bases, under `/v1/files`. */
export function knowledgeRoutes(
  fastify: FastifyInstance,
  deps: {
    files: FilesService;
    search: SearchService;
    passages: PassagesService;
    knowledgeBases: KnowledgeBaseService;
    websites: WebsiteSourcesService;
  },
) {
  // Registered in this order, so the OpenAPI document lists the operations as it always has.
  searchRoute(fastify, deps);
  passageRoutes(fastify, deps);
  knowledgeBaseRoutes(fastify, deps);
  sourceRoutes(fastify, deps);
}
