import type { FileObject, ResumableUpload } from '@parley/protocol';
import { ApiError } from './errors.js';
import type { RequestOptions, Transport } from './http.js';
import { AbortError, ConnectionError, TimeoutError, UploadSizeMismatchError } from './local-errors.js';
import { nodeUploadFetch, streamsRequestBodies } from './node-upload.js';
import {
  DEFAULT_RESUMABLE_ATTEMPTS,
  DEFAULT_RESUMABLE_CHUNK_SIZE,
  type ResumableOptions,
} from './resumable-options.js';
import { backoffDelay, mergeRetry, sleep } from './retry.js';
import { bytesStream, type UploadProgress, type UploadSource } from './transfer.js';

/** Bytes of a source by offset: any offset for what can be read again, forward only for a stream. */
interface ChunkReader {
  read(offset: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** `node:fs`, loaded only for a `path`. */
async function nodeFs(): Promise<typeof import('node:fs')> {
  const name = 'node:fs';
  return (await import(/* webpackIgnore: true */ /* @vite-ignore */ name)) as typeof import('node:fs');
}

/** A reader over a stream that keeps the bytes not yet stored by the server (one chunk), read forward. */
function streamReader(
  stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  total: number,
): ChunkReader {
  const iterable: AsyncIterable<Uint8Array> =
    typeof ReadableStream !== 'undefined' && stream instanceof ReadableStream
      ? {
          [Symbol.asyncIterator]: () => {
            const reader = stream.getReader();
            return {
              next: async () => {
                const r = await reader.read();
                return r.done ? { done: true, value: undefined } : { done: false, value: r.value };
              },
              return: async () => {
                await reader.cancel();
                return { done: true, value: undefined };
              },
            };
          },
        }
      : (stream as AsyncIterable<Uint8Array>);
  const iterator = iterable[Symbol.asyncIterator]();
  let start = 0;
  let buffer = new Uint8Array(0);
  let ended = false;
  return {
    async read(offset, length) {
      if (offset < start) throw new Error(`A stream cannot be read again from ${offset} (it is at ${start})`);
      // Drop what the server holds; keep the rest.
      buffer = buffer.subarray(Math.min(buffer.byteLength, offset - start));
      start = offset;
      const parts: Uint8Array[] = [buffer];
      let have = buffer.byteLength;
      while (have < length && !ended) {
        const next = await iterator.next();
        if (next.done) {
          ended = true;
          break;
        }
        parts.push(next.value);
        have += next.value.byteLength;
        if (start + have > total) throw new UploadSizeMismatchError(total, start + have);
      }
      if (parts.length > 1) {
        const joined = new Uint8Array(have);
        let at = 0;
        for (const p of parts) {
          joined.set(p, at);
          at += p.byteLength;
        }
        buffer = joined;
      }
      const end = Math.min(length, buffer.byteLength);
      if (end < length && start + end < total) throw new UploadSizeMismatchError(total, start + end);
      return buffer.subarray(0, end);
    },
    async close() {
      await iterator.return?.();
    },
  };
}

/** A reader of the source's bytes by offset. */
async function readerOf(source: UploadSource, total: number): Promise<ChunkReader> {
  if (source.content !== undefined) {
    const { content } = source;
    if (typeof Blob !== 'undefined' && content instanceof Blob) {
      return {
        read: async (offset, length) =>
          new Uint8Array(await content.slice(offset, offset + length).arrayBuffer()),
        close: async () => undefined,
      };
    }
    const bytes =
      typeof content === 'string'
        ? new TextEncoder().encode(content)
        : content instanceof ArrayBuffer
          ? new Uint8Array(content)
          : (content as Uint8Array);
    return { read: async (offset, length) => bytes.subarray(offset, offset + length), close: async () => {} };
  }
  if (source.path !== undefined) {
    const handle = await (await nodeFs()).promises.open(source.path, 'r');
    return {
      async read(offset, length) {
        const buffer = new Uint8Array(Math.min(length, total - offset));
        let at = 0;
        while (at < buffer.byteLength) {
          const { bytesRead } = await handle.read(buffer, at, buffer.byteLength - at, offset + at);
          if (bytesRead === 0) throw new UploadSizeMismatchError(total, offset + at);
          at += bytesRead;
        }
        return buffer;
      },
      close: () => handle.close(),
    };
  }
  return streamReader(source.stream, total);
}

/** The failures a resumable upload goes on after (from the server's offset), as a PUT would retry them. */
function resumable(error: unknown): boolean {
  if (error instanceof ConnectionError || error instanceof TimeoutError) return true;
  return error instanceof ApiError && (error.status === 429 || (error.status >= 500 && error.status !== 501));
}

/** The offset a 409 names (the bytes the server holds), if it is one. */
function offsetOf(error: unknown): number | undefined {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  const offset = error.metadata?.offset;
  return typeof offset === 'number' ? offset : undefined;
}

/**
 * Uploads a source through a resumable upload of `uploadUrl`: POST starts it, each chunk is PATCHed at the
 * server's offset, and after a failure the upload reads the server's offset (GET) and goes on from there, with
 * backoff, until `attempts` failures in a row. Answers the stored file. An aborted upload is cancelled (DELETE).
 */
export async function sendResumable(
  http: Transport,
  uploadUrl: string,
  source: UploadSource,
  size: number,
  onProgress: ((progress: UploadProgress) => void) | undefined,
  options: RequestOptions,
  settings: ResumableOptions = {},
): Promise<FileObject> {
  const chunkSize = Math.max(1, Math.floor(settings.chunkSize ?? DEFAULT_RESUMABLE_CHUNK_SIZE));
  const attempts = Math.max(1, Math.floor(settings.attempts ?? DEFAULT_RESUMABLE_ATTEMPTS));
  const retry = mergeRetry(http.config.retry, options.retry);
  const once = { ...options, retry: { ...options.retry, attempts: 1 } };
  const uploadFetch = http.config.customFetch ? undefined : await nodeUploadFetch();
  const json = () => new Headers({ accept: 'application/json' });
  const reader = await readerOf(source, size);
  onProgress?.({ loaded: 0, total: size });

  /** The upload's state as the server answers it: POST starts it, GET reads where it stands. */
  const uploadAt = async (url: string, method: 'POST' | 'GET') =>
    (await http.send<{ upload: ResumableUpload }>(url, method, () => ({ method, headers: json() }), once))
      .upload;
  const append = async (url: string, offset: number, bytes: Uint8Array) => {
    const last = offset + bytes.byteLength >= size;
    // The request that completes the bytes waits while the server joins and stores them: give it longer.
    const timeout = last ? Math.max(options.timeout ?? http.config.timeout, 600_000) : options.timeout;
    return http.send<{ upload: ResumableUpload; file?: FileObject }>(
      url,
      'PATCH',
      (touch) => {
        const headers = json();
        headers.set('content-type', 'application/offset+octet-stream');
        headers.set('upload-offset', String(offset));
        if (!streamsRequestBodies() || bytes.byteLength === 0)
          return { method: 'PATCH', headers, body: bytes };
        headers.set('content-length', String(bytes.byteLength));
        const body = bytesStream(bytes, (sent) => {
          touch();
          onProgress?.({ loaded: offset + sent, total: size });
        });
        return { method: 'PATCH', headers, body: body as unknown as RequestInit['body'], duplex: 'half' };
      },
      { ...once, timeout },
      { idle: true, fetch: uploadFetch },
    );
  };

  let session: ResumableUpload | undefined;
  let failures = 0;
  try {
    for (;;) {
      try {
        session ??= await uploadAt(uploadUrl, 'POST');
        if (session.status === 'completed' || session.offset >= size) {
          // Every byte is there: the PATCH at the end answers the file (and completes it if it was not yet).
          const done = await append(session.url, size, new Uint8Array(0));
          if (done.file) return done.file;
          session = done.upload;
          continue;
        }
        const bytes = await reader.read(session.offset, Math.min(chunkSize, size - session.offset));
        const answer = await append(session.url, session.offset, bytes);
        failures = 0;
        onProgress?.({ loaded: answer.upload.offset, total: size });
        if (answer.file) return answer.file;
        session = answer.upload;
      } catch (error) {
        const at = offsetOf(error);
        if (!(resumable(error) || at !== undefined) || ++failures >= attempts) throw error;
        if (session && at !== undefined) {
          session = { ...session, offset: at };
          continue;
        }
        await sleep(backoffDelay(failures, retry), options.signal);
        // Where the server stands: the bytes it holds are not sent again.
        if (session) session = await uploadAt(session.url, 'GET').catch(() => session);
      }
    }
  } catch (error) {
    if (error instanceof AbortError && session) {
      const url = session.url;
      await http
        .send(url, 'DELETE', () => ({ method: 'DELETE', headers: json() }), { retry: { attempts: 1 } })
        .catch(() => undefined);
    }
    throw error;
  } finally {
    await reader.close();
  }
}
