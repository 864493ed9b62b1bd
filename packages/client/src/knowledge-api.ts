import type { KnowledgeBase } from '@parley/protocol';
import type { EmptyResponse, IdInput, PageInput } from './admin-types.js';
import { Api, type PagePromise, type RequestOptions } from './core.js';
import type {
  CreateKnowledgeBaseInput,
  KnowledgeBaseFileInput,
  KnowledgeBaseResponse,
  ListKnowledgeBaseFilesResponse,
  ListKnowledgeBasesResponse,
  UpdateKnowledgeBaseInput,
} from './files-types.js';
import { KNOWLEDGE_BASE_OPERATIONS as OPS } from './operations.js';

/** A bot's knowledge bases (`/v1/files/knowledge-bases`): named groups of files searched together. */
export class KnowledgeBasesApi extends Api {
  /** The bot's knowledge bases: await for a page, `for await` for every one. */
  listKnowledgeBases(
    input: PageInput = {},
    options?: RequestOptions,
  ): PagePromise<ListKnowledgeBasesResponse, KnowledgeBase> {
    return this.core.list(OPS.listKnowledgeBases, input, options, 'knowledgeBases');
  }

  /** Creates a knowledge base: a named group of files searched together. */
  async createKnowledgeBase(
    input: CreateKnowledgeBaseInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse> {
    return this.core.send(OPS.createKnowledgeBase, input, options);
  }

  /** Gets a knowledge base, with how many of its files are indexed, pending and failed. */
  async getKnowledgeBase(input: IdInput, options?: RequestOptions): Promise<KnowledgeBaseResponse> {
    return this.core.send(OPS.getKnowledgeBase, input, options);
  }

  /** Renames a knowledge base; `tags`, when given, replace its tags. */
  async updateKnowledgeBase(
    input: UpdateKnowledgeBaseInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse> {
    return this.core.send(OPS.updateKnowledgeBase, input, options);
  }

  /** Deletes a knowledge base (its files stay). */
  async deleteKnowledgeBase(input: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.send(OPS.deleteKnowledgeBase, input, options);
  }

  /** The files linked to a knowledge base, with their indexing state. */
  async listKnowledgeBaseFiles(
    input: IdInput,
    options?: RequestOptions,
  ): Promise<ListKnowledgeBaseFilesResponse> {
    return this.core.send(OPS.listKnowledgeBaseFiles, input, options);
  }

  /** Links a file (id or key) to a knowledge base; a file that is not indexed starts indexing. */
  async linkKnowledgeBaseFile(
    input: KnowledgeBaseFileInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse> {
    return this.core.send(OPS.linkKnowledgeBaseFile, input, options);
  }

  /** Unlinks a file from a knowledge base (the file stays). */
  async unlinkKnowledgeBaseFile(
    input: KnowledgeBaseFileInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse> {
    return this.core.send(OPS.unlinkKnowledgeBaseFile, input, options);
  }
}
