import type { KnowledgeBase } from '@parley/protocol';
import { KNOWLEDGE_BASE_OPERATIONS } from '@parley/protocol/operations';
import type { EmptyResponse, IdInput, PageInput } from './admin-types.js';
import { apiClass, type Lists, type Sends } from './api-class.js';
import type {
  CreateKnowledgeBaseInput,
  CreateKnowledgeSourceInput,
  KnowledgeBaseFileInput,
  KnowledgeBaseResponse,
  KnowledgeSourceInput,
  KnowledgeSourceResponse,
  ListKnowledgeBaseFilesResponse,
  ListKnowledgeBasesResponse,
  ListKnowledgeSourcesResponse,
  UpdateKnowledgeBaseInput,
} from './files-types.js';

/** A bot's knowledge bases (`/v1/files/knowledge-bases`): named groups of files searched together. */
export type KnowledgeBasesApi = {
  /** The bot's knowledge bases: await for a page, `for await` for every one. */
  listKnowledgeBases: Lists<PageInput | undefined, ListKnowledgeBasesResponse, KnowledgeBase>;
  /** Creates a knowledge base: a named group of files searched together. */
  createKnowledgeBase: Sends<CreateKnowledgeBaseInput, KnowledgeBaseResponse>;
  /** Gets a knowledge base, with how many of its files are indexed, pending and failed. */
  getKnowledgeBase: Sends<IdInput, KnowledgeBaseResponse>;
  /** Renames a knowledge base; `tags`, when given, replace its tags. */
  updateKnowledgeBase: Sends<UpdateKnowledgeBaseInput, KnowledgeBaseResponse>;
  /** Deletes a knowledge base (its files stay). */
  deleteKnowledgeBase: Sends<IdInput, EmptyResponse>;
  /** The files linked to a knowledge base, with their indexing state. */
  listKnowledgeBaseFiles: Sends<IdInput, ListKnowledgeBaseFilesResponse>;
  /** Links a file (id or key) to a knowledge base; a file that is not indexed starts indexing. */
  linkKnowledgeBaseFile: Sends<KnowledgeBaseFileInput, KnowledgeBaseResponse>;
  /** Unlinks a file from a knowledge base (the file stays). */
  unlinkKnowledgeBaseFile: Sends<KnowledgeBaseFileInput, KnowledgeBaseResponse>;
  /** Adds a website (start page or sitemap) to a knowledge base; its first crawl is queued at once. */
  createKnowledgeSource: Sends<CreateKnowledgeSourceInput, KnowledgeSourceResponse>;
  /** The website sources of a knowledge base. */
  listKnowledgeSources: Sends<IdInput, ListKnowledgeSourcesResponse>;
  /** A website source: its state, its crawl's counts and skipped pages, its last runs. */
  getKnowledgeSource: Sends<KnowledgeSourceInput, KnowledgeSourceResponse>;
  /** Queues a crawl of a website source (409 while one is queued or running). */
  syncKnowledgeSource: Sends<KnowledgeSourceInput, KnowledgeSourceResponse>;
  /** Stops a website source's crawl at its next page. */
  stopKnowledgeSource: Sends<KnowledgeSourceInput, KnowledgeSourceResponse>;
  /** Deletes a website source and the files of its pages. */
  deleteKnowledgeSource: Sends<KnowledgeSourceInput, EmptyResponse>;
};

/** Sends each method of `KnowledgeBasesApi` as its entry of `KNOWLEDGE_BASE_OPERATIONS`. */
export const KnowledgeBasesApi = apiClass(KNOWLEDGE_BASE_OPERATIONS).implementing<KnowledgeBasesApi>({
  listKnowledgeBases: 'knowledgeBases',
});
