import type { Readable } from 'node:stream';

/** What a finished write stored. */
export interface BlobWritten {
  size: number;
  /** SHA-256 of the bytes, hex, computed while streaming. */
  sha256: string;
}

/** A byte range, inclusive, as in HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

/** A stored blob as a listing shows it. */
export interface BlobEntry {
  key: string;
  size: number;
  /** When the blob was last written (for S3, the time the object was created: for a multipart upload, when it began). */
  lastModified: Date;
}

/** Options of a write. */
export interface PutOptions {
  /** Refuse (and keep nothing) once more than this many bytes arrive. */
  maxBytes: number;
  contentType?: string;
  signal?: AbortSignal;
}

/** The blob store port: streamed, atomic writes of opaque keys. Adapters: local disk and S3. */
export interface BlobStore {
  /** Which adapter this is, for logs and readiness. */
  readonly kind: 'local' | 's3';
  /**
   * Streams `body` under `key`. The blob becomes visible only once every byte is written; on any failure
   * (too large, aborted, source error) nothing is kept under `key` and the error is rethrown.
   */
  put(key: string, body: Readable | AsyncIterable<Uint8Array>, options: PutOptions): Promise<BlobWritten>;
  /** Reads a blob, or the given range of it; throws BlobNotFoundError when absent. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Size of a blob, or undefined when absent. */
  stat(key: string): Promise<{ size: number } | undefined>;
  /** Copies a blob to another key (atomically, like put). */
  copy(from: string, to: string): Promise<void>;
  /** Deletes a blob; deleting an absent blob is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Every blob whose key starts with `prefix` (`''`: all), in no particular order, read page by page; writes
   * that never finished are not blobs and are not listed. Throws UnsafeKeyError for an unsafe prefix.
   */
  list(prefix: string): AsyncIterable<BlobEntry>;
  /**
   * Removes leftovers of writes that never finished (a process killed mid-upload) untouched for
   * `olderThanMs`; answers how many went. Adapters whose writes leave nothing behind need not have it.
   */
  sweepTemporary?(olderThanMs: number): Promise<number>;
}

/** More bytes arrived than allowed: nothing was kept. */
export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

/** The blob does not exist. */
export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`blob ${key} not found`);
    this.name = 'BlobNotFoundError';
  }
}

/** A key that is not a safe relative path. */
export class UnsafeKeyError extends Error {
  constructor(key: string, why: string) {
    super(`unsafe blob key ${JSON.stringify(key)}: ${why}`);
    this.name = 'UnsafeKeyError';
  }
}

/**
 * Checks a blob key: relative, `/`-separated, no NUL, no empty, `.` or `..` segments, no backslash,
 * at most 1024 bytes. Every adapter calls it, so no key can escape the store's root.
 */
export function checkBlobKey(key: string): string {
  if (key.length === 0) throw new UnsafeKeyError(key, 'empty');
  if (Buffer.byteLength(key, 'utf8') > 1024) throw new UnsafeKeyError(key, 'longer than 1024 bytes');
  if (key.includes('\0')) throw new UnsafeKeyError(key, 'contains NUL');
  if (key.includes('\\')) throw new UnsafeKeyError(key, 'contains a backslash');
  if (key.startsWith('/')) throw new UnsafeKeyError(key, 'absolute');
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..')
      throw new UnsafeKeyError(key, `bad segment "${segment}"`);
  }
  return key;
}

/**
 * Checks a listing prefix: empty, or a safe key (see checkBlobKey) optionally followed by one `/`.
 */
export function checkBlobPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  checkBlobKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
  return prefix;
}
