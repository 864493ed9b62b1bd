import type { KnowledgeBase } from '@parley/protocol';
import type { EmptyResponse, IdInput, PageInput } from './admin-types.js';
import { apiClass } from './api-class.js';
import type { PagePromise, RequestOptions } from './core.js';
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
import { KNOWLEDGE_BASE_OPERATIONS } from './operations.js';

/** A bot's knowledge bases (`/v1/files/knowledge-bases`): named groups of files searched together. */
export interface KnowledgeBasesApi {
  /** The bot's knowledge bases: await for a page, `for await` for every one. */
  listKnowledgeBases(
    input?: PageInput,
    options?: RequestOptions,
  ): PagePromise<ListKnowledgeBasesResponse, KnowledgeBase>;
  /** Creates a knowledge base: a named group of files searched together. */
  createKnowledgeBase(
    input: CreateKnowledgeBaseInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse>;
  /** Gets a knowledge base, with how many of its files are indexed, pending and failed. */
  getKnowledgeBase(input: IdInput, options?: RequestOptions): Promise<KnowledgeBaseResponse>;
  /** Renames a knowledge base; `tags`, when given, replace its tags. */
  updateKnowledgeBase(
    input: UpdateKnowledgeBaseInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse>;
  /** Deletes a knowledge base (its files stay). */
  deleteKnowledgeBase(input: IdInput, options?: RequestOptions): Promise<EmptyResponse>;
  /** The files linked to a knowledge base, with their indexing state. */
  listKnowledgeBaseFiles(input: IdInput, options?: RequestOptions): Promise<ListKnowledgeBaseFilesResponse>;
  /** Links a file (id or key) to a knowledge base; a file that is not indexed starts indexing. */
  linkKnowledgeBaseFile(
    input: KnowledgeBaseFileInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse>;
  /** Unlinks a file from a knowledge base (the file stays). */
  unlinkKnowledgeBaseFile(
    input: KnowledgeBaseFileInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse>;
  /** Adds a website (start page or sitemap) to a knowledge base; its first crawl is queued at once. */
  createKnowledgeSource(
    input: CreateKnowledgeSourceInput,
    options?: RequestOptions,
  ): Promise<KnowledgeSourceResponse>;
  /** The website sources of a knowledge base. */
  listKnowledgeSources(input: IdInput, options?: RequestOptions): Promise<ListKnowledgeSourcesResponse>;
  /** A website source: its state, its crawl's counts and skipped pages, its last runs. */
  getKnowledgeSource(input: KnowledgeSourceInput, options?: RequestOptions): Promise<KnowledgeSourceResponse>;
  /** Queues a crawl of a website source (409 while one is queued or running). */
  syncKnowledgeSource(
    input: KnowledgeSourceInput,
    options?: RequestOptions,
  ): Promise<KnowledgeSourceResponse>;
  /** Stops a website source's crawl at its next page. */
  stopKnowledgeSource(
    input: KnowledgeSourceInput,
    options?: RequestOptions,
  ): Promise<KnowledgeSourceResponse>;
  /** Deletes a website source and the files of its pages. */
  deleteKnowledgeSource(input: KnowledgeSourceInput, options?: RequestOptions): Promise<EmptyResponse>;
}

/** Sends each method of `KnowledgeBasesApi` as its entry of `KNOWLEDGE_BASE_OPERATIONS`. */
export const KnowledgeBasesApi = apiClass(KNOWLEDGE_BASE_OPERATIONS).implementing<KnowledgeBasesApi>({
  listKnowledgeBases: 'knowledgeBases',
});
