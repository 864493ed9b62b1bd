import type { Kysely } from 'kysely';
import { BlobNotFoundError } from '../../blob/blob-store.js';
import { queueGarbage } from '../../db/blob-garbage.js';
import { isUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { ApiError, errors } from '../../errors/errors.js';
import { newId } from '../../ids.js';
import { authorizeFile, loadFile, ownerOf } from './access.js';
import type { FilesContext, FilesService } from './contract.js';
import type { FilesEnv } from './deps.js';
import { collectAfter } from './garbage.js';
import { withUtf8Charset } from './media-type.js';
import { servable, storedFile, uploaded } from './records.js';
import { type FileRow, filesRepo } from './repo.js';
import { retryOnConflict } from './upsert.js';
import { checkQuota, quotaLimited } from './usage.js';

/** A copy being made: its source, where it goes, and whether it may replace a file there. */
interface CopyPlan {
  source: FileRow & { blob_key: string; size: number };
  destination: FilesContext;
  destinationKey: string;
  overwrite: boolean;
}

function existsError(plan: CopyPlan): ApiError {
  return errors.alreadyExists(
    `A file with key "${plan.destinationKey}" already exists on the destination bot; pass overwrite: true to replace it`,
  );
}

/** 409 for a file there without overwrite; else 403 unless the destination may replace it, or create one. */
function authorizeDestination(plan: CopyPlan, existing: FileRow | undefined): void {
  if (existing && !plan.overwrite) throw existsError(plan);
  if (existing) authorizeFile(plan.destination, 'update', existing);
  else authorizeFile(plan.destination, 'create');
}

/** The source a copy reads: readable, with the committed content of its latest upsert (409 otherwise). */
async function copySource(env: FilesEnv, ctx: FilesContext, idOrKey: string): Promise<CopyPlan['source']> {
  const source = await loadFile(env.db, ctx, idOrKey, 'read');
  // Only the content of the source's latest upsert: not older bytes it still serves while re-uploading.
  if (!uploaded(source) || !servable(source))
    throw new ApiError('ResourceLockedConflict', `File "${source.key}" has no uploaded content to copy yet`);
  return source;
}

/** Copies the source's blob to a fresh key of the destination bot; answers that key. */
async function copyBlob(env: FilesEnv, plan: CopyPlan): Promise<string> {
  const blobKey = `bots/${plan.destination.botId}/files/copy/${newId('file').slice(5)}`;
  try {
    await env.blobs.copy(plan.source.blob_key, blobKey);
  } catch (error) {
    if (!(error instanceof BlobNotFoundError)) throw error;
    throw new ApiError(
      'ResourceLockedConflict',
      `File "${plan.source.key}" was replaced or deleted while copying; copy it again`,
    );
  }
  return blobKey;
}

/** The fields a copy writes: the source's content (now at `blobKey`) and fields, uploaded, not indexed yet. */
function copiedValues(source: CopyPlan['source'], blobKey: string) {
  const contentType = source.blob_content_type ?? source.content_type;
  return {
    // The type the content was uploaded with (without the charset=utf-8 its download adds), served as before.
    content_type: contentType === withUtf8Charset(source.content_type) ? source.content_type : contentType,
    size: source.size,
    declared_size: source.size,
    sha256: source.sha256,
    metadata: source.metadata,
    access_policies: source.access_policies,
    index: source.index,
    indexing_configuration: source.indexing_configuration,
    status: 'upload_completed',
    failed_status_reason: null,
    // Known again once the copy is indexed.
    language: null,
    expires_at: source.expires_at,
    blob_key: blobKey,
    blob_content_type: contentType,
    blob_access_policies: source.access_policies,
    // A copy is the team's, uploaded: it waits for no upload and holds no chat user's reservation.
    upload_expires_at: null,
    chat_user_id: null,
    indexing_done: 0,
    indexing_total: 0,
  };
}

/**
 * Writes the copy in one transaction; answers the destination file's id. The destination row is read locked,
 * so the blob it replaces is the one it holds at that moment, and concurrent copies onto one key each queue
 * the blob they replaced.
 */
function writeCopy(env: FilesEnv, plan: CopyPlan, blobKey: string, tags: Record<string, string>) {
  const { destination, destinationKey, source } = plan;
  const values = copiedValues(source, blobKey);
  return env.db.transaction().execute(async (tx: Kysely<Database>): Promise<string> => {
    const repo = filesRepo(tx);
    if (quotaLimited(env.settings.quotas)) await repo.lockQuota(destination.workspaceId);
    const existing = await repo.byKeyLocked(destination.botId, destinationKey);
    authorizeDestination(plan, existing);
    await checkQuota(tx, env.settings.quotas, destination, source.size, env.now(), existing?.id);
    const at = env.now();
    if (existing) {
      await queueGarbage(tx, existing.blob_key, at);
      await repo.update(existing.id, {
        ...values,
        upload_version: existing.upload_version + 1,
        updated_at: at,
      });
      await repo.replaceTags(existing.id, tags);
      return existing.id;
    }
    const who = ownerOf(destination.actor);
    const id = newId('file');
    const row = { id, bot_id: destination.botId, workspace_id: destination.workspaceId, key: destinationKey };
    await repo.insert(
      {
        ...row,
        ...values,
        owner_type: who.type,
        owner_id: who.id,
        upload_version: 1,
        created_at: at,
        updated_at: at,
      },
      tags,
    );
    return id;
  });
}

/** Copies of files, on the same bot or onto another. */
export function filesCopy(env: FilesEnv): Pick<FilesService, 'copy'> {
  return {
    async copy(ctx, idOrKey, destinationKey, destination, overwrite) {
      const plan: CopyPlan = {
        source: await copySource(env, ctx, idOrKey),
        destination,
        destinationKey,
        overwrite,
      };
      // Early answers before any byte is copied; the transaction decides again, atomically.
      const early = await filesRepo(env.db).byKey(destination.botId, destinationKey);
      authorizeDestination(plan, early);
      await checkQuota(env.db, env.settings.quotas, destination, plan.source.size, env.now(), early?.id);
      const tags = (await filesRepo(env.db).tagsOf([plan.source.id])).get(plan.source.id) ?? {};
      const blobKey = await copyBlob(env, plan);
      let id: string;
      try {
        // Created by another request at the same moment: with overwrite, replace it as a moment later.
        id = await retryOnConflict(() => writeCopy(env, plan, blobKey, tags), overwrite);
      } catch (error) {
        await env.blobs.delete(blobKey);
        if (isUniqueViolation(error)) throw existsError(plan);
        throw error;
      }
      await collectAfter(env, ctx.log ?? env.logger, { fileId: id, copiedFrom: plan.source.id });
      return storedFile(env, id, destination.actor);
    },
  };
}
