import type { Config } from '../config/config.js';
import type { BlobStore } from './blob-store.js';
import { localDiskBlobStore } from './local-disk.js';
import { s3BlobStore } from './s3.js';

/** The blob store the configuration names: local disk under the data dir, or S3. */
export function blobStoreFromConfig(config: Config): BlobStore {
  const b = config.blobStore;
  if (b.kind === 'local') return localDiskBlobStore({ root: b.root });
  return s3BlobStore({
    bucket: b.bucket,
    region: b.region,
    endpoint: b.endpoint,
    accessKeyId: b.accessKeyId,
    secretAccessKey: b.secretAccessKey,
    forcePathStyle: b.forcePathStyle,
    prefix: b.prefix,
  });
}
