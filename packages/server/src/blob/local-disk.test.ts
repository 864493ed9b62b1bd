import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UnsafeKeyError } from './blob-store.js';
import { runBlobStoreSuite } from './blob-store.suite.js';
import { localDiskBlobStore, safePath } from './local-disk.js';

runBlobStoreSuite('local disk', async () => {
  const root = await mkdtemp(join(tmpdir(), 'parley-blobs-'));
  return { store: localDiskBlobStore({ root }), close: () => rm(root, { recursive: true, force: true }) };
});

describe('safePath', () => {
  it('maps keys under the root and refuses every escape', () => {
    expect(safePath('/data/blobs', 'bots/b1/f1')).toBe('/data/blobs/bots/b1/f1');
    for (const bad of ['../etc/passwd', 'a/../../x', '/etc/passwd', 'a\0b', '..', '.']) {
      expect(() => safePath('/data/blobs', bad)).toThrow(UnsafeKeyError);
    }
  });

  it('leaves no temp file behind after a refused write', async () => {
    const root = await mkdtemp(join(tmpdir(), 'parley-blobs-'));
    const store = localDiskBlobStore({ root });
    await expect(store.put('x/y', Readable.from([Buffer.alloc(100)]), { maxBytes: 10 })).rejects.toThrow();
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
    await rm(root, { recursive: true, force: true });
  });
});

describe('sweepTemporary', () => {
  it('removes temp files left by a killed write once they are idle, and keeps fresh ones', async () => {
    const root = await mkdtemp(join(tmpdir(), 'parley-blobs-'));
    const store = localDiskBlobStore({ root });
    await mkdir(join(root, '.tmp'), { recursive: true });
    await writeFile(join(root, '.tmp', 'old-partial'), 'half an upload');
    const old = new Date(Date.now() - 2 * 3600_000);
    await utimes(join(root, '.tmp', 'old-partial'), old, old);
    await writeFile(join(root, '.tmp', 'in-progress'), 'still being written');
    expect(await store.sweepTemporary?.(3600_000)).toBe(1);
    expect(await readdir(join(root, '.tmp'))).toEqual(['in-progress']);
    await rm(root, { recursive: true, force: true });
  });

  it('answers 0 when nothing was ever written', async () => {
    const root = await mkdtemp(join(tmpdir(), 'parley-blobs-'));
    expect(await localDiskBlobStore({ root }).sweepTemporary?.(0)).toBe(0);
    await rm(root, { recursive: true, force: true });
  });
});

describe('list', () => {
  it('never lists the temp files of writes a killed process left behind', async () => {
    const root = await mkdtemp(join(tmpdir(), 'parley-blobs-'));
    const store = localDiskBlobStore({ root });
    await store.put('bots/b1/files/f1/x', Readable.from([Buffer.from('kept')]), { maxBytes: 10 });
    await mkdir(join(root, '.tmp'), { recursive: true });
    await writeFile(join(root, '.tmp', 'old-partial'), 'half an upload');
    const keys: string[] = [];
    for await (const entry of store.list('')) keys.push(entry.key);
    expect(keys).toEqual(['bots/b1/files/f1/x']);
    await rm(root, { recursive: true, force: true });
  });
});

describe('put', () => {
  it('writes a blob larger than its background flush interval (64 MiB) whole, in order, with its sha256', async () => {
    const root = await mkdtemp(join(tmpdir(), 'parley-blobs-'));
    const store = localDiskBlobStore({ root });
    // 80 MiB in 64 KiB chunks, each filled with its own index, so a chunk lost, repeated or reordered shows.
    const chunks = 80 * 16;
    const chunk = (i: number) => Buffer.alloc(65_536, i % 251);
    const hash = createHash('sha256');
    for (let i = 0; i < chunks; i++) hash.update(chunk(i));
    const body = Readable.from(
      (function* () {
        for (let i = 0; i < chunks; i++) yield chunk(i);
      })(),
    );
    const written = await store.put('bots/b1/big', body, { maxBytes: chunks * 65_536 });
    expect(written).toEqual({ size: chunks * 65_536, sha256: hash.digest('hex') });
    const stored = await readFile(join(root, 'bots', 'b1', 'big'));
    expect(createHash('sha256').update(stored).digest('hex')).toBe(written.sha256);
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
    await rm(root, { recursive: true, force: true });
  });
});
