/* Row types of files, their tags, blobs awaiting deletion and resumable uploads. Timestamps are ISO 8601
 * text; booleans are 0/1. */

export interface FilesTable {
  id: string;
  bot_id: string;
  workspace_id: string;
  key: string;
  content_type: string;
  /**
   * Bytes of the committed content (blob_key); null until the first upload completes. A re-upsert keeps it
   * (the old bytes are still served) until its own upload commits.
   */
  size: number | null;
  /** Bytes announced by the latest upsert. */
  declared_size: number;
  sha256: string | null;
  metadata: string;
  access_policies: string;
  index: number;
  indexing_configuration: string | null;
  status: string;
  failed_status_reason: string | null;
  /** The document's language (ISO 639-1), detected at indexing or its metadata's `language`; null until known. */
  language: string | null;
  expires_at: string | null;
  owner_type: string;
  owner_id: string | null;
  /** Blob holding the committed content; null until an upload completes. */
  blob_key: string | null;
  /** Media type the committed content was uploaded with (content_type is the latest upsert's). */
  blob_content_type: string | null;
  /** Access policies (JSON) in force when the committed content was committed or last explicitly changed. */
  blob_access_policies: string | null;
  /** Bumped by every upsert: an upload URL is valid only for the version it was made for. */
  upload_version: number;
  /**
   * While `upload_pending`: until when the upload may still arrive (its upload URL's expiry, a resumable
   * session's, or an upload in flight's bound). Past it the file holds no quota and the sweep ends it
   * `upload_failed`. Null otherwise.
   */
  upload_expires_at: string | null;
  /** The chat user whose Chat API upload this is (counted apart from the team's files); null for the team's. */
  chat_user_id: string | null;
  /** Indexing progress: passages done of total, while indexing runs. */
  indexing_done: number;
  indexing_total: number;
  created_at: string;
  updated_at: string;
}

export interface FileTagsTable {
  file_id: string;
  key: string;
  value: string;
}

export interface BlobGarbageTable {
  blob_key: string;
  queued_at: string;
}

/** A resumable upload of one upload version of a file: its declared size and the bytes received so far. */
export interface FileUploadsTable {
  id: string;
  file_id: string;
  upload_version: number;
  size: number;
  offset: number;
  /** `active` while bytes are awaited, `completed` once the file holds them (kept until it expires). */
  status: string;
  created_at: string;
  updated_at: string;
  expires_at: string;
}

/** A part of a resumable upload: the bytes from `offset`, stored as the blob `blob_key`. */
export interface FileUploadPartsTable {
  upload_id: string;
  offset: number;
  size: number;
  blob_key: string;
}
