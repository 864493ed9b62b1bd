import type { FileObject } from '@parley/protocol';
import type { FileIdInput, UpsertFileInput } from '@parley/protocol/operations/io/files';
import type { RequestOptions } from './core.js';
import { FilesApi } from './files-api.js';
import { IndexingFailedError, TimeoutError } from './local-errors.js';
import { DEFAULT_RESUMABLE_THRESHOLD, type ResumableOptions } from './resumable-options.js';
import { sleep } from './retry.js';
import type { UploadProgress, UploadSource } from './transfer.js';

/** Input of `uploadFile`: the file's settings (as for `upsertFile`, without `size`), its bytes, and progress. */
export type UploadFileInput = Omit<UpsertFileInput, 'size'> &
  UploadSource & {
    /**
     * Called as bytes go out: `{ loaded: 0, total }` first, then after each chunk, `loaded === total` last
     * (a resumable upload that resumes tells `loaded` from the server's offset again).
     */
    onProgress?: ((progress: UploadProgress) => void) | undefined;
    /**
     * Files over `threshold` bytes (default 64 MiB) upload resumably, in requests of `chunkSize` bytes
     * (default 16 MiB), going on from the server's offset after a dropped connection; `false`: one PUT always.
     */
    resumable?: ResumableOptions | false | undefined;
  };

/** Options of `waitForIndexing`, besides those of each `getFile` it sends. */
export interface WaitForIndexingOptions extends RequestOptions {
  /** Longest wait in all, in milliseconds; then a `TimeoutError`. Default 300000 (5 minutes). */
  timeoutMs?: number | undefined;
  /** Pause between two reads of the file, in milliseconds. Default 1000. */
  intervalMs?: number | undefined;
  /** Called with the file after each read (see `file.status` and `file.indexingProgress`). */
  onProgress?: ((file: FileObject) => void) | undefined;
}

/** A download: the bytes as a web stream (read it, or cancel it), with their size and type. */
export interface DownloadedFile {
  /** The file's bytes; read it to the end or `cancel()` it to free the connection. */
  stream: ReadableStream<Uint8Array>;
  /** Bytes the stream will yield (the response's Content-Length). */
  size: number;
  /** The file's content type. */
  contentType: string;
  /** The file record the download URL came from. */
  file: FileObject;
  /** With a `range` asked: the bytes the stream holds (inclusive) and the file's whole size. */
  range?: { start: number; end: number; total: number };
}

/** Options of downloadFile: a byte range (inclusive `end`; omitted, to the end of the file). */
export interface DownloadFileOptions extends RequestOptions {
  range?: { start: number; end?: number };
}

/** Throws a `RangeError` for a range that is not 0 ≤ start ≤ end, in integers. */
function checkRange(range: { start: number; end?: number }): void {
  const { start, end } = range;
  const valid =
    Number.isSafeInteger(start) &&
    start >= 0 &&
    (end === undefined || (Number.isSafeInteger(end) && end >= start));
  if (!valid) {
    throw new RangeError(`Invalid range ${JSON.stringify(range)}: want integers with 0 ≤ start ≤ end`);
  }
}

/** The download a `GET` of a file's URL answered (200, or 206 for a range). */
function downloadedOf(res: Response, record: FileObject): DownloadedFile {
  const length = Number(res.headers.get('content-length') ?? Number.NaN);
  const stream =
    (res.body as ReadableStream<Uint8Array> | null) ??
    new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get('content-range') ?? '');
  return {
    stream,
    size: Number.isFinite(length) ? length : (record.size ?? 0),
    contentType: res.headers.get('content-type') ?? record.contentType,
    file: record,
    ...(res.status === 206 && contentRange
      ? {
          range: {
            start: Number(contentRange[1]),
            end: Number(contentRange[2]),
            total: Number(contentRange[3]),
          },
        }
      : {}),
  };
}

/**
 * The bytes of files: uploads (`upsertFile`, then the bytes to its `uploadUrl`), the wait for indexing, and
 * downloads through a file's own `url`. Those URLs are handed out by the API, not built by the client.
 */
export class FileTransferApi extends FilesApi {
  /**
   * Uploads a file in one call: `upsertFile`, then the bytes streamed to its `uploadUrl`, then the final
   * file (`getFile`). The bytes come from `content` (string, bytes, Blob), `path` (Node: streamed from
   * disk, never held in memory) or `stream` (with its `size`). `onProgress` is told as bytes go out.
   *
   * The byte upload is retried like a PUT (connection errors, timeouts, 5xx, 429) except for a `stream`,
   * which can be read once; `timeout` there is an idle timeout (no byte moved for that long), so a large
   * file never times out while it moves. With `index: true`, follow with `waitForIndexing(file.id)`.
   *
   * A file over `resumable.threshold` (default 64 MiB) goes through a resumable upload instead: requests of
   * `resumable.chunkSize` bytes (default 16 MiB), and after a dropped connection, a timeout, a 5xx or a 429
   * the upload asks the server how many bytes it holds and goes on from there (a `stream` too: the chunk in
   * flight is kept), with backoff, until `resumable.attempts` failures in a row (default 10).
   * @example
   * const file = await client.uploadFile({ key: 'docs/guide.pdf', path: './guide.pdf', index: true,
   *   onProgress: ({ loaded, total }) => console.log(`${Math.round((100 * loaded) / total)}%`) });
   */
  async uploadFile(input: UploadFileInput, options: RequestOptions = {}): Promise<FileObject> {
    const {
      content,
      path: filePath,
      stream,
      onProgress,
      resumable,
      ...rest
    } = input as UploadFileInput & {
      content?: unknown;
      path?: unknown;
      stream?: unknown;
      size?: unknown;
    };
    const { size: _size, ...settings } = rest;
    // The upload machinery (bodies, streams, resumable uploads, Node's file reading) loads at the first upload:
    // a browser bundle whose first screen never uploads (the Console's) does not carry it.
    const [{ prepareSource, sendUpload }, { sendResumable }] = await Promise.all([
      import('./transfer.js'),
      import('./resumable.js'),
    ]);
    const source = await prepareSource(input);
    const contentType = settings.contentType ?? source.contentType;
    const { file: pending } = await this.upsertFile(
      { ...settings, ...(contentType ? { contentType } : {}), size: source.size },
      options,
    );
    const threshold =
      resumable === false ? Number.POSITIVE_INFINITY : (resumable?.threshold ?? DEFAULT_RESUMABLE_THRESHOLD);
    if (source.size > threshold) {
      await sendResumable(
        this.core.http,
        pending.uploadUrl,
        input,
        source.size,
        onProgress,
        options,
        resumable || {},
      );
    } else {
      await sendUpload(this.core.http, pending.uploadUrl, source, onProgress, options);
    }
    const { file } = await this.getFile({ id: pending.id }, options);
    return file;
  }

  /**
   * Waits until a file is indexed, reading it every `intervalMs`: resolves with the file at
   * `indexing_completed`; rejects with `IndexingFailedError` (see `failedStatusReason`) at `indexing_failed`,
   * `upload_failed` or for a file with `index: false`, and with `TimeoutError` after `timeoutMs`.
   */
  async waitForIndexing(fileId: string, options: WaitForIndexingOptions = {}): Promise<FileObject> {
    const { timeoutMs = 300_000, intervalMs = 1000, onProgress, ...requestOptions } = options;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { file } = await this.getFile({ id: fileId }, requestOptions);
      onProgress?.(file);
      if (file.status === 'indexing_completed') return file;
      if (file.status === 'indexing_failed' || file.status === 'upload_failed') {
        throw new IndexingFailedError(file);
      }
      if (file.status === 'upload_completed' && !file.index) {
        throw new IndexingFailedError(
          file,
          `File ${file.id} (${file.key}) is not set to be indexed (index: false); reindexFile turns indexing on`,
        );
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new TimeoutError(`File ${file.id} was still ${file.status} after ${timeoutMs} ms`, timeoutMs);
      }
      await sleep(Math.min(intervalMs, left), requestOptions.signal);
    }
  }

  /**
   * Downloads a file (id or key) as a web `ReadableStream`, through the file's own `url` (the signed URL
   * of a private file, the permanent one of a `public_content` file). `timeout` covers the wait for the
   * answer's headers; the caller's `signal` also aborts the body.
   * @example
   * const { stream, size } = await client.downloadFile('docs/guide.pdf');
   * await pipeline(Readable.fromWeb(stream), createWriteStream('guide.pdf')); // Node
   * // Part of it (resuming, or reading a header): bytes 0–1023; a range past the end throws (416).
   * const head = await client.downloadFile('docs/guide.pdf', { range: { start: 0, end: 1023 } });
   */
  async downloadFile(file: string | FileIdInput, options: DownloadFileOptions = {}): Promise<DownloadedFile> {
    const { range, ...requestOptions } = options;
    if (range) checkRange(range);
    const id = typeof file === 'string' ? file : file.id;
    const { file: record } = await this.getFile({ id }, requestOptions);
    const headers = () => {
      const h = new Headers({ accept: '*/*' });
      if (range) h.set('range', `bytes=${range.start}-${range.end ?? ''}`);
      return h;
    };
    const res = await this.core.http.send<Response>(
      record.url,
      'GET',
      () => ({ method: 'GET', headers: headers() }),
      requestOptions,
      { raw: true },
    );
    return downloadedOf(res, record);
  }
}
