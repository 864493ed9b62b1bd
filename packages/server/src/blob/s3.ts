import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  type BlobEntry,
  BlobNotFoundError,
  type BlobStore,
  BlobTooLargeError,
  type BlobWritten,
  type ByteRange,
  checkBlobKey,
  checkBlobPrefix,
  type PutOptions,
} from './blob-store.js';

/** Settings of the S3 adapter (PARLEY_S3_*). */
export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  endpoint?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle?: boolean;
  /** Prefix of every object key, e.g. `parley/`. */
  prefix?: string;
  /** Multipart part size in bytes (default 8 MiB, S3's minimum is 5 MiB). */
  partSize?: number;
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    error instanceof NoSuchKey ||
    error instanceof NotFound ||
    e.name === 'NoSuchKey' ||
    e.name === 'NotFound' ||
    e.$metadata?.httpStatusCode === 404
  );
}

/** Streams a body into a multipart upload of `Key`, hashing and counting it; aborts the upload on failure. */
async function uploadObject(
  client: S3Client,
  target: { Bucket: string; Key: string; partSize: number },
  body: Readable | AsyncIterable<Uint8Array>,
  opts: PutOptions,
): Promise<BlobWritten> {
  const { Bucket, Key } = target;
  const hash = createHash('sha256');
  let size = 0;
  const pass = new PassThrough({ highWaterMark: 1024 * 1024 });
  const upload = new Upload({
    client,
    params: { Bucket, Key, Body: pass, ...(opts.contentType ? { ContentType: opts.contentType } : {}) },
    partSize: target.partSize,
    queueSize: 2,
    leavePartsOnError: false,
  });
  const done = upload.done();
  // Keep an early failure of the upload from going unhandled while we are still feeding it.
  done.catch(() => undefined);
  try {
    const source = body instanceof Readable ? body : Readable.from(body);
    for await (const chunk of source as AsyncIterable<Uint8Array>) {
      opts.signal?.throwIfAborted();
      size += chunk.byteLength;
      if (size > opts.maxBytes) throw new BlobTooLargeError(opts.maxBytes);
      hash.update(chunk);
      if (!pass.write(chunk)) await new Promise<void>((r) => pass.once('drain', r));
    }
    opts.signal?.throwIfAborted();
    pass.end();
    await done;
    return { size, sha256: hash.digest('hex') };
  } catch (error) {
    await upload.abort().catch(() => undefined);
    pass.destroy();
    await done.catch(() => undefined);
    // The stream never ended, so S3 never completed the object: the key keeps whatever it held before.
    throw error;
  }
}

/** The objects under `Prefix` (whose keys start with the store's `prefix`), page by page. */
async function* listObjects(
  client: S3Client,
  Bucket: string,
  prefix: string,
  Prefix: string,
): AsyncIterable<BlobEntry> {
  let ContinuationToken: string | undefined;
  do {
    const out = await client.send(
      new ListObjectsV2Command({ Bucket, Prefix, ...(ContinuationToken ? { ContinuationToken } : {}) }),
    );
    for (const o of out.Contents ?? []) {
      if (!o.Key?.startsWith(prefix)) continue;
      yield {
        key: o.Key.slice(prefix.length),
        size: o.Size ?? 0,
        // An object without a date is taken as new: nothing is ever judged old for lack of one.
        lastModified: o.LastModified ?? new Date(),
      };
    }
    ContinuationToken = out.IsTruncated ? out.NextContinuationToken : undefined;
  } while (ContinuationToken);
}

/** S3 (or S3-compatible) adapter: multipart uploads for large objects; an object appears only once complete. */
export function s3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? Boolean(options.endpoint),
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
  });
  const prefix = options.prefix ?? '';
  const objectKey = (key: string) => `${prefix}${checkBlobKey(key)}`;
  const Bucket = options.bucket;

  return {
    kind: 's3',

    async put(key: string, body, opts: PutOptions): Promise<BlobWritten> {
      const Key = objectKey(key);
      return uploadObject(client, { Bucket, Key, partSize: options.partSize ?? 8 * 1024 * 1024 }, body, opts);
    },

    async get(key: string, range?: ByteRange): Promise<Readable> {
      try {
        const out = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: objectKey(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        return out.Body as Readable;
      } catch (error) {
        if (isMissing(error)) throw new BlobNotFoundError(key);
        throw error;
      }
    },

    async stat(key: string) {
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return { size: out.ContentLength ?? 0 };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async copy(from: string, to: string): Promise<void> {
      try {
        await client.send(
          new CopyObjectCommand({
            Bucket,
            Key: objectKey(to),
            CopySource: `${Bucket}/${encodeURIComponent(objectKey(from)).replace(/%2F/g, '/')}`,
          }),
        );
      } catch (error) {
        if (isMissing(error)) throw new BlobNotFoundError(from);
        throw error;
      }
    },

    async delete(key: string): Promise<void> {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },

    async *list(keyPrefix: string): AsyncIterable<BlobEntry> {
      const Prefix = `${prefix}${checkBlobPrefix(keyPrefix)}`;
      yield* listObjects(client, Bucket, prefix, Prefix);
    },
  };
}
