import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, type Dir } from 'node:fs';
import { copyFile, type FileHandle, mkdir, open, opendir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { releaseTransferBuffers } from '../young-generation.js';
import {
  type BlobEntry,
  BlobNotFoundError,
  type BlobStore,
  BlobTooLargeError,
  type BlobWritten,
  type ByteRange,
  checkBlobKey,
  checkBlobPrefix,
  type PutOptions,
  UnsafeKeyError,
} from './blob-store.js';
import { READ_CHUNK_BYTES, readSmall, releasingBuffers } from './local-disk-read.js';

/**
 * The one function that maps a blob key to a path under `root`: rejects NUL, absolute paths, `..`,
 * and anything that would resolve outside `root`.
 */
export function safePath(root: string, key: string): string {
  checkBlobKey(key);
  const base = resolve(root);
  const full = resolve(base, ...key.split('/'));
  const rel = relative(base, full);
  if (rel === '' || rel.startsWith('..') || rel.split(sep).includes('..'))
    throw new UnsafeKeyError(key, 'escapes the root');
  return full;
}

function isNotFound(error: unknown): boolean {
  return (error as { code?: string }).code === 'ENOENT';
}

async function tempFile(tmpDir: string): Promise<string> {
  await mkdir(tmpDir, { recursive: true, mode: 0o700 });
  return tempName(tmpDir);
}

/** This process's part of its temp files' names (random once: `wx` refuses a name taken all the same). */
const processTag = randomBytes(8).toString('hex');
let tempCount = 0;

const tempName = (tmpDir: string) =>
  join(tmpDir, `${Date.now()}-${processTag}-${(tempCount++).toString(36)}`);

/** Temp folders this process made: a write makes its folder only the first time (again if it went since). */
const madeTempDirs = new Set<string>();

/** A new temp file in `tmpDir`, created and open for writing (the folder made when this process has not yet). */
async function openTempFile(tmpDir: string): Promise<{ tmp: string; handle: FileHandle }> {
  if (!madeTempDirs.has(tmpDir)) {
    const tmp = await tempFile(tmpDir);
    madeTempDirs.add(tmpDir);
    return { tmp, handle: await open(tmp, 'wx', 0o600) };
  }
  const tmp = tempName(tmpDir);
  try {
    return { tmp, handle: await open(tmp, 'wx', 0o600) };
  } catch (error) {
    if (!isNotFound(error)) throw error;
    // The folder went (removed by hand): made again.
    madeTempDirs.delete(tmpDir);
    return openTempFile(tmpDir);
  }
}

async function commit(tmp: string, target: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  await rename(tmp, target);
  // Make the rename durable too.
  const dir = await open(dirname(target), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

/** How many bytes may wait for the disk while the next ones are received and hashed. */
const WRITE_BUFFER_BYTES = 1024 * 1024;
/** Every this many bytes written, the file's data is flushed in the background (see {@link FileSink}). */
const FLUSH_EVERY_BYTES = 64 * 1024 * 1024;

/**
 * A Writable onto an open file that counts the bytes against `maxBytes` and hashes them: the chunks queued while a
 * write is in flight go to the disk in one `writev`, and each batch is hashed on this thread while the thread pool
 * writes it, so receiving and hashing overlap with the disk, with no stream stage in between (the hash is of exactly
 * the bytes handed to the disk, in their order; a batch that goes over `maxBytes` fails the write unwritten). Every
 * {@link FLUSH_EVERY_BYTES} it starts an `fdatasync` without waiting for it, so the disk writes while the upload goes
 * on and the final fsync has only the tail left to flush; a failed flush fails the write (in `final`, or at the next
 * chunk).
 */
class FileSink extends Writable {
  /** Bytes accepted so far. */
  size = 0;
  private readonly hash = createHash('sha256');
  private unflushed = 0;
  private flushing: Promise<void> | undefined;
  private flushError: unknown;

  constructor(
    private readonly handle: FileHandle,
    private readonly maxBytes: number,
  ) {
    super({ highWaterMark: WRITE_BUFFER_BYTES });
  }

  /** The hex sha256 of every byte written, once the stream finished. */
  digest(): string {
    return this.hash.digest('hex');
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.accept([chunk], done);
  }

  override _writev(
    chunks: Array<{ chunk: Buffer; encoding: BufferEncoding }>,
    done: (error?: Error | null) => void,
  ): void {
    this.accept(
      chunks.map((c) => c.chunk),
      done,
    );
  }

  override _final(done: (error?: Error | null) => void): void {
    (this.flushing ?? Promise.resolve()).then(() => done(this.failure()), done);
  }

  private failure(): Error | null {
    return this.flushError === undefined ? null : (this.flushError as Error);
  }

  private accept(buffers: Buffer[], done: (error?: Error | null) => void): void {
    let bytes = 0;
    for (const b of buffers) bytes += b.byteLength;
    this.size += bytes;
    if (this.size > this.maxBytes) {
      done(new BlobTooLargeError(this.maxBytes));
      return;
    }
    const written = this.writeAll(buffers, bytes);
    // The thread pool only reads the buffers: hashing them meanwhile is safe.
    for (const b of buffers) this.hash.update(b);
    releaseTransferBuffers(bytes);
    written.then(() => done(), done);
  }

  private async writeAll(buffers: Buffer[], bytes: number): Promise<void> {
    const failed = this.failure();
    if (failed) throw failed;
    let pending = buffers;
    // A regular file takes the whole writev unless the disk fails; a short write goes on with the rest.
    for (let left = bytes; left > 0; ) {
      const { bytesWritten } = await this.handle.writev(pending);
      left -= bytesWritten;
      if (left > 0) pending = rest(pending, bytesWritten);
    }
    this.unflushed += bytes;
    if (this.unflushed >= FLUSH_EVERY_BYTES && !this.flushing) {
      this.unflushed = 0;
      this.flushing = this.handle.datasync().then(
        () => {
          this.flushing = undefined;
        },
        (error: unknown) => {
          this.flushing = undefined;
          this.flushError ??= error;
        },
      );
    }
  }
}

/** `buffers` without their first `skip` bytes. */
function rest(buffers: Buffer[], skip: number): Buffer[] {
  const out: Buffer[] = [];
  let left = skip;
  for (const b of buffers) {
    if (left >= b.byteLength) {
      left -= b.byteLength;
      continue;
    }
    out.push(left > 0 ? b.subarray(left) : b);
    left = 0;
  }
  return out;
}

/** Writes a body to a temp file in `tmpDir`, fsyncs it and renames it to `target`. */
async function writeFile(
  tmpDir: string,
  target: string,
  body: Readable | AsyncIterable<Uint8Array>,
  opts: PutOptions,
): Promise<BlobWritten> {
  const { tmp, handle } = await openTempFile(tmpDir);
  const sink = new FileSink(handle, opts.maxBytes);
  try {
    opts.signal?.throwIfAborted();
    await pipeline(body, sink, ...(opts.signal ? [{ signal: opts.signal }] : []));
    opts.signal?.throwIfAborted();
    await handle.sync();
    await handle.close();
    await commit(tmp, target);
    return { size: sink.size, sha256: sink.digest() };
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    // An abort names its reason (the signal's), as it did when the loop checked the signal itself.
    if (opts.signal?.aborted && (error as { name?: string }).name === 'AbortError') throw opts.signal.reason;
    throw error;
  }
}

/** Copies `source` to a temp file in `tmpDir`, fsyncs it and renames it to `target`. */
async function copyFileDurably(tmpDir: string, source: string, target: string, from: string): Promise<void> {
  const tmp = await tempFile(tmpDir);
  try {
    await copyFile(source, tmp);
    const h = await open(tmp, 'r+');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
    await commit(tmp, target);
  } catch (error) {
    await rm(tmp, { force: true });
    if (isNotFound(error)) throw new BlobNotFoundError(from);
    throw error;
  }
}

/** The blobs under `root` whose keys start with `prefix`. */
async function* listFiles(root: string, prefix: string): AsyncIterable<BlobEntry> {
  checkBlobPrefix(prefix);
  // Walk only the directory the prefix names (its parent when the prefix ends inside a name), one
  // directory open at a time, so a large store is never read whole into memory.
  const cut = prefix.lastIndexOf('/');
  const startKey = cut === -1 ? '' : prefix.slice(0, cut);
  const stack: Array<{ path: string; key: string }> = [
    { path: startKey === '' ? root : safePath(root, startKey), key: startKey },
  ];
  while (stack.length > 0) {
    const dir = stack.pop() as { path: string; key: string };
    let handle: Dir;
    try {
      handle = await opendir(dir.path);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      throw error;
    }
    for await (const entry of handle) {
      // Temp files of unfinished writes are not blobs.
      if (dir.key === '' && entry.name === '.tmp') continue;
      const key = dir.key === '' ? entry.name : `${dir.key}/${entry.name}`;
      const path = join(dir.path, entry.name);
      if (entry.isDirectory()) {
        if (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)) stack.push({ path, key });
      } else if (entry.isFile() && key.startsWith(prefix)) {
        // Gone between the listing and the stat (deleted meanwhile): not listed.
        const s = await stat(path).catch(() => undefined);
        if (s) yield { key, size: s.size, lastModified: s.mtime };
      }
    }
  }
}

/** Removes the temp files of `tmpDir` idle for `olderThanMs`; answers how many. */
async function sweepTemp(tmpDir: string, olderThanMs: number): Promise<number> {
  let names: string[];
  try {
    names = await readdir(tmpDir);
  } catch (error) {
    if (isNotFound(error)) return 0;
    throw error;
  }
  // A write in progress keeps touching its file, so only files idle for olderThanMs are leftovers.
  const cutoff = Date.now() - olderThanMs;
  let removed = 0;
  for (const name of names) {
    const path = join(tmpDir, name);
    const s = await stat(path).catch(() => undefined);
    if (s && s.mtimeMs < cutoff) {
      await rm(path, { force: true });
      removed += 1;
    }
  }
  return removed;
}

/** Local disk adapter: temp file in `<root>/.tmp`, fsync, atomic rename into place. */
export function localDiskBlobStore(options: { root: string }): BlobStore {
  const root = resolve(options.root);
  const tmpDir = join(root, '.tmp');

  return {
    kind: 'local',

    async put(key, body, opts: PutOptions): Promise<BlobWritten> {
      const target = safePath(root, key);
      return writeFile(tmpDir, target, body, opts);
    },

    async get(key: string, range?: ByteRange): Promise<Readable> {
      const path = safePath(root, key);
      let size: number;
      try {
        size = (await stat(path)).size;
      } catch (error) {
        if (isNotFound(error)) throw new BlobNotFoundError(key);
        throw error;
      }
      if (!range && size <= READ_CHUNK_BYTES) {
        const whole = await readSmall(path, size);
        if (whole) return whole;
      }
      return releasingBuffers(
        createReadStream(path, {
          highWaterMark: READ_CHUNK_BYTES,
          ...(range ? { start: range.start, end: range.end } : {}),
        }),
      );
    },

    async stat(key: string) {
      try {
        const s = await stat(safePath(root, key));
        return { size: s.size };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async copy(from: string, to: string): Promise<void> {
      const source = safePath(root, from);
      const target = safePath(root, to);
      await copyFileDurably(tmpDir, source, target, from);
    },

    async delete(key: string): Promise<void> {
      await rm(safePath(root, key), { force: true });
    },

    list: (prefix: string): AsyncIterable<BlobEntry> => listFiles(root, prefix),

    sweepTemporary: (olderThanMs: number): Promise<number> => sweepTemp(tmpDir, olderThanMs),
  };
}
