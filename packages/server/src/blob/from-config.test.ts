// The blob store a configuration names, built through blobStoreFromConfig (the S3 adapter is imported only
// there, when S3 is configured): bytes put are read back, from the data dir or from the bucket.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { BlobStore } from './blob-store.js';
import { blobStoreFromConfig } from './from-config.js';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-blob-config-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function roundTrip(blobs: BlobStore): Promise<string> {
  const bytes = Buffer.from('stored through the configured blob store');
  const written = await blobs.put('config/one.txt', Readable.from([bytes]), { maxBytes: 1024 });
  expect(written.size).toBe(bytes.length);
  return text(await blobs.get('config/one.txt'));
}

describe('blobStoreFromConfig', () => {
  it('local disk (the default): blobs under <data dir>/blobs', async () => {
    const dataDir = await tempDir();
    const blobs = await blobStoreFromConfig(loadConfig({ PARLEY_DATA_DIR: dataDir }));
    expect(await roundTrip(blobs)).toBe('stored through the configured blob store');
    expect(await readdir(join(dataDir, 'blobs'))).toContain('config');
  });

  it('S3 (PARLEY_S3_BUCKET): blobs in the bucket under PARLEY_S3_PREFIX', async () => {
    const directory = await tempDir();
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
    const { port } = await server.run();
    cleanups.push(() => server.close());
    const endpoint = `http://127.0.0.1:${port}`;
    const admin = new S3Client({
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    cleanups.push(async () => admin.destroy());
    await admin.send(new CreateBucketCommand({ Bucket: 'config-bucket' }));
    const blobs = await blobStoreFromConfig(
      loadConfig({
        PARLEY_DATA_DIR: await tempDir(),
        PARLEY_S3_BUCKET: 'config-bucket',
        PARLEY_S3_ENDPOINT: endpoint,
        PARLEY_S3_ACCESS_KEY_ID: 'S3RVER',
        PARLEY_S3_SECRET_ACCESS_KEY: 'S3RVER',
        PARLEY_S3_FORCE_PATH_STYLE: 'true',
        PARLEY_S3_PREFIX: 'parley/',
      }),
    );
    expect(await roundTrip(blobs)).toBe('stored through the configured blob store');
    const listed = await admin.send(new ListObjectsV2Command({ Bucket: 'config-bucket' }));
    expect((listed.Contents ?? []).map((o) => o.Key)).toEqual(['parley/config/one.txt']);
  });
});
