/** How the local disk adapter (local-disk.ts) reads a blob: a file stream, or one read for a small blob. */
import { type FileHandle, open } from 'node:fs/promises';
import { Readable, pipeline as streamPipeline, Transform } from 'node:stream';
import { releaseTransferBuffers } from '../young-generation.js';

/** Bytes per read of a download: a quarter of the reads and socket writes of the 64 KiB default. */
export const READ_CHUNK_BYTES = 256 * 1024;

const isNotFound = (error: unknown) => (error as { code?: string }).code === 'ENOENT';

/**
 * `source`'s chunks, each counted by {@link releaseTransferBuffers} as it is passed on; destroying either end
 * destroys the other, and `source`'s error is the stream's.
 */
export function releasingBuffers(source: Readable): Readable {
  const counted = new Transform({
    readableHighWaterMark: READ_CHUNK_BYTES,
    writableHighWaterMark: READ_CHUNK_BYTES,
    transform(chunk: Buffer, _encoding, done) {
      releaseTransferBuffers(chunk.byteLength);
      done(null, chunk);
    },
  });
  streamPipeline(source, counted, () => {});
  return counted;
}

/**
 * A blob of at most one read's bytes (`size` by its stat) as a stream of one chunk: one open, one read, one
 * close, with none of a file stream's machinery (a crawled page's indexing reads one). Read to its end as a
 * file stream does (a file larger than `size` by now goes on in chunks); undefined when the blob went
 * meanwhile (the caller's file stream then answers as it did).
 */
export async function readSmall(path: string, size: number): Promise<Readable | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  try {
    const chunks: Buffer[] = [];
    // One byte more than the stat said: a read that fills it is no end yet.
    for (let want = size + 1; ; want = READ_CHUNK_BYTES) {
      const buffer = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(buffer, 0, want, null);
      if (bytesRead > 0) chunks.push(buffer.subarray(0, bytesRead));
      if (bytesRead < want) break;
    }
    const stream = new Readable({ highWaterMark: READ_CHUNK_BYTES, read() {} });
    for (const chunk of chunks) {
      releaseTransferBuffers(chunk.byteLength);
      stream.push(chunk);
    }
    stream.push(null);
    return stream;
  } finally {
    await handle.close();
  }
}
