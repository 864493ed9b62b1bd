import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runBlobStoreContract } from './blob-store.contract.js';
import { UnsafeKeyError } from './blob-store.js';
import { localDiskBlobStore, safePath } from './local-disk.js';

runBlobStoreContract('local disk', async () => {
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
