import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { type S3BlobStoreOptions, s3BlobStore } from '../../../server/src/blob/s3.js';

/**
 * A local S3 (s3rver, in a temp dir) with one bucket: a blob store on it (keys under `parley/`), the client
 * the test inspects the bucket with, and `close` to stop and remove it all.
 */
export async function localS3(bucket: string, options: Pick<S3BlobStoreOptions, 'partSize'> = {}) {
  const directory = await mkdtemp(join(tmpdir(), 'parley-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const admin = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  const blobs = s3BlobStore({
    bucket,
    region: 'us-east-1',
    endpoint,
    ...credentials,
    forcePathStyle: true,
    prefix: 'parley/',
    ...options,
  });
  return {
    admin,
    blobs,
    /** Every object key in the bucket, sorted. */
    async keys(): Promise<string[]> {
      const out = await admin.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (out.Contents ?? []).map((o) => o.Key as string).sort();
    },
    async close(): Promise<void> {
      admin.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
