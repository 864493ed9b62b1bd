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
    return this.core.page(OPS.listKnowledgeBases, options, { query: input }, 'knowledgeBases');
  }

  /** Creates a knowledge base: a named group of files searched together. */
  async createKnowledgeBase(
    input: CreateKnowledgeBaseInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse> {
    return this.core.call(OPS.createKnowledgeBase, options, { body: input });
  }

  /** Gets a knowledge base, with how many of its files are indexed, pending and failed. */
  async getKnowledgeBase({ id }: IdInput, options?: RequestOptions): Promise<KnowledgeBaseResponse> {
    return this.core.call(OPS.getKnowledgeBase, options, { params: { id } });
  }

  /** Renames a knowledge base; `tags`, when given, replace its tags. */
  async updateKnowledgeBase(
    { id, ...body }: UpdateKnowledgeBaseInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse> {
    return this.core.call(OPS.updateKnowledgeBase, options, { params: { id }, body });
  }

  /** Deletes a knowledge base (its files stay). */
  async deleteKnowledgeBase({ id }: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.call(OPS.deleteKnowledgeBase, options, { params: { id } });
  }

  /** The files linked to a knowledge base, with their indexing state. */
  async listKnowledgeBaseFiles(
    { id }: IdInput,
    options?: RequestOptions,
  ): Promise<ListKnowledgeBaseFilesResponse> {
    return this.core.call(OPS.listKnowledgeBaseFiles, options, { params: { id } });
  }

  /** Links a file (id or key) to a knowledge base; a file that is not indexed starts indexing. */
  async linkKnowledgeBaseFile(
    { id, fileId }: KnowledgeBaseFileInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse> {
    return this.core.call(OPS.linkKnowledgeBaseFile, options, { params: { id, fileId } });
  }

  /** Unlinks a file from a knowledge base (the file stays). */
  async unlinkKnowledgeBaseFile(
    { id, fileId }: KnowledgeBaseFileInput,
    options?: RequestOptions,
  ): Promise<KnowledgeBaseResponse> {
    return this.core.call(OPS.unlinkKnowledgeBaseFile, options, { params: { id, fileId } });
  }
}
