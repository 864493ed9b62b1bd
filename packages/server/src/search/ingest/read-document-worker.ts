/**
 * Entry point of a document-reading worker thread (started by document-reader.ts; like main.ts, this file
 * acts when loaded). It answers one message at a time: `read` extracts the document and cuts it into
 * passages (and detects its language from them when asked), `page` extracts a web page's main content (a crawl's), or it says why it could not. It runs under the memory limits its pool set, so a hostile document
 * can exhaust only this thread, never the process that serves requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../../workers/thread-priority.js';
import { type ChunkOptions, ExtractionError, type Passage } from '../types.js';
import { chunkDocument } from './chunk.js';
import { passagesLanguage } from './document-language.js';
import { extractDocument } from './extract/index.js';
import { type ExtractedPage, extractPage } from './extract/web-page.js';

/** What a worker is started with: the nice value its thread runs at (0: as it is). */
export interface ReaderSetup {
  nice: number;
}

/** What the pool sends a worker. */
export interface ReadRequest {
  type: 'read';
  id: number;
  bytes: Uint8Array;
  contentType: string;
  key: string;
  chunkOptions: ChunkOptions;
  detectLanguage: boolean;
  timeoutMs: number;
}

/** What the pool sends a worker for a web page. */
export interface PageRequest {
  type: 'page';
  id: number;
  html: string;
  url: string;
}

/** What a worker sends the pool. */
export type ReadReply =
  | { type: 'ready' }
  | { type: 'passages'; id: number; passages: Passage[]; language: string | null }
  | { type: 'page'; id: number; page: ExtractedPage }
  | { type: 'error'; id: number; code: ExtractionError['code'] | undefined; message: string };

const port = parentPort;
if (port === null) throw new Error('read-document-worker.ts runs only as a worker thread');

// Reading is background work: on Linux this thread yields its core to the threads serving requests.
const { nice } = (workerData ?? { nice: 0 }) as ReaderSetup;
if (nice > 0) lowerThreadPriority(nice);

// Documents are read from the bytes given; nothing in this thread reaches the network.
globalThis.fetch = (() =>
  Promise.reject(new Error('network access is disabled in the document reader'))) as typeof fetch;

port.on('message', (request: ReadRequest | PageRequest) => {
  void (async (): Promise<ReadReply> => {
    try {
      if (request.type === 'page')
        return { type: 'page', id: request.id, page: extractPage(request.html, request.url) };
      const bytes = Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
      const document = await extractDocument(bytes, request.contentType, request.key, {
        timeoutMs: request.timeoutMs,
      });
      const passages = chunkDocument(document, request.chunkOptions);
      const language = request.detectLanguage ? (passagesLanguage(passages) ?? null) : null;
      return { type: 'passages', id: request.id, passages, language };
    } catch (error) {
      return {
        type: 'error',
        id: request.id,
        code: error instanceof ExtractionError ? error.code : undefined,
        message: error instanceof Error ? error.message : String(error),
      };
    }
  })().then((reply) => port.postMessage(reply));
});

// Every reader is loaded (this module's imports): the pool starts a document's time bound from here.
port.postMessage({ type: 'ready' } satisfies ReadReply);
