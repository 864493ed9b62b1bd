import type { Readable } from 'node:stream';
import type {
  FileObject,
  FileStatus,
  ResumableUpload,
  UpdateFileBody,
  UpsertFileBody,
  Usage,
} from '@parley/protocol';
import type { FileActor } from '../../access/file-policy.js';
import type { Actor, Principal } from '../../access/principal.js';
import type { ByteRange } from '../../blob/blob-store.js';
import type { TagFilter } from '../../db/tag-filter.js';
import type { Page } from '../../http/pagination.js';
import type { Logger } from '../../logger.js';
import type { IndexFileJob } from './jobs.js';
import type { FILE_SORT_COLUMNS, FileRow, FileVisibility } from './repo.js';

export type { IndexFileJob } from './jobs.js';
export type { FileRow } from './repo.js';

/** A page of files, and how many files match the list's filters in all. */
export type FilesPage = Page<FileObject> & { total: number };

/** The usage type of the bytes chat users uploaded through the Chat API (counted apart from `storage_count`). */
export const CHAT_STORAGE_USAGE = 'chat_storage_count';

/** Kind of the durable job that indexes one file. */
export const INDEX_FILE_JOB = 'index_file';

/** Settings of the Files API. */
export interface FilesSettings {
  publicUrl: string;
  /** Lifetime of a private file's download URL. */
  downloadUrlTtlMs: number;
  /** Lifetime of an upload URL. */
  uploadUrlTtlMs: number;
  /**
   * Most bytes of the team's files per workspace and per bot (null: unlimited); apart from them, most bytes of
   * chat users' uploads per workspace (null: unlimited), and most files and bytes one chat user may hold on a bot.
   */
  quotas: {
    workspaceBytes: number | null;
    botBytes: number | null;
    chatBytes: number | null;
    chatUserFiles: number;
    chatUserBytes: number;
  };
  /** Most time the body of one upload may take: an upload in flight holds its reservation that long. */
  uploadTimeoutMs: number;
}

/** A caller of the Files API, resolved from its token and `x-bot-id`. */
export interface FilesContext {
  actor: FileActor;
  botId: string;
  workspaceId: string;
  /** The logger of the request it calls in (its lines carry the request id); the service's own otherwise. */
  log?: Logger | undefined;
}

/** A file's content to stream back: its headers, and a function that opens the bytes (or a range of them). */
export interface FileContent {
  size: number;
  contentType: string;
  key: string;
  etag: string;
  lastModified: string;
  open(range?: ByteRange): Promise<Readable>;
}

/** Usage figures another module contributes for a bot. */
export type BotUsageSource = (
  botId: string,
) => Promise<Array<{ type: string; value: number; quota: number | null }>>;

/** The file fields a search passage carries. */
export interface PassageFileSummary {
  id: string;
  key: string;
  contentType: string;
  metadata: Record<string, unknown>;
  tags: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** Where a file stands in its indexing, as a knowledge base lists it. */
export interface FileIndexingState {
  id: string;
  key: string;
  status: FileStatus;
  failedStatusReason: string | null;
}

/** A page query of the Files API lists. */
export interface FilesPageQuery {
  nextToken?: string | undefined;
  pageSize?: number | undefined;
}

/** What listFiles filters and sorts by. */
export interface FilesListQuery extends FilesPageQuery {
  sortField?: keyof typeof FILE_SORT_COLUMNS | undefined;
  sortDirection?: 'asc' | 'desc' | undefined;
  tags?: TagFilter | undefined;
  ids?: string[] | undefined;
  indexed?: boolean | undefined;
  /** Only files whose key contains this text (case-insensitive for ASCII letters). */
  keyContains?: string | undefined;
  /** Only files in one of these states. */
  status?: FileStatus[] | undefined;
}

/** How the bytes of an upload URL arrive. */
export interface UploadRequest {
  /** The Content-Length the client announced, if any. */
  contentLength?: number | undefined;
  /** Aborts when the client goes away mid-upload. */
  signal: AbortSignal;
  /** The logger of the request (its lines carry the request id). */
  log?: Logger | undefined;
}

/**
 * What the `index_file` job (modules/knowledge) reads and writes of a file: the files module is the only one
 * that writes the `files` table, so the job reports its progress and outcome through these. Each write applies
 * only while the file is still `indexing_pending` for the job's upload version: a job made for an older upload
 * of the file, or a deleted file, changes nothing.
 */
export interface FileIndexing {
  /** The file the job is for, while it still waits for this job (same upload version, indexing_pending). */
  indexingTarget(job: IndexFileJob): Promise<FileRow | undefined>;
  /** Records how many passages the job has embedded (`done`) of how many (`total`, when known). */
  indexingProgress(job: IndexFileJob, progress: { done: number; total?: number }): Promise<void>;
  /** Ends the file `indexing_completed` with its `passages` embedded. */
  indexingCompleted(job: IndexFileJob, passages: number, language?: string | null): Promise<void>;
  /** Ends the file `indexing_failed` with `reason` (`<code>: <message>`, cut to 2,000 characters). */
  indexingFailed(job: IndexFileJob, reason: string): Promise<void>;
  /**
   * After a caller replaced a file's passages with its own (setFilePassages): the file turns `index` on and
   * `indexing_pending` with `passages` to embed, and an `index_file` job (source `stored`) is queued, both in
   * one transaction.
   */
  indexStoredPassages(file: Pick<FileRow, 'id' | 'upload_version'>, passages: number): Promise<void>;
  /**
   * After a change of embedding model: every file indexed and done with it turns `indexing_pending` with an
   * `index_file` job (source `stored`) that embeds its stored passages again, 500 files per transaction;
   * answers how many were queued (0 in a process without the job queue). With `fileIds`, only those of them
   * that are indexed and done with it (unknown ids are left out).
   */
  reembedIndexed(fileIds?: readonly string[]): Promise<number>;
}

/**
 * Files: records, uploads through signed URLs, downloads, copies and tags, under the file permission table;
 * the only writer of the `files` table. Every method is a plain function: destructuring one is safe.
 */
export interface FilesService extends FileIndexing {
  /** Resolves the caller of a Files API request: its token's principal acting on the bot named by `x-bot-id`. */
  context(principal: Principal, botIdHeader: string | undefined): Promise<FilesContext>;
  /** Which of a bot's files the caller may see, as the search index filters them. */
  visibility(ctx: FilesContext): FileVisibility;
  /** Loads a file the caller may read (404 otherwise), for search and knowledge bases. */
  readable(ctx: FilesContext, idOrKey: string): Promise<FileRow>;
  /** Loads a file the caller may update (403/404 otherwise), for setFilePassages. */
  writable(ctx: FilesContext, idOrKey: string): Promise<FileRow>;

  /** Creates a file record, or replaces the one with the same key (a new upload is then required). */
  upsert(
    ctx: FilesContext,
    body: UpsertFileBody,
    options?: {
      /** Owner recorded on a new file instead of the caller (the Chat API files uploads for a chat user). */
      owner?: { type: 'user'; id: string };
      /**
       * The chat user uploading through the Chat API: the file counts against the chat quota and that user's
       * caps (PARLEY_CHAT_MAX_FILES_PER_USER, PARLEY_CHAT_MAX_FILE_BYTES_PER_USER), not the team's quotas.
       */
      chatUserId?: string;
    },
  ): Promise<FileObject & { uploadUrl: string }>;
  /**
   * Receives the bytes of an upload URL: streamed to a fresh blob, checked against the declared size,
   * then committed (blob first, record last). Too many bytes: 413 and nothing kept; too few: upload_failed.
   */
  upload(
    id: string,
    query: Record<string, string | undefined>,
    body: Readable,
    request: UploadRequest,
  ): Promise<FileObject>;
  /**
   * {@link upload} for a caller that does not show the file (a crawl writing a page): the same checks and
   * commit, without reading the file back to answer it.
   */
  uploadBytes(
    id: string,
    query: Record<string, string | undefined>,
    body: Readable,
    request: UploadRequest,
  ): Promise<void>;
  /**
   * Starts the resumable upload of an upload URL's file version (403/410 as the upload URL), or answers the one
   * already started (`created: false`).
   */
  startResumable(
    id: string,
    query: Record<string, string | undefined>,
  ): Promise<{ created: boolean; upload: ResumableUpload }>;
  /** The state of a resumable upload (403 altered URL, 404 cancelled or swept, 410 expired). */
  resumableStatus(
    id: string,
    uploadId: string,
    query: Record<string, string | undefined>,
  ): Promise<ResumableUpload>;
  /**
   * Appends the body at `offset` (409 unless it is the server's offset; 413 past the declared size): the part
   * is stored as a blob, then recorded; the bytes that complete the file are joined into its blob, hashed and
   * committed (blob first, record last), and the file is answered too.
   */
  appendResumable(
    id: string,
    uploadId: string,
    query: Record<string, string | undefined>,
    offset: number,
    body: Readable,
    request: UploadRequest,
  ): Promise<{ upload: ResumableUpload; file?: FileObject }>;
  /** Cancels a resumable upload: its bytes are dropped (the file stays waiting for an upload). */
  cancelResumable(id: string, uploadId: string, query: Record<string, string | undefined>): Promise<void>;
  get(ctx: FilesContext, idOrKey: string): Promise<FileObject>;
  list(ctx: FilesContext, query: FilesListQuery): Promise<FilesPage>;
  update(ctx: FilesContext, idOrKey: string, body: UpdateFileBody): Promise<FileObject>;
  delete(ctx: FilesContext, idOrKey: string): Promise<void>;
  /** Copies a file's content and fields to `destinationKey`, on the same bot or on `destination` (another bot). */
  copy(
    ctx: FilesContext,
    idOrKey: string,
    destinationKey: string,
    destination: FilesContext,
    overwrite: boolean,
  ): Promise<FileObject>;
  /** The tag keys of the files the caller may see. */
  tagKeys(ctx: FilesContext, query: FilesPageQuery): Promise<Page<string>>;
  /** The values of one tag on the files the caller may see. */
  tagValues(ctx: FilesContext, tag: string, query: FilesPageQuery): Promise<Page<string>>;
  /**
   * Opens a file's content for a download URL: a permanent public URL (only while the file has
   * `public_content`) or a signed private URL (403 once expired or altered).
   */
  openContent(id: string, query: Record<string, string | undefined>): Promise<FileContent>;

  /** The file fields a search answer carries, for these ids. */
  summaries(ids: string[]): Promise<Map<string, PassageFileSummary>>;
  /** The indexing state of those of these files the caller may read (the others are left out). */
  indexingStates(ctx: FilesContext, ids: string[]): Promise<Map<string, FileIndexingState>>;
  /**
   * Indexes a file again without a new upload (a failed or outdated index, or a file linked to a knowledge
   * base): needs update rights and uploaded content. Turns `index` on.
   */
  reindex(ctx: FilesContext, idOrKey: string): Promise<FileObject>;
  /** Makes sure a file is (being) indexed: queues indexing unless it is indexed or queued already (or `force`). */
  ensureIndexed(fileId: string, force?: boolean): Promise<FileObject>;

  /** Deletes files whose expiresAt has passed, then their blobs; answers how many files went. */
  expire(limit?: number): Promise<number>;
  /**
   * Ends `upload_failed` the files whose upload can no longer arrive (its upload URL, resumable upload or upload
   * in flight expired), releasing their quota reservation; answers how many.
   */
  expireUploads(limit?: number): Promise<number>;
  /** Deletes queued blobs; answers how many went. Safe to run from several processes. */
  collectGarbage(limit?: number): Promise<number>;
  /**
   * Removes leftovers of uploads whose process died (idle for an hour) and resumable uploads past their
   * expiry (their parts, and the upload_pending state of their file); answers how many.
   */
  sweepTemporary(): Promise<number>;
  /**
   * Deletes blobs that no file record holds (left by a crash or a lost race between a blob write and its
   * record), once older than `olderThanMs` (default: the upload URL lifetime); answers how many went.
   */
  sweepOrphans(olderThanMs?: number): Promise<number>;

  /** Usage figures of one bot (Admin API): its File Storage bytes against the per-bot quota. */
  botUsages(actor: Actor, botId: string): Promise<Usage[]>;
  /** Lets other modules (knowledge) add their figures to a bot's usages. */
  addBotUsageSource(source: BotUsageSource): void;
  /** File Storage bytes of a workspace or a bot: the team's files, or (`chat`) the chat users' uploads. */
  storedBytes(where: { botId?: string; workspaceId?: string; chat?: boolean }): Promise<number>;
}
