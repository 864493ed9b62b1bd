import type { Config } from '../config/config.js';
import type { BlobStore } from './blob-store.js';
import { localDiskBlobStore } from './local-disk.js';

/**
 * The blob store the configuration names: local disk under the data dir, or S3. The S3 adapter (and with it
 * the AWS SDK, several MB of a process's memory) is imported only when S3 is configured.
 */
export async function blobStoreFromConfig(config: Config): Promise<BlobStore> {
  const b = config.blobStore;
  if (b.kind === 'local') return localDiskBlobStore({ root: b.root });
  const { s3BlobStore } = await import('./s3.js');
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
