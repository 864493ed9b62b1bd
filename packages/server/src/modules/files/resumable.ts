import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ResumableUpload } from '@parley/protocol';
import type { Kysely } from 'kysely';
import { BlobTooLargeError } from '../../blob/blob-store.js';
import { queueGarbage } from '../../db/blob-garbage.js';
import { isUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { ApiError, errors } from '../../errors/errors.js';
import { newId } from '../../ids.js';
import type { FilesService, UploadRequest } from './contract.js';
import type { FilesEnv } from './deps.js';
import { collectAfter, collectGarbage, sweepOrphans } from './garbage.js';
import { isTextWithoutCharset } from './media-type.js';
import { storedFile } from './records.js';
import { type FileRow, filesRepo } from './repo.js';
import { type UploadPartRow, type UploadSessionRow, uploadSessionsRepo } from './resumable-repo.js';
import { commitUpload, uploadTarget } from './upload.js';
import { watchUtf8 } from './utf8-check.js';

/**
 * How long a resumable upload may take from its start: past it, its URL answers 410, the bytes received are
 * deleted and the file (still waiting for this upload) ends `upload_failed`, freeing its quota reservation.
 */
export const RESUMABLE_UPLOAD_TTL_MS = 24 * 3600_000;

/** Blob keys of resumable upload parts start with this (outside `bots/`, so the orphan sweep leaves them). */
export const PART_PREFIX = 'uploads/';

/** The path of a resumable upload session. */
export const sessionPath = (fileId: string, uploadId: string): string =>
  `/v1/files/${fileId}/uploads/${uploadId}`;

/** The wire shape of a session: where to send the bytes, how many arrived, until when. */
function describe(env: FilesEnv, s: UploadSessionRow): ResumableUpload {
  const path = sessionPath(s.file_id, s.id);
  const ttl = Math.max(1, Date.parse(s.expires_at) - env.clock().getTime());
  const signed = env.signer.sign(path, {}, ttl);
  return {
    id: s.id,
    url: `${env.settings.publicUrl}${path}?${new URLSearchParams({ ...signed }).toString()}`,
    size: s.size,
    offset: s.offset,
    status: s.status === 'completed' ? 'completed' : 'active',
    expiresAt: s.expires_at,
  };
}

/** 403 for an altered session URL, 410 for an expired one, 404 for a session that is gone (cancelled, swept). */
async function sessionOf(
  env: FilesEnv,
  fileId: string,
  uploadId: string,
  query: Record<string, string | undefined>,
): Promise<UploadSessionRow> {
  const check = env.signer.check(sessionPath(fileId, uploadId), query);
  if (check === 'invalid')
    throw errors.forbidden(
      'This resumable upload URL is not valid: it was altered or is not one the API handed out',
    );
  const s = await uploadSessionsRepo(env.db).byId(uploadId);
  if (check === 'expired' || (s && s.expires_at <= env.now()))
    throw errors.gone(
      'This resumable upload has expired and its bytes were dropped: upsert the file again and start over',
    );
  if (!s || s.file_id !== fileId) throw errors.notFound('Resumable upload', uploadId);
  return s;
}

/** The file a session is for, while it still waits for this very upload (410 otherwise). */
async function pendingFile(env: FilesEnv, s: UploadSessionRow): Promise<FileRow> {
  const row = await filesRepo(env.db).byIdAnyBot(s.file_id);
  if (!row || row.upload_version !== s.upload_version)
    throw errors.gone('The file was replaced by a newer upsert or deleted; this upload can no longer finish');
  if (row.status !== 'upload_pending')
    throw errors.gone('The file is no longer waiting for this upload: upsert it again to upload new content');
  return row;
}

/** 409 naming the offset the server holds (the client resumes from there). */
function wrongOffset(expected: number, given: number): ApiError {
  return new ApiError(
    'ResourceLockedConflict',
    `Upload-Offset ${given} does not match the ${expected} bytes received so far: resume from ${expected}`,
    { offset: expected },
  );
}

/** The `upload-offset` header: a non-negative integer (400 otherwise). */
export function parseOffset(value: string | undefined): number {
  if (value === undefined || !/^\d{1,16}$/.test(value))
    throw errors.invalidPayload(
      'The Upload-Offset header must be the non-negative integer offset of the bytes sent',
    );
  return Number(value);
}

/** The parts' bytes in order, as one stream. */
async function* joined(env: FilesEnv, parts: UploadPartRow[]): AsyncIterable<Uint8Array> {
  for (const part of parts) {
    for await (const chunk of await env.blobs.get(part.blob_key)) yield chunk as Uint8Array;
  }
}

/** Queues a session's part blobs as garbage and deletes the session and its part rows (inside `tx`). */
async function dropSession(tx: Kysely<Database>, s: UploadSessionRow, at: string): Promise<void> {
  const repo = uploadSessionsRepo(tx);
  for (const part of await repo.parts(s.id)) await queueGarbage(tx, part.blob_key, at);
  await repo.deleteParts(s.id);
  await repo.delete(s.id);
}

/**
 * Joins the parts of a session whose bytes all arrived into one fresh blob (hashing it: the file's sha256 is
 * that of the bytes as stored), then, in the transaction that points the file at it, marks the session
 * completed and queues its parts as garbage. Answers the stored file.
 */
async function complete(env: FilesEnv, s: UploadSessionRow, row: FileRow, request: UploadRequest) {
  const parts = await uploadSessionsRepo(env.db).parts(s.id);
  let at = 0;
  for (const part of parts) {
    if (part.offset !== at)
      throw new Error(`resumable upload ${s.id}: part at ${part.offset}, expected ${at}`);
    at += part.size;
  }
  if (at !== s.size) throw new Error(`resumable upload ${s.id}: parts hold ${at} of ${s.size} bytes`);
  const blobKey = `bots/${row.bot_id}/files/${row.id}/${newId('file').slice(5)}`;
  const utf8 = isTextWithoutCharset(row.content_type) ? watchUtf8(joined(env, parts)) : undefined;
  const written = await env.blobs.put(blobKey, utf8?.body ?? joined(env, parts), {
    maxBytes: s.size,
    // Not aborted with the request: a client that gave up waiting finds the upload completed when it asks again.
    contentType: row.content_type,
  });
  const committed = await commitUpload(
    env,
    row,
    blobKey,
    { ...written, utf8: utf8?.valid() === true },
    async (tx) => {
      const when = env.now();
      const repo = uploadSessionsRepo(tx);
      for (const part of parts) await queueGarbage(tx, part.blob_key, when);
      await repo.deleteParts(s.id);
      await repo.update(s.id, { status: 'completed', updated_at: when });
    },
  );
  if (!committed) {
    await env.blobs.delete(blobKey);
    // Another request finished this same upload a moment before: its file is the answer.
    const now = await uploadSessionsRepo(env.db).byId(s.id);
    if (now?.status === 'completed') return storedFile(env, row.id);
    throw errors.gone('The file was replaced or deleted while uploading; nothing was kept');
  }
  await collectAfter(env, request.log ?? env.logger, { fileId: row.id, uploadId: s.id });
  return storedFile(env, row.id);
}

/** Stores the body as a new part at `offset`, unless another request moved the session on meanwhile (409). */
async function appendPart(
  env: FilesEnv,
  s: UploadSessionRow,
  offset: number,
  body: Readable,
  request: UploadRequest,
): Promise<UploadSessionRow> {
  const left = s.size - offset;
  if (request.contentLength !== undefined && request.contentLength > left) {
    body.resume();
    throw new ApiError(
      'PayloadTooLarge',
      `${request.contentLength} bytes sent at offset ${offset}, but only ${left} of the declared ${s.size} are left; nothing was kept`,
    );
  }
  const blobKey = `${PART_PREFIX}${s.id}/${offset}-${randomBytes(6).toString('hex')}`;
  let written: { size: number };
  try {
    written = await env.blobs.put(blobKey, body, { maxBytes: left, signal: request.signal });
  } catch (error) {
    if (!(error instanceof BlobTooLargeError)) throw error;
    throw new ApiError(
      'PayloadTooLarge',
      `More than the ${left} bytes left of the declared ${s.size} were sent at offset ${offset}; nothing was kept`,
    );
  }
  if (written.size === 0) {
    await env.blobs.delete(blobKey);
    return s;
  }
  const outcome = await env.db.transaction().execute(async (tx) => {
    const repo = uploadSessionsRepo(tx);
    const current = await repo.byIdLocked(s.id);
    if (current?.status !== 'active' || current.offset !== offset) return { lost: current };
    await repo.addPart(s.id, { offset, size: written.size, blob_key: blobKey });
    const next = { offset: offset + written.size, updated_at: env.now() };
    await repo.update(s.id, next);
    return { next: { ...current, ...next } };
  });
  if ('next' in outcome) return outcome.next;
  // Another request moved the session on (or cancelled it) while these bytes arrived: they are not kept.
  await env.blobs.delete(blobKey);
  if (!outcome.lost) throw errors.notFound('Resumable upload', s.id);
  throw wrongOffset(outcome.lost.offset, offset);
}

/** Resumable uploads: a session per upload version, bytes appended in parts at the server's offset. */
export function filesResumable(
  env: FilesEnv,
): Pick<
  FilesService,
  | 'startResumable'
  | 'resumableStatus'
  | 'appendResumable'
  | 'cancelResumable'
  | 'sweepTemporary'
  | 'sweepOrphans'
> {
  return {
    // Composed after filesGarbage: the blob store's temporary leftovers, then expired resumable uploads.
    sweepTemporary: async () =>
      ((await env.blobs.sweepTemporary?.(3600_000)) ?? 0) + (await sweepResumable(env)),
    // And the hourly sweep of blobs no record holds also takes the part blobs no session holds.
    sweepOrphans: async (olderThanMs = env.settings.uploadUrlTtlMs) =>
      (await sweepOrphans(env, olderThanMs)) + (await sweepOrphanParts(env)),

    async startResumable(id, query) {
      const row = await uploadTarget(env, id, query);
      const repo = uploadSessionsRepo(env.db);
      const existing = await repo.byFileVersion(row.id, row.upload_version);
      if (existing && existing.expires_at > env.now())
        return { created: false, upload: describe(env, existing) };
      if (existing)
        throw errors.gone('The resumable upload of this upload URL has expired: upsert the file again');
      const at = env.now();
      const s: UploadSessionRow = {
        id: `upl_${randomBytes(12).toString('hex')}`,
        file_id: row.id,
        upload_version: row.upload_version,
        size: row.declared_size,
        offset: 0,
        status: 'active',
        created_at: at,
        updated_at: at,
        expires_at: new Date(env.clock().getTime() + RESUMABLE_UPLOAD_TTL_MS).toISOString(),
      };
      try {
        // The file's reservation now lasts as long as this upload may run.
        await env.db.transaction().execute(async (tx) => {
          await uploadSessionsRepo(tx).insert(s);
          await filesRepo(tx).setUploadExpiry(row.id, row.upload_version, s.expires_at);
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Started by another request at the same moment: that one is this upload.
        const other = await repo.byFileVersion(row.id, row.upload_version);
        if (!other) throw error;
        return { created: false, upload: describe(env, other) };
      }
      return { created: true, upload: describe(env, s) };
    },

    async resumableStatus(id, uploadId, query) {
      return describe(env, await sessionOf(env, id, uploadId, query));
    },

    async appendResumable(id, uploadId, query, offset, body, request) {
      let s: UploadSessionRow;
      try {
        s = await sessionOf(env, id, uploadId, query);
        if (s.status === 'completed') {
          if (offset !== s.size) throw wrongOffset(s.size, offset);
          body.resume();
          return { upload: describe(env, s), file: await storedFile(env, id) };
        }
        if (offset !== s.offset) throw wrongOffset(s.offset, offset);
      } catch (error) {
        body.resume();
        throw error;
      }
      const row = await pendingFile(env, s).catch((error: unknown) => {
        body.resume();
        throw error;
      });
      if (offset < s.size) s = await appendPart(env, s, offset, body, request);
      else body.resume();
      if (s.offset < s.size) return { upload: describe(env, s) };
      const file = await complete(env, s, row, request);
      const done = (await uploadSessionsRepo(env.db).byId(s.id)) ?? s;
      return { upload: describe(env, done), file };
    },

    async cancelResumable(id, uploadId, query) {
      const s = await sessionOf(env, id, uploadId, query);
      await env.db.transaction().execute((tx) => dropSession(tx, s, env.now()));
      await collectAfter(env, env.logger, { fileId: id, uploadId });
    },
  };
}

/**
 * Ends resumable uploads past their expiry: their parts are queued as garbage and collected, the session rows
 * deleted, and a file still waiting for that very upload ends `upload_failed` (it never counts as uploaded,
 * and its quota reservation is freed). Drops at once the active uploads whose file no longer waits for them.
 * Answers how many sessions went.
 */
export async function sweepResumable(env: FilesEnv, limit = 100): Promise<number> {
  const at = env.now();
  let removed = 0;
  for (const s of await uploadSessionsRepo(env.db).expired(at, limit)) {
    await env.db.transaction().execute(async (tx) => {
      const current = await uploadSessionsRepo(tx).byIdLocked(s.id);
      if (!current) return;
      await dropSession(tx, current, at);
      if (current.status !== 'active') return;
      await filesRepo(tx).updateWhile(
        current.file_id,
        { version: current.upload_version, status: 'upload_pending' },
        {
          status: 'upload_failed',
          failed_status_reason: `upload_expired: the resumable upload ended after ${current.offset} of ${current.size} bytes`,
          upload_expires_at: null,
          updated_at: at,
        },
      );
    });
    removed += 1;
  }
  // Uploads whose file went on without them (re-upserted, uploaded by a PUT, deleted) need not wait to expire.
  for (const s of await uploadSessionsRepo(env.db).stale(limit)) {
    await env.db.transaction().execute(async (tx) => {
      const current = await uploadSessionsRepo(tx).byIdLocked(s.id);
      const file = current && (await filesRepo(tx).byIdLocked(current.file_id));
      const waiting = file?.upload_version === current?.upload_version && file?.status === 'upload_pending';
      if (current?.status === 'active' && !waiting) await dropSession(tx, current, at);
    });
    removed += 1;
  }
  if (removed > 0) await collectGarbage(env);
  return removed;
}

/**
 * Deletes part blobs no session holds (a process that died between storing a part and recording it) once older
 * than the expiry of an upload; answers how many. Lists every part blob: run hourly, with the orphan sweep.
 */
export async function sweepOrphanParts(env: FilesEnv): Promise<number> {
  let removed = 0;
  const cutoff = env.clock().getTime() - RESUMABLE_UPLOAD_TTL_MS;
  const old: string[] = [];
  for await (const entry of env.blobs.list(PART_PREFIX)) {
    if (entry.lastModified.getTime() <= cutoff) old.push(entry.key);
  }
  for (let i = 0; i < old.length; i += 500) {
    for (const key of await uploadSessionsRepo(env.db).unheldParts(old.slice(i, i + 500))) {
      await env.blobs.delete(key);
      removed += 1;
    }
  }
  return removed;
}
