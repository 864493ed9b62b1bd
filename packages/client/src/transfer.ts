import type { AttemptInit, RequestOptions, Transport } from './http.js';
import { UploadSizeMismatchError } from './local-errors.js';
import { nodeUploadFetch, streamsRequestBodies } from './node-upload.js';

/** Bytes sent so far of an upload, and the total. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * What `uploadFile` uploads: exactly one of
 * - `content`: a string (sent as UTF-8), bytes or a `Blob`/`File`;
 * - `path`: a file on disk (Node, Deno, Bun only), streamed, never read into memory;
 * - `stream`: a web `ReadableStream` or any async iterable of bytes (a Node `Readable` is one), with its `size`.
 */
export type UploadSource =
  | { content: string | Uint8Array | ArrayBuffer | Blob; path?: never; stream?: never }
  | { path: string; content?: never; stream?: never }
  | {
      stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;
      /** Bytes the stream will yield; the server checks it (more: 413 PayloadTooLarge, fewer: 400). */
      size: number;
      content?: never;
      path?: never;
    };

/** A source ready to send: its size, maybe a content type, and a body to send per attempt. */
export interface PreparedSource {
  size: number;
  /** The Blob's own type, when it has one. */
  contentType: string | undefined;
  /** Whether a failed attempt can send the source again (a stream can be read once). */
  repeatable: boolean;
  /** A fresh stream of the bytes. */
  open(): Promise<ReadableStream<Uint8Array>>;
  /** The bytes as one body, when they are in memory (sent as is where streaming request bodies are unsupported). */
  whole: Uint8Array | Blob | undefined;
}

/** Chunk size of streams made from bytes in memory and of file reads: small enough for smooth progress. */
const CHUNK = 256 * 1024;

/** A web stream read from an async iterable, one chunk per pull (so backpressure holds); cancel stops it. */
export function streamOf(iterable: AsyncIterable<Uint8Array | string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let iterator: AsyncIterator<Uint8Array | string> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      iterator ??= iterable[Symbol.asyncIterator]();
      const next = await iterator.next();
      if (next.done) {
        controller.close();
        return;
      }
      const chunk = next.value;
      controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
    },
    async cancel(reason) {
      await iterator?.return?.(reason);
    },
  });
}

/** A web stream of bytes in memory, one chunk of `CHUNK` per pull; `onChunk` hears the bytes sent so far. */
export function bytesStream(bytes: Uint8Array, onChunk?: (sent: number) => void): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) {
        controller.close();
        return;
      }
      const end = Math.min(bytes.byteLength, offset + CHUNK);
      controller.enqueue(bytes.subarray(offset, end));
      offset = end;
      onChunk?.(offset);
    },
  });
}

/** `node:fs`, loaded only when a `path` is uploaded, so browser bundles never include it. */
async function nodeFs(): Promise<typeof import('node:fs')> {
  const name = 'node:fs';
  try {
    return (await import(/* webpackIgnore: true */ /* @vite-ignore */ name)) as typeof import('node:fs');
  } catch (error) {
    throw new TypeError('uploadFile({ path }) needs node:fs (Node, Deno or Bun); in a browser pass content', {
      cause: error,
    });
  }
}

/** Checks the source and finds its size (a `path` is stat-ed, not read). */
export async function prepareSource(source: UploadSource): Promise<PreparedSource> {
  const given = [source.content !== undefined, source.path !== undefined, source.stream !== undefined];
  if (given.filter(Boolean).length !== 1) {
    throw new TypeError('uploadFile takes exactly one of content, path or stream');
  }
  if (source.content !== undefined) {
    const { content } = source;
    if (typeof Blob !== 'undefined' && content instanceof Blob) {
      return {
        size: content.size,
        contentType: content.type || undefined,
        repeatable: true,
        whole: content,
        open: async () => content.stream() as ReadableStream<Uint8Array>,
      };
    }
    let bytes: Uint8Array;
    if (typeof content === 'string') bytes = new TextEncoder().encode(content);
    else if (content instanceof ArrayBuffer) bytes = new Uint8Array(content);
    else if (content instanceof Uint8Array) bytes = content;
    else throw new TypeError('content must be a string, a Uint8Array, an ArrayBuffer or a Blob');
    return {
      size: bytes.byteLength,
      contentType: undefined,
      repeatable: true,
      whole: bytes,
      open: async () => bytesStream(bytes),
    };
  }
  if (source.path !== undefined) {
    const file = source.path;
    const fs = await nodeFs();
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) throw new TypeError(`${file} is not a regular file`);
    return {
      size: stat.size,
      contentType: undefined,
      repeatable: true,
      whole: undefined,
      open: async () => streamOf(fs.createReadStream(file, { highWaterMark: CHUNK })),
    };
  }
  const { stream, size } = source;
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new TypeError('uploadFile({ stream }) needs its size in bytes (a non-negative integer)');
  }
  let used = false;
  return {
    size,
    contentType: undefined,
    repeatable: false,
    whole: undefined,
    open: async () => {
      if (used) throw new TypeError('This stream was already sent; a stream can be uploaded once');
      used = true;
      return typeof ReadableStream !== 'undefined' && stream instanceof ReadableStream
        ? stream
        : streamOf(stream as AsyncIterable<Uint8Array>);
    },
  };
}

/**
 * The PUT of one upload attempt: the bytes streamed through a counter that reports progress and restarts
 * the idle timer on every chunk, with `Content-Length` set to the size. Where request bodies cannot be
 * streamed (browsers over HTTP/1.1), bytes in memory go as one body and progress is told at start and end.
 */
export async function uploadInit(
  source: PreparedSource,
  headers: Headers,
  touch: () => void,
  onProgress: ((progress: UploadProgress) => void) | undefined,
): Promise<AttemptInit> {
  const total = source.size;
  headers.set('content-type', 'application/octet-stream');
  onProgress?.({ loaded: 0, total });
  if (total === 0) return { method: 'PUT', headers, body: new Uint8Array(0) };
  if (!streamsRequestBodies() && source.whole !== undefined) {
    // No way to count the bytes as they go: uploadFile tells the end once the server has them all.
    return { method: 'PUT', headers, body: source.whole as RequestInit['body'] };
  }
  headers.set('content-length', String(total));
  let loaded = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      loaded += chunk.byteLength;
      if (loaded > total) {
        controller.error(new UploadSizeMismatchError(total, loaded));
        return;
      }
      touch();
      controller.enqueue(chunk);
      onProgress?.({ loaded, total });
    },
    flush(controller) {
      if (loaded !== total) controller.error(new UploadSizeMismatchError(total, loaded));
    },
  });
  const body = (await source.open()).pipeThrough(counter);
  return { method: 'PUT', headers, body: body as unknown as RequestInit['body'], duplex: 'half' };
}

/**
 * PUTs a prepared source to an upload URL the API handed out: no token or context headers go there (the
 * signed URL is the permission), progress is told as bytes go out, and `timeout` is an idle timeout. A
 * repeatable source is sent again after a retryable failure; a stream is sent once.
 */
export async function sendUpload<T>(
  http: Transport,
  uploadUrl: string,
  source: PreparedSource,
  onProgress: ((progress: UploadProgress) => void) | undefined,
  options: RequestOptions,
): Promise<T> {
  let sent = -1;
  const report = onProgress
    ? (progress: UploadProgress) => {
        sent = progress.loaded;
        onProgress(progress);
      }
    : undefined;
  const answer = await http.send<T>(
    uploadUrl,
    'PUT',
    (touch) => uploadInit(source, new Headers({ accept: 'application/json' }), touch, report),
    source.repeatable ? options : { ...options, retry: { ...options.retry, attempts: 1 } },
    // Node's fetch keeps every chunk of a request stream until the request ends (the whole file in memory),
    // so there the bytes go through node:http, which waits for the socket to drain. A `fetch` option wins.
    { idle: true, fetch: http.config.customFetch ? undefined : await nodeUploadFetch() },
  );
  // Where bytes could not be counted as they went (a browser), the end is told once the server has them.
  if (report && sent < source.size) report({ loaded: source.size, total: source.size });
  return answer;
}
