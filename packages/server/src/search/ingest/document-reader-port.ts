/** What reads documents into passages (document-reader.ts) and the bounds of its worker pool (document-reader-pool.ts). */
import type { ChunkOptions, Passage } from '../types.js';
import type { ExtractedPage } from './extract/web-page.js';

export type { ExtractedPage } from './extract/web-page.js';

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
  /** The nice value (0–19) of the workers' threads, on Linux: reading is background work. Default 0. */
  nice?: number;
}

/** What a read needs. */
export interface ReadDocument {
  bytes: Uint8Array;
  contentType: string;
  /** The file's key, named in error messages. */
  key: string;
  chunkOptions: ChunkOptions;
  /** Whether to detect the document's language from its passages too (in the worker). */
  detectLanguage?: boolean;
  /** Ends the read early (the job's time bound, shutdown); the rejection is the signal's reason. */
  signal?: AbortSignal;
}

/** A document read. */
export interface ReadPassages {
  passages: Passage[];
  /** The language detected from its passages, when asked (`detectLanguage`); null when unclear or not asked. */
  language: string | null;
}

/** A web page to extract (a crawl's). */
export interface ReadPage {
  html: string;
  /** The page's URL: relative links resolve against it; named in error messages. */
  url: string;
  /** Ends the read early; the rejection is the signal's reason. */
  signal?: AbortSignal;
}

/** Extraction and chunking in worker threads. */
export interface DocumentReader {
  /**
   * The document's passages. Rejects with ExtractionError (`unsupported_format`, `unreadable_document`,
   * `empty_document`, `too_large`, the last also for a document that needs more memory or time than
   * allowed), with the signal's reason when it aborts, or with an Error for a failure of the worker itself.
   */
  read(document: ReadDocument): Promise<ReadPassages>;
  /**
   * A web page's main content, title and links (`extractPage`), read in a worker so a crawl never holds the
   * thread that serves requests; rejects as `read` does (`too_large` past the memory or time allowed).
   */
  readPage(page: ReadPage): Promise<ExtractedPage>;
  /** Starts a worker (if none runs) and resolves once it has loaded its readers. */
  ready(): Promise<void>;
  /** Ends the workers; reads in flight reject. */
  close(): Promise<void>;
}
