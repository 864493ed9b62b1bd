import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { BlobTooLargeError } from '../../blob/blob-store.js';
import { queueGarbage } from '../../db/blob-garbage.js';
import { fixedQuery } from '../../db/fixed-query.js';
import type { Database } from '../../db/schema.js';
import { ApiError, errors } from '../../errors/errors.js';
import { newId } from '../../ids.js';
import type { FilesService, UploadRequest } from './contract.js';
import type { FilesEnv } from './deps.js';
import { collectAfter } from './garbage.js';
import { scheduleIndexing } from './indexing.js';
import { isTextWithoutCharset, withUtf8Charset } from './media-type.js';
import { storedFile } from './records.js';
import { type FileRow, filesRepo } from './repo.js';
import { checkUploadUrl } from './urls.js';
import { watchUtf8 } from './utf8-check.js';

/** The file an upload URL is for, while that URL is its current one and unused (403 or 410 otherwise). */
export async function uploadTarget(
  env: FilesEnv,
  id: string,
  query: Record<string, string | undefined>,
): Promise<FileRow> {
  checkUploadUrl(env.signer, id, query);
  const row = await filesRepo(env.db).byIdAnyBot(id);
  if (!row || String(row.upload_version) !== query.v)
    throw errors.gone('This upload URL was replaced by a newer upsert of the file, or the file was deleted');
  if (row.status !== 'upload_pending')
    throw errors.gone('This upload URL was already used: upsert the file again to upload new content');
  return row;
}

/** Ends the upload of this very version `upload_failed` with `reason` (a later upsert is left alone). */
async function failUpload(env: FilesEnv, row: FileRow, reason: string): Promise<void> {
  await filesRepo(env.db).updateWhile(
    row.id,
    { version: row.upload_version, status: 'upload_pending' },
    { status: 'upload_failed', failed_status_reason: reason, upload_expires_at: null, updated_at: env.now() },
  );
}

/** Streams the body into the fresh blob `blobKey`, at most the declared size (413 and upload_failed beyond). */
async function writeBlob(
  env: FilesEnv,
  row: FileRow,
  blobKey: string,
  body: Readable | AsyncIterable<Uint8Array>,
  signal: AbortSignal,
): Promise<{ size: number; sha256: string }> {
  const declared = row.declared_size;
  let written: { size: number; sha256: string };
  try {
    written = await env.blobs.put(blobKey, body, {
      maxBytes: declared,
      contentType: row.content_type,
      signal,
    });
  } catch (error) {
    // A dropped connection: the file stays upload_pending and the same URL can be used again.
    if (!(error instanceof BlobTooLargeError)) throw error;
    await failUpload(env, row, `upload_too_large: more than the declared ${declared} bytes were sent`);
    throw new ApiError(
      'PayloadTooLarge',
      `More bytes than the declared size (${declared}) were sent; nothing was kept`,
    );
  }
  if (written.size !== declared) {
    await env.blobs.delete(blobKey);
    await failUpload(
      env,
      row,
      `upload_incomplete: received ${written.size} of the declared ${declared} bytes`,
    );
    throw errors.invalidPayload(
      `The upload ended after ${written.size} of the declared ${declared} bytes; nothing was kept`,
    );
  }
  return written;
}

/** The record pointed at its new blob, upload_completed (every upload: compiled once, see fixedQuery). */
const pointAtBlob = fixedQuery(
  7,
  (
    db,
    id: string,
    blobKey: string,
    size: number,
    sha256: string,
    contentType: string,
    accessPolicies: string,
    at: string,
  ) =>
    db
      .updateTable('files')
      .set({
        blob_key: blobKey,
        size,
        sha256,
        blob_content_type: contentType,
        blob_access_policies: accessPolicies,
        status: 'upload_completed',
        failed_status_reason: null,
        upload_expires_at: null,
        updated_at: at,
      })
      .where('id', '=', id),
);

/**
 * Points the record at the new blob, in one transaction, unless a re-upsert or a delete came meanwhile
 * (answers false then; else the blob it replaced, if any): the blob it replaces is queued as garbage, and
 * indexing is queued when asked for.
 * Text uploaded without a charset is served as UTF-8 when its bytes are (`utf8`), so browsers show it right.
 */
export async function commitUpload(
  env: FilesEnv,
  row: FileRow,
  blobKey: string,
  written: { size: number; sha256: string; utf8: boolean },
  /** More writes of the same transaction (a resumable upload marks its session completed). */
  also?: (tx: Kysely<Database>) => Promise<void>,
): Promise<false | { replaced: string | null }> {
  const at = env.now();
  return env.db.transaction().execute(async (tx) => {
    // Read under the row lock: the blob this commit replaces is the one the record holds now.
    const current = await filesRepo(tx).byIdLocked(row.id);
    if (!current || current.upload_version !== row.upload_version || current.status !== 'upload_pending')
      return false;
    await pointAtBlob(
      tx,
      row.id,
      blobKey,
      written.size,
      written.sha256,
      // What these bytes are served as: the media type and access policies of the upsert they belong to.
      written.utf8 && isTextWithoutCharset(current.content_type)
        ? withUtf8Charset(current.content_type)
        : current.content_type,
      current.access_policies,
      at,
    );
    await queueGarbage(tx, current.blob_key, at);
    if (current.index === 1 && env.jobs) await scheduleIndexing(tx, env, current);
    await also?.(tx);
    return { replaced: current.blob_key };
  });
}

/**
 * Keeps the reservation of an upload in flight for as long as its body may take (PARLEY_UPLOAD_TIMEOUT_MS),
 * even past its upload URL's expiry; answers the function that gives it back its URL's expiry (`expires`, ms)
 * once the upload ended without being committed.
 */
async function holdWhileUploading(env: FilesEnv, row: FileRow, expires: string | undefined) {
  const urlExpiryMs = Number(expires);
  const boundMs = Math.max(urlExpiryMs, env.clock().getTime() + env.settings.uploadTimeoutMs);
  const repo = filesRepo(env.db);
  await repo.setUploadExpiry(row.id, row.upload_version, new Date(boundMs).toISOString());
  return () => repo.setUploadExpiry(row.id, row.upload_version, new Date(urlExpiryMs).toISOString());
}

/** The byte upload of an upload URL: blob first, record last. */
export function filesUpload(env: FilesEnv): Pick<FilesService, 'upload' | 'uploadBytes'> {
  const uploadBytes = async (
    id: string,
    query: Record<string, string | undefined>,
    body: Readable,
    request: UploadRequest,
  ): Promise<FileRow> => {
    const row = await uploadTarget(env, id, query);
    const release = await holdWhileUploading(env, row, query.expires);
    try {
      await receive(env, row, body, request);
      return row;
    } catch (error) {
      await release();
      throw error;
    }
  };
  return {
    async upload(id, query, body, request) {
      const row = await uploadBytes(id, query, body, request);
      return storedFile(env, row.id);
    },
    async uploadBytes(id, query, body, request) {
      await uploadBytes(id, query, body, request);
    },
  };
}

/** Receives the bytes of an upload to `row` and commits them (see filesUpload). */
async function receive(env: FilesEnv, row: FileRow, body: Readable, request: UploadRequest): Promise<void> {
  const { contentLength } = request;
  if (contentLength !== undefined && contentLength > row.declared_size) {
    body.resume();
    // Like too many bytes found while streaming: the upload failed, with its reason (nothing was written).
    await failUpload(
      env,
      row,
      `upload_too_large: ${contentLength} bytes sent for the declared ${row.declared_size}`,
    );
    throw new ApiError(
      'PayloadTooLarge',
      `The upload is ${contentLength} bytes but the file was declared with size ${row.declared_size}`,
    );
  }
  const blobKey = `bots/${row.bot_id}/files/${row.id}/${newId('file').slice(5)}`;
  // Text that names no charset is checked for UTF-8 on its way to the blob store.
  const utf8 = isTextWithoutCharset(row.content_type) ? watchUtf8(body) : undefined;
  const written = await writeBlob(env, row, blobKey, utf8?.body ?? body, request.signal);
  const committed = await commitUpload(env, row, blobKey, { ...written, utf8: utf8?.valid() === true });
  if (!committed) {
    await env.blobs.delete(blobKey);
    throw errors.gone('The file was replaced or deleted while uploading; nothing was kept');
  }
  // A first upload queued no garbage (a crawl's new pages): nothing to collect, the periodic sweep does the rest.
  if (committed.replaced !== null) await collectAfter(env, request.log ?? env.logger, { fileId: row.id });
}
