import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Client, FileObject } from '@parley/client';
import { CommandFailure } from '@parley/server/cli';

/** Streams a file's bytes to `target` (a temp name, renamed when whole), checking its sha256. */
export async function saveTo(client: Client, idOrKey: string, target: string): Promise<FileObject> {
  const { stream, file } = await client.downloadFile(idOrKey);
  const hash = createHash('sha256');
  const partial = `${target}.part-${process.pid}`;
  try {
    await pipeline(
      Readable.fromWeb(stream as NodeReadableStream<Uint8Array>),
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      }),
      createWriteStream(partial, { mode: 0o600 }),
    );
    const sha256 = hash.digest('hex');
    if (file.checksum && file.checksum !== sha256)
      throw new CommandFailure(
        `${file.key}: downloaded bytes have sha256 ${sha256}, the server's is ${file.checksum}`,
      );
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return file;
}
