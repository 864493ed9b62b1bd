/**
 * Reads documents into passages off the thread that serves requests: extraction and chunking run in a
 * small pool of worker threads, each under V8 heap limits (`resourceLimits`) and a wall-clock bound. A
 * hostile document (a decompression bomb, pathological nesting, a parser that spins) can exhaust only its
 * worker: a worker that runs out of memory or time is ended and replaced, and the read fails with
 * `too_large`. Workers start on demand, serve one document at a time, and end after a while idle.
 */

import type { ChunkOptions, Passage } from '../types.js';
import { ReaderPool } from './document-reader-pool.js';

/** Bounds of a DocumentReader. */
export interface DocumentReaderOptions {
  /** Documents read at once (worker threads). */
  workers: number;
  /** Most memory one worker's JavaScript heap may use, in MB; past it the read fails `too_large`. */
  memoryMb: number;
  /** Longest one read may take, in ms; past it the worker is ended and the read fails `too_large`. */
  timeoutMs: number;
  /** How long an idle worker is kept for the next document, in ms. */
  idleMs?: number;
}

/** What a read needs. */
export interface ReadDocument {
  bytes: Uint8Array;
  contentType: string;
  /** The file's key, named in error messages. */
  key: string;
  chunkOptions: ChunkOptions;
  /** Ends the read early (the job's time bound, shutdown); the rejection is the signal's reason. */
  signal?: AbortSignal;
}

/** Extraction and chunking in worker threads. */
export interface DocumentReader {
  /**
   * The document's passages. Rejects with ExtractionError (`unsupported_format`, `unreadable_document`,
   * `empty_document`, `too_large`, the last also for a document that needs more memory or time than
   * allowed), with the signal's reason when it aborts, or with an Error for a failure of the worker itself.
   */
  read(document: ReadDocument): Promise<Passage[]>;
  /** Starts a worker (if none runs) and resolves once it has loaded its readers. */
  ready(): Promise<void>;
  /** Ends the workers; reads in flight reject. */
  close(): Promise<void>;
}

/**
 * A pool of document-reading worker threads.
 *
 * @example
 * const reader = documentReader({ workers: 1, memoryMb: 512, timeoutMs: 120_000 });
 * const passages = await reader.read({ bytes, contentType: 'application/pdf', key: 'a.pdf', chunkOptions });
 */
export function documentReader(options: DocumentReaderOptions): DocumentReader {
  const pool = new ReaderPool(options);
  return {
    read: (document) => pool.read(document),
    ready: () => pool.ready(),
    close: () => pool.close(),
  };
}
