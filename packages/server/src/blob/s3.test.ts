import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { runBlobStoreSuite } from './blob-store.suite.js';
import { s3BlobStore } from './s3.js';

// The S3 run uses an S3-compatible server that the test suite starts itself (s3rver, in-process, on loopback).
runBlobStoreSuite('S3 (s3rver)', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'parley-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const address = (await server.run()) as { address: string; port: number };
  const endpoint = `http://127.0.0.1:${address.port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const admin = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
  await admin.send(new CreateBucketCommand({ Bucket: 'parley-test' }));
  admin.destroy();
  const store = s3BlobStore({
    bucket: 'parley-test',
    region: 'us-east-1',
    endpoint,
    ...credentials,
    forcePathStyle: true,
    prefix: 'parley/',
    partSize: 5 * 1024 * 1024,
  });
  return {
    store,
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
});
