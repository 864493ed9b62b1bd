/**
 * Reads documents into passages off the thread that serves requests: extraction and chunking run in a
 * small pool of worker threads, each under V8 heap limits (`resourceLimits`) and a wall-clock bound. A
 * hostile document (a decompression bomb, pathological nesting, a parser that spins) can exhaust only its
 * worker: a worker that runs out of memory or time is ended and replaced, and the read fails with
 * `too_large`. Workers start on demand, serve one document at a time, and end after a while idle.
 */

import { ReaderPool } from './document-reader-pool.js';
import type { DocumentReader, DocumentReaderOptions } from './document-reader-port.js';

export type {
  DocumentReader,
  DocumentReaderOptions,
  ExtractedPage,
  ReadDocument,
  ReadPage,
  ReadPassages,
} from './document-reader-port.js';

/**
 * A pool of document-reading worker threads.
 *
 * @example
 * const reader = documentReader({ workers: 1, memoryMb: 512, timeoutMs: 120_000 });
 * const { passages } = await reader.read({ bytes, contentType: 'application/pdf', key: 'a.pdf', chunkOptions });
 */
export function documentReader(options: DocumentReaderOptions): DocumentReader {
  const pool = new ReaderPool(options);
  return {
    read: (document) => pool.read(document),
    readPage: (page) => pool.readPage(page),
    ready: () => pool.ready(),
    close: () => pool.close(),
  };
}
