// The settings of resumable uploads, apart from the upload code (resumable.ts), which `uploadFile` loads at
// its first upload: importing the client for its defaults does not bring the upload machinery.

/** Default size above which `uploadFile` uploads resumably: 64 MiB. */
export const DEFAULT_RESUMABLE_THRESHOLD = 64 * 1024 * 1024;
/** Default bytes per request of a resumable upload: 16 MiB (at most this much is sent again after a cut). */
export const DEFAULT_RESUMABLE_CHUNK_SIZE = 16 * 1024 * 1024;
/** Default failures in a row (no byte stored in between) before a resumable upload gives up. */
export const DEFAULT_RESUMABLE_ATTEMPTS = 10;

/**
 * How `uploadFile` uses the server's resumable uploads: files over `threshold` bytes go in requests of
 * `chunkSize` bytes, and after a dropped connection, a timeout, a 5xx or a 429 the upload asks the server how
 * many bytes it holds and goes on from there (backoff as the client's `retry`). `false`: always one PUT.
 */
export interface ResumableOptions {
  /** Files larger than this many bytes upload resumably (default 64 MiB; 0: every file). */
  threshold?: number | undefined;
  /** Bytes per request (default 16 MiB): what memory holds at once, and at most what a cut sends again. */
  chunkSize?: number | undefined;
  /** Failures in a row, with no byte stored in between, before the error is thrown (default 10). */
  attempts?: number | undefined;
}
