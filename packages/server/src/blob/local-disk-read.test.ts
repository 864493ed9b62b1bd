import { appendFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localDiskBlobStore } from './local-disk.js';
import { READ_CHUNK_BYTES, readSmall } from './local-disk-read.js';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('the local disk read and write paths', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'parley-blobs-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads a small blob in one chunk, an empty one as no bytes, and a larger one as a file stream', async () => {
    const store = localDiskBlobStore({ root });
    const small = Buffer.from('a crawled page, in Markdown\n'.repeat(50));
    const large = Buffer.alloc(READ_CHUNK_BYTES * 2 + 7, 3);
    await store.put('s', Readable.from([small]), { maxBytes: 1e9 });
    await store.put('e', Readable.from([]), { maxBytes: 1e9 });
    await store.put('l', Readable.from([large]), { maxBytes: 1e9 });
    expect((await bytesOf(await store.get('s'))).equals(small)).toBe(true);
    expect((await bytesOf(await store.get('e'))).length).toBe(0);
    expect((await bytesOf(await store.get('l'))).equals(large)).toBe(true);
    expect((await bytesOf(await store.get('s', { start: 3, end: 9 }))).equals(small.subarray(3, 10))).toBe(
      true,
    );
  });

  it('reads a small file to its end when it grew after its stat, and answers undefined when it went', async () => {
    const path = join(root, 'f');
    await writeFile(path, 'first');
    await appendFile(path, Buffer.alloc(READ_CHUNK_BYTES + 10, 1));
    const read = await readSmall(path, 5);
    expect((await bytesOf(read as Readable)).length).toBe(5 + READ_CHUNK_BYTES + 10);
    expect(await readSmall(join(root, 'gone'), 5)).toBeUndefined();
  });

  it('writes again after its temp folder was removed, and gives each write a temp name of its own', async () => {
    const store = localDiskBlobStore({ root });
    await store.put('a', Readable.from([Buffer.from('one')]), { maxBytes: 100 });
    await rm(join(root, '.tmp'), { recursive: true });
    await store.put('b', Readable.from([Buffer.from('two')]), { maxBytes: 100 });
    expect((await bytesOf(await store.get('b'))).toString()).toBe('two');
    const writes = Array.from({ length: 20 }, (_, i) =>
      store.put(`k/${i}`, Readable.from([Buffer.from(String(i))]), { maxBytes: 100 }),
    );
    await Promise.all(writes);
    expect((await readdir(join(root, 'k'))).length).toBe(20);
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
  });
});
