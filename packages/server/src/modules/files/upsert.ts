import { MAX_FILE_SIZE, type UpsertFileBody } from '@parley/protocol';
import type { Kysely } from 'kysely';
import mime from 'mime-types';
import { canFile, fileRule } from '../../access/file-policy.js';
import { isUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { ApiError, errors } from '../../errors/errors.js';
import { newId } from '../../ids.js';
import { ChunkOptionsError, indexingOptionsFrom } from '../../search/ingest/chunk.js';
import { recordMemberChange } from '../audit/service.js';
import { authorizeFile, denied, ownerOf } from './access.js';
import type { FilesContext, FilesService } from './contract.js';
import type { FilesEnv } from './deps.js';
import { checkExpiry } from './expiry.js';
import { checkJsonField } from './json-field.js';
import { checkMediaType } from './media-type.js';
import { facts, toFile } from './records.js';
import { type FileRow, filesRepo } from './repo.js';
import { uploadUrl } from './urls.js';
import { checkQuota, quotaLimited } from './usage.js';

/**
 * Runs `attempt` (a transaction that writes a file by key), and when it loses a race to another request
 * that created the key at the same moment (a unique violation), runs it once more when `retry`: it then
 * replaces that file, as it would a moment later. A second loss propagates.
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>, retry = true): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!(isUniqueViolation(error) && retry)) throw error;
    return attempt();
  }
}

/**
 * 400 InvalidPayload naming each field of an indexing configuration that Parley refuses (indexingOptionsFrom:
 * unknown keys, bad values, public-service options it has no counterpart for), so that nothing is stored
 * that indexing would fail on later.
 */
function checkIndexingConfiguration(configuration: unknown): void {
  try {
    indexingOptionsFrom(configuration);
  } catch (error) {
    if (!(error instanceof ChunkOptionsError)) throw error;
    throw errors.invalidPayload(error.message, error.issues);
  }
}

/** The fields an upsert writes, checked: the expiry, media type and JSON fields of the body. */
export function upsertValues(body: UpsertFileBody, now: Date) {
  if (body.size > MAX_FILE_SIZE)
    throw new ApiError('PayloadTooLarge', `size must be at most ${MAX_FILE_SIZE} bytes (1 GB)`);
  const expiresAt = checkExpiry(body.expiresAt, now);
  const contentType =
    body.contentType !== undefined
      ? checkMediaType('contentType', body.contentType)
      : mime.lookup(body.key) || 'application/octet-stream';
  const metadata = checkJsonField('metadata', body.metadata ?? {});
  const configuration = body.indexing?.configuration;
  const indexingConfiguration = configuration
    ? checkJsonField('indexing.configuration', configuration)
    : null;
  if (configuration) checkIndexingConfiguration(configuration);
  return {
    content_type: contentType,
    declared_size: body.size,
    metadata,
    access_policies: JSON.stringify(body.accessPolicies ?? []),
    index: body.index ? 1 : 0,
    indexing_configuration: indexingConfiguration,
    status: 'upload_pending',
    failed_status_reason: null,
    expires_at: expiresAt,
    indexing_done: 0,
    indexing_total: 0,
  };
}

/** 403 unless the caller may replace the file of that key (`existing`) or, when there is none, create it. */
function authorizeUpsert(ctx: FilesContext, key: string, existing: FileRow | undefined): void {
  if (!existing) {
    authorizeFile(ctx, 'create');
    return;
  }
  if (fileRule(ctx.actor, 'update') === false) throw denied(ctx, 'update');
  if (!canFile(ctx.actor, 'update', facts(existing)))
    throw errors.forbidden(`A file with key "${key}" already exists and you may not replace it`);
}

/** A new file record of the context's bot, waiting for its upload (until `uploadExpiresAt`). */
function newRow(
  ctx: FilesContext,
  key: string,
  values: ReturnType<typeof upsertValues>,
  owner: { type: string; id: string | null },
  at: string,
  uploadExpiresAt: string,
  chatUserId: string | null,
): FileRow {
  return {
    id: newId('file'),
    bot_id: ctx.botId,
    workspace_id: ctx.workspaceId,
    key,
    ...values,
    size: null,
    sha256: null,
    owner_type: owner.type,
    owner_id: owner.id,
    blob_key: null,
    blob_content_type: null,
    blob_access_policies: null,
    upload_version: 1,
    upload_expires_at: uploadExpiresAt,
    chat_user_id: chatUserId,
    language: null,
    created_at: at,
    updated_at: at,
  };
}

/** How an upsert records its file: for whom (see FilesService.upsert). */
type UpsertOptions = NonNullable<Parameters<FilesService['upsert']>[2]>;

/** Creating and replacing file records by key. */
export function filesUpsert(env: FilesEnv): Pick<FilesService, 'upsert'> {
  const locking = quotaLimited(env.settings.quotas);

  /**
   * One transaction reads the key's row locked, checks rights and quota, and writes the next version: two
   * upserts of one key (in any processes) take turns, so each gets its own upload version.
   */
  const write = (
    ctx: FilesContext,
    body: UpsertFileBody,
    values: ReturnType<typeof upsertValues>,
    options: UpsertOptions,
  ) =>
    env.db.transaction().execute(async (tx: Kysely<Database>): Promise<FileRow> => {
      const repo = filesRepo(tx);
      const tags = body.tags ?? {};
      const chatUserId = options.chatUserId;
      if (locking || chatUserId !== undefined) await repo.lockQuota(ctx.workspaceId);
      const existing = await repo.byKeyLocked(ctx.botId, body.key);
      authorizeUpsert(ctx, body.key, existing);
      const at = env.now();
      // The file counts where it is now: a chat user's upload replacing a team file stays the team's.
      const holder = { ...ctx, chatUserId: existing ? (existing.chat_user_id ?? undefined) : chatUserId };
      // A replaced file keeps serving its committed bytes until the new upload commits: it holds the larger.
      await checkQuota(
        tx,
        env.settings.quotas,
        holder,
        Math.max(body.size, existing?.size ?? 0),
        at,
        existing?.id,
      );
      // The reservation lasts as long as the upload URL answered now.
      const uploadExpiresAt = new Date(env.clock().getTime() + env.settings.uploadUrlTtlMs).toISOString();
      if (existing) {
        const next = {
          ...values,
          upload_version: existing.upload_version + 1,
          upload_expires_at: uploadExpiresAt,
          updated_at: at,
        };
        await repo.update(existing.id, next);
        await repo.replaceTags(existing.id, tags);
        await recordMemberChange(env.audit, tx, ctx, {
          action: 'UPLOAD_FILE',
          resourceId: existing.id,
          resourceName: existing.key,
          value: { size: body.size, replaced: true },
        });
        return { ...existing, ...next };
      }
      const owner = options.owner ?? ownerOf(ctx.actor);
      const row = newRow(ctx, body.key, values, owner, at, uploadExpiresAt, chatUserId ?? null);
      await repo.insert(row, tags);
      await recordMemberChange(env.audit, tx, ctx, {
        action: 'UPLOAD_FILE',
        resourceId: row.id,
        resourceName: row.key,
        value: { size: body.size },
      });
      return row;
    });

  return {
    async upsert(ctx, body, options = {}) {
      const values = upsertValues(body, env.clock());
      let row: FileRow;
      try {
        row = await retryOnConflict(() => write(ctx, body, values, options));
      } catch (error) {
        if (isUniqueViolation(error))
          throw errors.alreadyExists(`A file with key "${body.key}" was created at the same moment; retry`);
        throw error;
      }
      return { ...(await toFile(env, row, body.tags ?? {}, ctx.actor)), uploadUrl: uploadUrl(env, row) };
    },
  };
}
