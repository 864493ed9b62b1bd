import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import {
  BlobNotFoundError,
  type BlobStore,
  BlobTooLargeError,
  type BlobWritten,
  type ByteRange,
  checkBlobKey,
  type PutOptions,
  UnsafeKeyError,
} from './blob-store.js';

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

/** Local disk adapter: temp file in `<root>/.tmp`, fsync, atomic rename into place. */
export function localDiskBlobStore(options: { root: string }): BlobStore {
  const root = resolve(options.root);
  const tmpDir = join(root, '.tmp');

  async function tempFile(): Promise<string> {
    await mkdir(tmpDir, { recursive: true });
    return join(tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  }

  async function commit(tmp: string, target: string): Promise<void> {
    await mkdir(dirname(target), { recursive: true });
    await rename(tmp, target);
    // Make the rename durable too.
    const dir = await open(dirname(target), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }

  return {
    kind: 'local',

    async put(key, body, opts: PutOptions): Promise<BlobWritten> {
      const target = safePath(root, key);
      const tmp = await tempFile();
      const hash = createHash('sha256');
      let size = 0;
      const handle = await open(tmp, 'wx', 0o600);
      try {
        for await (const chunk of body as AsyncIterable<Uint8Array>) {
          opts.signal?.throwIfAborted();
          size += chunk.byteLength;
          if (size > opts.maxBytes) throw new BlobTooLargeError(opts.maxBytes);
          hash.update(chunk);
          let offset = 0;
          while (offset < chunk.byteLength) {
            const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
            offset += bytesWritten;
          }
        }
        opts.signal?.throwIfAborted();
        await handle.sync();
        await handle.close();
        await commit(tmp, target);
        return { size, sha256: hash.digest('hex') };
      } catch (error) {
        await handle.close().catch(() => undefined);
        await rm(tmp, { force: true });
        throw error;
      }
    },

    async get(key: string, range?: ByteRange): Promise<Readable> {
      const path = safePath(root, key);
      try {
        await stat(path);
      } catch (error) {
        if (isNotFound(error)) throw new BlobNotFoundError(key);
        throw error;
      }
      return createReadStream(path, range ? { start: range.start, end: range.end } : {});
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
      const tmp = await tempFile();
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
    },

    async delete(key: string): Promise<void> {
      await rm(safePath(root, key), { force: true });
    },

    async sweepTemporary(olderThanMs: number): Promise<number> {
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
    },
  };
}
