import type { FileObject, FileStatus } from '@parley/protocol';
import { ParleyError } from './errors.js';

// Errors the client raises on its own, with no error answered by the API: the connection, the client's
// timeout, the caller's abort, and what uploads and waitForIndexing find.

/** The request could not reach the server or the connection broke (DNS, refused, reset, TLS, …); see `cause`. */
export class ConnectionError extends ParleyError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectionError';
  }
}

/** An attempt took longer than the client's `timeout` (every attempt, when retries were allowed). */
export class TimeoutError extends ParleyError {
  /** The per-attempt timeout that ran out, in milliseconds. */
  readonly timeoutMs: number;
  constructor(message: string, timeoutMs: number) {
    super(message);
    this.name = 'TimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's `AbortSignal` aborted the request (before it started, while it ran, or between retries). */
export class AbortError extends ParleyError {
  constructor(message = 'The request was aborted', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AbortError';
  }
}

/**
 * `waitForIndexing` found that the file will not reach `indexing_completed`: indexing failed (the usual
 * case; `failedStatusReason` says why, e.g. an unreadable PDF), its upload failed, or it is not set to be
 * indexed. `file` is the file as last read. Not an API error: the API answered fine.
 */
export class IndexingFailedError extends ParleyError {
  /** The file as last read. */
  readonly file: FileObject;
  /** Its status: `indexing_failed`, `upload_failed`, or `upload_completed` for a file with `index: false`. */
  readonly status: FileStatus;
  /** The server's reason, e.g. `extraction_failed: …`; undefined for a file that is simply not indexed. */
  readonly failedStatusReason: string | undefined;
  constructor(file: FileObject, message?: string) {
    super(
      message ??
        `File ${file.id} (${file.key}) is ${file.status}${file.failedStatusReason ? `: ${file.failedStatusReason}` : ''}`,
    );
    this.name = 'IndexingFailedError';
    this.file = file;
    this.status = file.status;
    this.failedStatusReason = file.failedStatusReason;
  }
}

/**
 * An upload's bytes did not match its declared size: a `stream` yielded fewer or more bytes than `size`, or
 * a file on disk changed size while it was read. Thrown by the client before the server could answer; the
 * file stays `upload_pending` and can be uploaded again.
 */
export class UploadSizeMismatchError extends ParleyError {
  /** The size the upload declared. */
  readonly expected: number;
  /** Bytes the source yielded (for too many: as soon as it went over). */
  readonly actual: number;
  constructor(expected: number, actual: number) {
    super(
      actual > expected
        ? `The upload source yielded more than its declared size of ${expected} bytes`
        : `The upload source ended after ${actual} of its declared ${expected} bytes`,
    );
    this.name = 'UploadSizeMismatchError';
    this.expected = expected;
    this.actual = actual;
  }
}
