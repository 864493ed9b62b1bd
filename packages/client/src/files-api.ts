import type { FileObject } from '@parley/protocol';
import { FILE_OPERATIONS } from '@parley/protocol/operations';
import type { EmptyResponse, PageInput } from './admin-types.js';
import { apiClass, type Lists, type Sends } from './api-class.js';
import type {
  CopyFileInput,
  FileIdInput,
  FilePassageItem,
  FileResponse,
  ListFilePassagesInput,
  ListFilePassagesResponse,
  ListFilesInput,
  ListFilesResponse,
  ListFileTagsResponse,
  ListFileTagValuesInput,
  ListFileTagValuesResponse,
  SearchFilesInput,
  SearchFilesResponse,
  SetFilePassagesInput,
  UpdateFileMetadataInput,
  UpsertFileInput,
  UpsertFileResponse,
} from './files-types.js';

/** The files of a bot (`/v1/files`, `x-bot-id`: the client's `botId` or `options.botId`): records, tags, search, passages. */
export type FilesApi = {
  /**
   * Creates a file record, or replaces the one with the same key (`PUT /v1/files`); answers it with the
   * `uploadUrl` to PUT exactly `size` bytes to. `uploadFile` does both steps.
   */
  upsertFile: Sends<UpsertFileInput, UpsertFileResponse>;
  /**
   * Lists the bot's files the caller may access: await for a page, `for await` for every file.
   * `tags` filters like listBots' (`{ team: 'sales' }`, `{ team: { not: 'x' } }`, …); `keyContains` keeps the
   * keys containing a text (case-insensitive), `status` the files in one of the states given.
   */
  listFiles: Lists<ListFilesInput | undefined, ListFilesResponse, FileObject>;
  /** Gets a file by id or key; its `url` downloads it (signed and short-lived unless `public_content`). */
  getFile: Sends<FileIdInput, FileResponse>;
  /** Changes a file's tags, metadata, access policies or expiry; a `null` tag value removes the tag. */
  updateFileMetadata: Sends<UpdateFileMetadataInput, FileResponse>;
  /** Deletes a file (id or key), its content and its passages. */
  deleteFile: Sends<FileIdInput, EmptyResponse>;
  /**
   * Copies a file to `destinationKey`, on the same bot or on `destinationBotId` (sent as
   * `x-destination-bot-id`); `overwrite` replaces a file already there (else 409 AlreadyExists).
   */
  copyFile: Sends<CopyFileInput, FileResponse>;
  /** The tag keys the bot's files use: await for a page, `for await` for every key. */
  listFileTags: Lists<PageInput | undefined, ListFileTagsResponse, string>;
  /** The values one tag key takes on the bot's files: await for a page, `for await` for every value. */
  listFileTagValues: Lists<ListFileTagValuesInput, ListFileTagValuesResponse, string>;
  /**
   * The passages of the indexed files the caller may read that best match `query` (at most 1 KB), best
   * first; `mode` picks hybrid (default), lexical or semantic ranking. `tags` filters the files,
   * `knowledgeBaseIds` keeps the files linked to those knowledge bases.
   */
  searchFiles: Sends<SearchFilesInput, SearchFilesResponse>;
  /** The stored passages of a file, in order: await for a page (`limit` ≤ 200), `for await` for all. */
  listFilePassages: Lists<ListFilePassagesInput, ListFilePassagesResponse, FilePassageItem>;
  /** Replaces a file's passages with your own chunks; they are embedded in the background. */
  setFilePassages: Sends<SetFilePassagesInput, FileResponse>;
  /** Indexes a file again without a new upload (after `indexing_failed`, or for a new model); turns `index` on. */
  reindexFile: Sends<FileIdInput, FileResponse>;
};

/** Sends each method of `FilesApi` as its entry of `FILE_OPERATIONS`. */
export const FilesApi = apiClass(FILE_OPERATIONS).implementing<FilesApi>({
  listFiles: 'files',
  listFileTags: 'tags',
  listFileTagValues: 'values',
  listFilePassages: 'passages',
});
