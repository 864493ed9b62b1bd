import type { Static } from 'typebox';
import type {
  CreateKnowledgeSourceBody,
  FileObject,
  FilePassage,
  KnowledgeBase,
  KnowledgeBaseBody,
  KnowledgeSource,
  ListFilesQuery,
  ListMeta,
  SearchFilesQuery,
  SearchPassage,
  SetFilePassagesBody,
  UpdateFileBody,
  UpdateKnowledgeSourceBody,
  UpsertFileBody,
} from '../../index.js';
import type { PageInput, TagFilter } from './admin.js';

// Inputs of the Files API: path, query and body parameters in one object; answers are the wire envelopes.
// Every shape comes from @parley/protocol. Files are named by id or key wherever the API says "id".

/** A file named by its id (`file_…`) or its key. */
export interface FileIdInput {
  id: string;
}

/** Input of upsertFile: the key, the size in bytes that will be uploaded, and the file's settings. */
export type UpsertFileInput = UpsertFileBody;
/** Answer of upsertFile: the file, with the `uploadUrl` to PUT its bytes to (no token needed there). */
export interface UpsertFileResponse {
  file: FileObject & { uploadUrl: string };
}
/** Answer of getFile, updateFileMetadata, copyFile, setFilePassages and reindexFile. */
export interface FileResponse {
  file: FileObject;
}

/**
 * Input of listFiles: sort, cursor, `ids`, `indexed`, `keyContains`, `status`, and `tags` as a structured
 * filter (see `TagFilter`).
 */
export type ListFilesInput = Omit<Static<typeof ListFilesQuery>, 'tags' | 'nextToken'> & {
  tags?: TagFilter;
  /** `meta.nextToken` of the previous page; undefined (or absent) for the first page. */
  nextToken?: string | undefined;
};
/** Answer of listFiles: `meta.total` counts the files matching the filters, on every page. */
export interface ListFilesResponse {
  files: FileObject[];
  meta: ListMeta & { total?: number };
}

/** Input of updateFileMetadata: the file and the fields to change (`null` tag value: remove the tag). */
export type UpdateFileMetadataInput = FileIdInput & UpdateFileBody;

/** Input of copyFile. */
export interface CopyFileInput extends FileIdInput {
  /** Key of the copy. */
  destinationKey: string;
  /** Replace a file that already has `destinationKey` (else 409 AlreadyExists). */
  overwrite?: boolean;
  /** Copy to another bot of the workspace (sent as `x-destination-bot-id`); default the source bot. */
  destinationBotId?: string;
}

/** Answer of listFileTags: the tag keys used by the bot's files. */
export interface ListFileTagsResponse {
  tags: string[];
  meta: ListMeta;
}
/** Input of listFileTagValues. */
export type ListFileTagValuesInput = { tag: string } & PageInput;
/** Answer of listFileTagValues: the values one tag key takes. */
export interface ListFileTagValuesResponse {
  values: string[];
  meta: ListMeta;
}

/** Input of searchFiles: the query (at most 1 KB), options, and `tags` as a structured filter. */
export type SearchFilesInput = Omit<Static<typeof SearchFilesQuery>, 'tags'> & { tags?: TagFilter };
/** Answer of searchFiles: the best passages, best first. */
export interface SearchFilesResponse {
  passages: SearchPassage[];
}

/** A stored passage of a file. */
export type FilePassageItem = Static<typeof FilePassage>;
/** Input of listFilePassages (this list pages with `limit`, up to 200, not `pageSize`). */
export interface ListFilePassagesInput extends FileIdInput {
  nextToken?: string | undefined;
  limit?: number | undefined;
}
/** Answer of listFilePassages. */
export interface ListFilePassagesResponse {
  passages: FilePassageItem[];
  meta: ListMeta;
}
/** Input of setFilePassages: the caller's own chunks replace the file's passages. */
export type SetFilePassagesInput = FileIdInput & Static<typeof SetFilePassagesBody>;

/** Input of createKnowledgeBase. */
export type CreateKnowledgeBaseInput = Static<typeof KnowledgeBaseBody>;
/** Input of updateKnowledgeBase. */
export type UpdateKnowledgeBaseInput = { id: string } & Static<typeof KnowledgeBaseBody>;
/** Answer of the knowledge base operations. */
export interface KnowledgeBaseResponse {
  knowledgeBase: KnowledgeBase;
}
/** Answer of listKnowledgeBases. */
export interface ListKnowledgeBasesResponse {
  knowledgeBases: KnowledgeBase[];
  meta: ListMeta;
}
/** Input of linkKnowledgeBaseFile and unlinkKnowledgeBaseFile: the knowledge base and a file id or key. */
export interface KnowledgeBaseFileInput {
  id: string;
  fileId: string;
}
/** A file linked to a knowledge base, with its indexing state. */
export type { KnowledgeBaseFile, ListKnowledgeBaseFilesResponse } from '../../index.js';
/** Input of createKnowledgeSource: the knowledge base and the website to crawl into it. */
export type CreateKnowledgeSourceInput = { id: string } & CreateKnowledgeSourceBody;
/** Input of the operations on one website source: the knowledge base and the source. */
export interface KnowledgeSourceInput {
  id: string;
  sourceId: string;
}
/** Input of updateKnowledgeSource: the source, and the settings that change. */
export type UpdateKnowledgeSourceInput = KnowledgeSourceInput & UpdateKnowledgeSourceBody;
/** Answer of createKnowledgeSource, getKnowledgeSource, updateKnowledgeSource, syncKnowledgeSource and stopKnowledgeSource. */
export interface KnowledgeSourceResponse {
  source: KnowledgeSource;
}
/** A website source of a knowledge base, and the answer of listKnowledgeSources. */
export type { KnowledgeSource, ListKnowledgeSourcesResponse } from '../../index.js';
