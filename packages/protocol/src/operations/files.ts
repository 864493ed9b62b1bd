import type { EmptyResponse, IdInput, PageInput } from './io/admin.js';
import type {
  CopyFileInput,
  CreateKnowledgeBaseInput,
  CreateKnowledgeSourceInput,
  FileIdInput,
  FileResponse,
  KnowledgeBaseFileInput,
  KnowledgeBaseResponse,
  KnowledgeSourceInput,
  KnowledgeSourceResponse,
  ListFilePassagesInput,
  ListFilePassagesResponse,
  ListFilesInput,
  ListFilesResponse,
  ListFileTagsResponse,
  ListFileTagValuesInput,
  ListFileTagValuesResponse,
  ListKnowledgeBaseFilesResponse,
  ListKnowledgeBasesResponse,
  ListKnowledgeSourcesResponse,
  SearchFilesInput,
  SearchFilesResponse,
  SetFilePassagesInput,
  UpdateFileMetadataInput,
  UpdateKnowledgeBaseInput,
  UpdateKnowledgeSourceInput,
  UpsertFileInput,
  UpsertFileResponse,
} from './io/files.js';
import { lists, operations, sends } from './operation.js';

/** The file records part of the Files API: one entry per method of `FilesApi`. */
export const FILE_OPERATIONS = /* @__PURE__ */ operations('files', {
  /**
   * Creates a file record, or replaces the one with the same key (`PUT /v1/files`); answers it with the
   * `uploadUrl` to PUT exactly `size` bytes to. `uploadFile` does both steps.
   */
  upsertFile: sends<UpsertFileInput, UpsertFileResponse>('PUT /v1/files'),
  /**
   * Lists the bot's files the caller may access: await for a page, `for await` for every file.
   * `tags` filters like listBots' (`{ team: 'sales' }`, `{ team: { not: 'x' } }`, …); `keyContains` keeps the
   * keys containing a text (case-insensitive), `status` the files in one of the states given.
   */
  listFiles: lists<ListFilesInput | undefined, ListFilesResponse>('GET /v1/files', 'files'),
  /** Gets a file by id or key; its `url` downloads it (signed and short-lived unless `public_content`). */
  getFile: sends<FileIdInput, FileResponse>('GET /v1/files/{id}'),
  /** Changes a file's tags, metadata, access policies or expiry; a `null` tag value removes the tag. */
  updateFileMetadata: sends<UpdateFileMetadataInput, FileResponse>('PUT /v1/files/{id}'),
  /** Deletes a file (id or key), its content and its passages. */
  deleteFile: sends<FileIdInput, EmptyResponse>('DELETE /v1/files/{id}'),
  /**
   * Copies a file to `destinationKey`, on the same bot or on `destinationBotId` (sent as
   * `x-destination-bot-id`); `overwrite` replaces a file already there (else 409 AlreadyExists).
   */
  copyFile: sends<CopyFileInput, FileResponse>('POST /v1/files/{id}/{destinationKey}', {
    headers: { 'x-destination-bot-id': 'destinationBotId' },
  }),
  /** The tag keys the bot's files use: await for a page, `for await` for every key. */
  listFileTags: lists<PageInput | undefined, ListFileTagsResponse>('GET /v1/files/tags', 'tags'),
  /** The values one tag key takes on the bot's files: await for a page, `for await` for every value. */
  listFileTagValues: lists<ListFileTagValuesInput, ListFileTagValuesResponse>(
    'GET /v1/files/tags/{tag}/values',
    'values',
  ),
  /**
   * The passages of the indexed files the caller may read that best match `query` (at most 1 KB), best
   * first; `mode` picks hybrid (default), lexical or semantic ranking. `tags` filters the files,
   * `knowledgeBaseIds` keeps the files linked to those knowledge bases.
   */
  searchFiles: sends<SearchFilesInput, SearchFilesResponse>('GET /v1/files/search'),
  /** The stored passages of a file, in order: await for a page (`limit` ≤ 200), `for await` for all. */
  listFilePassages: lists<ListFilePassagesInput, ListFilePassagesResponse>(
    'GET /v1/files/{id}/passages',
    'passages',
  ),
  /** Replaces a file's passages with your own chunks; they are embedded in the background. */
  setFilePassages: sends<SetFilePassagesInput, FileResponse>('PUT /v1/files/{id}/passages'),
  /** Indexes a file again without a new upload (after `indexing_failed`, or for a new model); turns `index` on. */
  reindexFile: sends<FileIdInput, FileResponse>('PUT /v1/files/{id}/index', { noBody: true }),
});

/** The knowledge bases part of the Files API: one entry per method of `KnowledgeBasesApi`. */
export const KNOWLEDGE_BASE_OPERATIONS = /* @__PURE__ */ operations('files', {
  /** The bot's knowledge bases: await for a page, `for await` for every one. */
  listKnowledgeBases: lists<PageInput | undefined, ListKnowledgeBasesResponse>(
    'GET /v1/files/knowledge-bases',
    'knowledgeBases',
  ),
  /** Creates a knowledge base: a named group of files searched together. */
  createKnowledgeBase: sends<CreateKnowledgeBaseInput, KnowledgeBaseResponse>(
    'POST /v1/files/knowledge-bases',
  ),
  /** Gets a knowledge base, with how many of its files are indexed, pending and failed. */
  getKnowledgeBase: sends<IdInput, KnowledgeBaseResponse>('GET /v1/files/knowledge-bases/{id}'),
  /** Renames a knowledge base; `tags`, when given, replace its tags. */
  updateKnowledgeBase: sends<UpdateKnowledgeBaseInput, KnowledgeBaseResponse>(
    'PUT /v1/files/knowledge-bases/{id}',
  ),
  /** Deletes a knowledge base (its files stay). */
  deleteKnowledgeBase: sends<IdInput, EmptyResponse>('DELETE /v1/files/knowledge-bases/{id}'),
  /** The files linked to a knowledge base, with their indexing state. */
  listKnowledgeBaseFiles: sends<IdInput, ListKnowledgeBaseFilesResponse>(
    'GET /v1/files/knowledge-bases/{id}/files',
  ),
  /** Links a file (id or key) to a knowledge base; a file that is not indexed starts indexing. */
  linkKnowledgeBaseFile: sends<KnowledgeBaseFileInput, KnowledgeBaseResponse>(
    'PUT /v1/files/knowledge-bases/{id}/files/{fileId}',
    { noBody: true },
  ),
  /** Unlinks a file from a knowledge base (the file stays). */
  unlinkKnowledgeBaseFile: sends<KnowledgeBaseFileInput, KnowledgeBaseResponse>(
    'DELETE /v1/files/knowledge-bases/{id}/files/{fileId}',
  ),
  /** Adds a website (start page or sitemap) to a knowledge base; its first crawl is queued at once. */
  createKnowledgeSource: sends<CreateKnowledgeSourceInput, KnowledgeSourceResponse>(
    'POST /v1/files/knowledge-bases/{id}/sources',
  ),
  /** The website sources of a knowledge base. */
  listKnowledgeSources: sends<IdInput, ListKnowledgeSourcesResponse>(
    'GET /v1/files/knowledge-bases/{id}/sources',
  ),
  /** A website source: its state, its crawl's counts and skipped pages, its last runs. */
  getKnowledgeSource: sends<KnowledgeSourceInput, KnowledgeSourceResponse>(
    'GET /v1/files/knowledge-bases/{id}/sources/{sourceId}',
  ),
  /** Changes a website source's settings (include, exclude, limits, subdomains, schedule) from its next crawl. */
  updateKnowledgeSource: sends<UpdateKnowledgeSourceInput, KnowledgeSourceResponse>(
    'PUT /v1/files/knowledge-bases/{id}/sources/{sourceId}',
  ),
  /** Queues a crawl of a website source (409 while one is queued or running). */
  syncKnowledgeSource: sends<KnowledgeSourceInput, KnowledgeSourceResponse>(
    'POST /v1/files/knowledge-bases/{id}/sources/{sourceId}/sync',
    { noBody: true },
  ),
  /** Stops a website source's crawl at its next page. */
  stopKnowledgeSource: sends<KnowledgeSourceInput, KnowledgeSourceResponse>(
    'POST /v1/files/knowledge-bases/{id}/sources/{sourceId}/stop',
    { noBody: true },
  ),
  /** Deletes a website source and the files of its pages. */
  deleteKnowledgeSource: sends<KnowledgeSourceInput, EmptyResponse>(
    'DELETE /v1/files/knowledge-bases/{id}/sources/{sourceId}',
  ),
});
