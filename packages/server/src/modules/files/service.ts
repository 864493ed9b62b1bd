import type { Readable } from 'node:stream';
import {
  type FileAccessPolicy,
  type FileObject,
  MAX_FILE_EXPIRY_MS,
  MAX_FILE_SIZE,
  type UpdateFileBody,
  type UpsertFileBody,
  type Usage,
} from '@parley/protocol';
import type { Kysely } from 'kysely';
import mime from 'mime-types';
import {
  canFile,
  type FileAction,
  type FileActor,
  type FileFacts,
  fileRule,
} from '../../access/file-policy.js';
import { authorize } from '../../access/policy.js';
import type { Actor, Principal } from '../../access/principal.js';
import type { UrlSigner } from '../../access/signed-url.js';
import {
  BlobNotFoundError,
  type BlobStore,
  BlobTooLargeError,
  type ByteRange,
} from '../../blob/blob-store.js';
import { isUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { ApiError, errors } from '../../errors/errors.js';
import type { AuthResolver } from '../../http/context.js';
import { decodeCursor, type Page, toPage } from '../../http/pagination.js';
import type { TagFilter } from '../../http/tag-filter.js';
import { newId } from '../../ids.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { BotsService } from '../bots/service.js';
import { checkJsonField, readJsonObject } from './json-field.js';
import { checkMediaType, servedMediaType } from './media-type.js';
import { FILE_SORT_COLUMNS, type FileRow, type FileVisibility, filesRepo } from './repo.js';

/** Settings of the Files API. */
export interface FilesSettings {
  publicUrl: string;
  /** Lifetime of a private file's download URL. */
  downloadUrlTtlMs: number;
  /** Lifetime of an upload URL. */
  uploadUrlTtlMs: number;
  /** Most bytes of files per workspace and per bot (null: unlimited). */
  quotas: { workspaceBytes: number | null; botBytes: number | null };
}

/** A caller of the Files API, resolved from its token and `x-bot-id`. */
export interface FilesContext {
  actor: FileActor;
  botId: string;
  workspaceId: string;
}

/** A file's content to stream back: its headers, and a function that opens the bytes (or a range of them). */
export interface FileContent {
  size: number;
  contentType: string;
  key: string;
  etag: string;
  lastModified: string;
  open(range?: ByteRange): Promise<Readable>;
}

/** Usage figures another module contributes for a bot. */
export type BotUsageSource = (
  botId: string,
) => Promise<Array<{ type: string; value: number; quota: number | null }>>;

/** Kind of the durable job that indexes one file. */
export const INDEX_FILE_JOB = 'index_file';

/** The file fields a search passage carries. */
export interface PassageFileSummary {
  id: string;
  key: string;
  contentType: string;
  metadata: Record<string, unknown>;
  tags: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

function facts(row: FileRow): FileFacts {
  return {
    ownerType: row.owner_type as FileFacts['ownerType'],
    ownerId: row.owner_id,
    accessPolicies: JSON.parse(row.access_policies) as string[],
  };
}

/** The facts of the bytes a file serves: its owner, and the access policies they were committed under. */
function contentFacts(row: FileRow): FileFacts {
  return {
    ...facts(row),
    accessPolicies: JSON.parse(row.blob_access_policies ?? row.access_policies) as string[],
  };
}

/** Statuses of a file whose latest upsert has no committed content (yet): it waits for, or failed, its upload. */
const AWAITING_UPLOAD: ReadonlySet<string> = new Set(['upload_pending', 'upload_failed']);

/** Whether the content of the file's latest upsert is committed. */
function uploaded(row: FileRow): boolean {
  return row.blob_key !== null && row.size !== null && !AWAITING_UPLOAD.has(row.status);
}

/** Whether the file has committed bytes to serve: its latest upsert's, or older ones a re-upsert has yet to replace. */
function servable(row: FileRow): row is FileRow & { blob_key: string; size: number } {
  return row.blob_key !== null && row.size !== null;
}

const PUBLIC: FileActor = { kind: 'public' };

/** Files: records, uploads through signed URLs, downloads, copies and tags, under the file permission table. */
export function filesService(deps: {
  db: Kysely<Database>;
  blobs: BlobStore;
  signer: UrlSigner;
  clock: () => Date;
  settings: FilesSettings;
  bots: BotsService;
  auth: AuthResolver;
  /** Durable jobs; with it, files uploaded with `index: true` are queued for indexing. */
  jobs?: JobQueue;
}) {
  const { db, blobs, signer, clock, settings } = deps;
  const botUsageSources: BotUsageSource[] = [];
  const now = () => clock().toISOString();

  const contentPath = (id: string) => `/v1/files/${id}/content`;
  const uploadPath = (id: string) => `/v1/files/${id}/upload`;

  function query(params: Record<string, string>): string {
    return new URLSearchParams(params).toString();
  }

  /**
   * The download URL: permanent for public_content, else signed and short-lived (new on every call). One
   * handed to an integration names it, so that it serves only bytes that integration may download.
   */
  function urlOf(row: FileRow, viewer?: FileActor): string {
    const policies = JSON.parse(row.access_policies) as string[];
    if (policies.includes('public_content')) {
      const signed = signer.permanent(contentPath(row.id), { public: '1' });
      return `${settings.publicUrl}${contentPath(row.id)}?${query({ public: '1', signature: signed })}`;
    }
    const params: Record<string, string> =
      viewer?.kind === 'integration' ? { integration: viewer.integrationId } : {};
    const signed = signer.sign(contentPath(row.id), params, settings.downloadUrlTtlMs);
    return `${settings.publicUrl}${contentPath(row.id)}?${query({ ...params, ...signed })}`;
  }

  function uploadUrlOf(row: FileRow): string {
    const params = { v: String(row.upload_version) };
    const signed = signer.sign(uploadPath(row.id), params, settings.uploadUrlTtlMs);
    return `${settings.publicUrl}${uploadPath(row.id)}?${query({ ...params, ...signed })}`;
  }

  /**
   * The file object of a row. While a re-upsert waits for its upload, it answers like a fresh upsert would
   * (API-COMPAT: `size` null and no checksum until uploaded, status upload_pending) although `url` still
   * serves the previous bytes.
   */
  async function toFile(
    row: FileRow,
    tags?: Record<string, string>,
    viewer?: FileActor,
  ): Promise<FileObject> {
    const t = tags ?? (await filesRepo(db).tagsOf([row.id])).get(row.id) ?? {};
    const current = uploaded(row);
    return {
      id: row.id,
      botId: row.bot_id,
      key: row.key,
      url: urlOf(row, viewer),
      size: current ? row.size : null,
      contentType: row.content_type,
      tags: t,
      metadata: readJsonObject(row.metadata),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      accessPolicies: JSON.parse(row.access_policies) as FileAccessPolicy[],
      index: row.index === 1,
      status: row.status as FileObject['status'],
      ...(row.failed_status_reason ? { failedStatusReason: row.failed_status_reason } : {}),
      ...(row.expires_at ? { expiresAt: row.expires_at } : {}),
      owner: {
        type: row.owner_type as FileObject['owner']['type'],
        ...(row.owner_id ? { id: row.owner_id } : {}),
      },
      ...(current && row.sha256 ? { checksum: row.sha256 } : {}),
      ...(row.status === 'indexing_pending' && row.indexing_total > 0
        ? { indexingProgress: { done: row.indexing_done, total: row.indexing_total } }
        : {}),
    };
  }

  function denied(ctx: FilesContext, action: FileAction, row?: FileRow): ApiError {
    const who = ctx.actor.kind === 'member' ? `role "${ctx.actor.role}"` : `this ${ctx.actor.kind}`;
    return errors.forbidden(
      `Permission denied: ${who} may not ${action} ${row ? `file "${row.key}"` : 'files of this bot'}`,
    );
  }

  /** 403 unless the caller may do `action` (on `row`, when given). */
  function authorizeFile(ctx: FilesContext, action: FileAction, row?: FileRow): void {
    if (!canFile(ctx.actor, action, row ? facts(row) : undefined)) throw denied(ctx, action, row);
  }

  /**
   * Loads a file of the context's bot by id or key for `action`: 403 when the caller has no right to
   * `action` on any file, 404 when the file is absent or the caller may not see it (an integration and a
   * private file of someone else: no existence oracle), 403 when it sees the file but may not `action` it.
   */
  async function load(ctx: FilesContext, idOrKey: string, action: FileAction): Promise<FileRow> {
    if (fileRule(ctx.actor, action) === false) throw denied(ctx, action);
    const repo = filesRepo(db);
    const row = (await repo.byId(ctx.botId, idOrKey)) ?? (await repo.byKey(ctx.botId, idOrKey));
    if (!row || !canFile(ctx.actor, 'read', facts(row))) throw errors.notFound('File', idOrKey);
    authorizeFile(ctx, action, row);
    return row;
  }

  function checkExpiry(expiresAt: string | null | undefined): string | null {
    if (expiresAt === undefined || expiresAt === null) return null;
    const t = Date.parse(expiresAt);
    const nowMs = clock().getTime();
    if (t <= nowMs)
      throw errors.invalidPayload('expiresAt must be in the future', [
        { field: 'expiresAt', message: 'must be in the future' },
      ]);
    if (t > nowMs + MAX_FILE_EXPIRY_MS) {
      throw errors.invalidPayload('expiresAt must be at most 90 days ahead', [
        { field: 'expiresAt', message: 'must be at most 90 days ahead' },
      ]);
    }
    return new Date(t).toISOString();
  }

  const quotaLimited = settings.quotas.workspaceBytes !== null || settings.quotas.botBytes !== null;

  /**
   * 403 QuotaExceeded unless a file holding `reserve` bytes fits the quotas, counting every other file's
   * reservation (`replacing`: the file whose own reservation this one replaces). Atomic only inside a
   * transaction that took `lockQuota` first, as upsert and copy do.
   */
  async function checkQuota(
    conn: Kysely<Database>,
    ctx: FilesContext,
    reserve: number,
    replacing?: string,
  ): Promise<void> {
    const { workspaceBytes, botBytes } = settings.quotas;
    const repo = filesRepo(conn);
    if (workspaceBytes !== null) {
      const used = await repo.storedBytes({ workspaceId: ctx.workspaceId }, true, replacing);
      if (used + reserve > workspaceBytes) {
        throw errors.quotaExceeded(
          `File Storage quota of this workspace (${workspaceBytes} bytes) would be exceeded: ${used} used, ${reserve} more asked`,
        );
      }
    }
    if (botBytes !== null) {
      const used = await repo.storedBytes({ botId: ctx.botId }, true, replacing);
      if (used + reserve > botBytes) {
        throw errors.quotaExceeded(
          `File Storage quota of this bot (${botBytes} bytes) would be exceeded: ${used} used, ${reserve} more asked`,
        );
      }
    }
  }

  async function queueGarbage(tx: Kysely<Database>, blobKey: string | null): Promise<void> {
    if (!blobKey) return;
    await tx
      .insertInto('blob_garbage')
      .values({ blob_key: blobKey, queued_at: now() })
      .onConflict((oc) => oc.column('blob_key').doNothing())
      .execute();
  }

  /** Deletes queued blobs; answers how many went. Safe to run from several processes. */
  async function collectGarbage(limit = 100): Promise<number> {
    const rows = await db.selectFrom('blob_garbage').selectAll().orderBy('queued_at').limit(limit).execute();
    let n = 0;
    for (const row of rows) {
      await blobs.delete(row.blob_key);
      await db.deleteFrom('blob_garbage').where('blob_key', '=', row.blob_key).execute();
      n += 1;
    }
    return n;
  }

  /** Deletes a file record and queues the blob it holds at that moment (read under the row lock). */
  async function removeFile(id: string): Promise<void> {
    await db.transaction().execute(async (tx) => {
      const current = await filesRepo(tx).byIdLocked(id);
      if (!current) return;
      await queueGarbage(tx, current.blob_key);
      await filesRepo(tx).delete(id);
    });
  }

  function visibilityOf(ctx: FilesContext): FileVisibility {
    return ctx.actor.kind === 'integration'
      ? { kind: 'integration', integrationId: ctx.actor.integrationId }
      : { kind: 'all' };
  }

  /** Starts indexing a file inside the caller's transaction: status indexing_pending, a durable job queued. */
  async function scheduleIndexing(
    tx: Kysely<Database>,
    row: Pick<FileRow, 'id' | 'upload_version'>,
  ): Promise<void> {
    await filesRepo(tx).update(row.id, {
      status: 'indexing_pending',
      failed_status_reason: null,
      indexing_done: 0,
      indexing_total: 0,
      updated_at: now(),
    });
    await deps.jobs?.enqueue(INDEX_FILE_JOB, { fileId: row.id, uploadVersion: row.upload_version }, { tx });
  }

  function owner(actor: FileActor): { type: string; id: string | null } {
    switch (actor.kind) {
      case 'bot':
        return { type: 'bot', id: actor.botId };
      case 'integration':
        return { type: 'integration', id: actor.integrationId };
      case 'member':
        return { type: 'user', id: actor.accountId };
      case 'public':
        throw errors.unauthorized('A token is needed');
    }
  }

  return {
    /** Resolves the caller of a Files API request: its token's principal acting on the bot named by `x-bot-id`. */
    async context(principal: Principal, botIdHeader: string | undefined): Promise<FilesContext> {
      if (!botIdHeader)
        throw errors.invalidPayload(
          'Missing x-bot-id header: send "x-bot-id: <bot id>" naming the bot whose files you work with',
          [{ field: 'x-bot-id', message: 'required' }],
        );
      const bot = await deps.bots.findAnyWorkspace(botIdHeader);
      if (principal.kind === 'bot') {
        if (principal.botId !== botIdHeader)
          throw errors.forbidden('This bot access key belongs to another bot than x-bot-id');
        return {
          actor: { kind: 'bot', botId: principal.botId },
          botId: principal.botId,
          workspaceId: principal.workspaceId,
        };
      }
      if (principal.kind === 'integration') {
        if (principal.botId !== botIdHeader)
          throw errors.forbidden('This integration key is for another bot than x-bot-id');
        return {
          actor: { kind: 'integration', integrationId: principal.integrationId, botId: principal.botId },
          botId: principal.botId,
          workspaceId: principal.workspaceId,
        };
      }
      const actor = bot ? await deps.auth.resolveActor(principal, bot.workspaceId) : undefined;
      if (!bot || !actor || actor.kind !== 'member') throw errors.notFound('Bot', botIdHeader);
      return {
        actor: { kind: 'member', role: actor.role, accountId: actor.accountId },
        botId: bot.id,
        workspaceId: bot.workspaceId,
      };
    },

    /** Creates a file record, or replaces the one with the same key (a new upload is then required). */
    async upsert(
      ctx: FilesContext,
      body: UpsertFileBody,
      options: {
        /** Owner recorded on a new file instead of the caller (the Chat API files uploads for a chat user). */
        owner?: { type: 'user'; id: string };
      } = {},
    ): Promise<FileObject & { uploadUrl: string }> {
      if (body.size > MAX_FILE_SIZE)
        throw new ApiError('PayloadTooLarge', `size must be at most ${MAX_FILE_SIZE} bytes (1 GB)`);
      const expiresAt = checkExpiry(body.expiresAt);
      const contentType =
        body.contentType !== undefined
          ? checkMediaType('contentType', body.contentType)
          : mime.lookup(body.key) || 'application/octet-stream';
      const metadata = checkJsonField('metadata', body.metadata ?? {});
      const indexingConfiguration = body.indexing?.configuration
        ? checkJsonField('indexing.configuration', body.indexing.configuration)
        : null;
      const tags = body.tags ?? {};
      const values = {
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
      // One transaction reads the key's row locked, checks rights and quota, and writes the next version: two
      // upserts of one key (in any processes) take turns, so each gets its own upload version.
      const attempt = () =>
        db.transaction().execute(async (tx): Promise<FileRow> => {
          const repo = filesRepo(tx);
          if (quotaLimited) await repo.lockQuota(ctx.workspaceId);
          const existing = await repo.byKeyLocked(ctx.botId, body.key);
          if (existing) {
            if (fileRule(ctx.actor, 'update') === false) throw denied(ctx, 'update');
            if (!canFile(ctx.actor, 'update', facts(existing))) {
              throw errors.forbidden(
                `A file with key "${body.key}" already exists and you may not replace it`,
              );
            }
          } else {
            authorizeFile(ctx, 'create');
          }
          // A replaced file keeps serving its committed bytes until the new upload commits: it holds the larger.
          await checkQuota(tx, ctx, Math.max(body.size, existing?.size ?? 0), existing?.id);
          const at = now();
          if (existing) {
            const next = { ...values, upload_version: existing.upload_version + 1, updated_at: at };
            await repo.update(existing.id, next);
            await repo.replaceTags(existing.id, tags);
            return { ...existing, ...next };
          }
          const who = options.owner ?? owner(ctx.actor);
          const row: FileRow = {
            id: newId('file'),
            bot_id: ctx.botId,
            workspace_id: ctx.workspaceId,
            key: body.key,
            ...values,
            size: null,
            sha256: null,
            owner_type: who.type,
            owner_id: who.id,
            blob_key: null,
            blob_content_type: null,
            blob_access_policies: null,
            upload_version: 1,
            created_at: at,
            updated_at: at,
          };
          await repo.insert(row, tags);
          return row;
        });
      let row: FileRow;
      try {
        row = await attempt();
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Created by another upsert at the same moment: this one replaces it, as it would a moment later.
        try {
          row = await attempt();
        } catch (again) {
          if (isUniqueViolation(again))
            throw errors.alreadyExists(`A file with key "${body.key}" was created at the same moment; retry`);
          throw again;
        }
      }
      return { ...(await toFile(row, tags, ctx.actor)), uploadUrl: uploadUrlOf(row) };
    },

    /**
     * Receives the bytes of an upload URL: streamed to a fresh blob, checked against the declared size,
     * then committed (blob first, record last). Too many bytes: 413 and nothing kept; too few: upload_failed.
     */
    async upload(
      id: string,
      query: Record<string, string | undefined>,
      body: Readable,
      contentLength: number | undefined,
      signal: AbortSignal,
    ): Promise<FileObject> {
      const check = signer.check(uploadPath(id), query);
      if (check === 'invalid')
        throw errors.forbidden(
          'This upload URL is not valid: it was altered or is not one the API handed out',
        );
      if (check === 'expired')
        throw errors.forbidden(
          'This upload URL has expired: upsert the file again (PUT /v1/files) for a new one',
        );
      const row = await filesRepo(db).byIdAnyBot(id);
      if (!row || String(row.upload_version) !== query.v)
        throw errors.gone(
          'This upload URL was replaced by a newer upsert of the file, or the file was deleted',
        );
      if (row.status !== 'upload_pending')
        throw errors.gone('This upload URL was already used: upsert the file again to upload new content');
      if (contentLength !== undefined && contentLength > row.declared_size) {
        body.resume();
        // Like too many bytes found while streaming: the upload failed, with its reason (nothing was written).
        await filesRepo(db).completeUpload(row.id, row.upload_version, {
          status: 'upload_failed',
          failed_status_reason: `upload_too_large: ${contentLength} bytes sent for the declared ${row.declared_size}`,
          updated_at: now(),
        });
        throw new ApiError(
          'PayloadTooLarge',
          `The upload is ${contentLength} bytes but the file was declared with size ${row.declared_size}`,
        );
      }
      const blobKey = `bots/${row.bot_id}/files/${row.id}/${newId('file').slice(5)}`;
      let written: { size: number; sha256: string };
      try {
        written = await blobs.put(blobKey, body, {
          maxBytes: row.declared_size,
          contentType: row.content_type,
          signal,
        });
      } catch (error) {
        if (error instanceof BlobTooLargeError) {
          await filesRepo(db).completeUpload(row.id, row.upload_version, {
            status: 'upload_failed',
            failed_status_reason: `upload_too_large: more than the declared ${row.declared_size} bytes were sent`,
            updated_at: now(),
          });
          throw new ApiError(
            'PayloadTooLarge',
            `More bytes than the declared size (${row.declared_size}) were sent; nothing was kept`,
          );
        }
        // A dropped connection: the file stays upload_pending and the same URL can be used again.
        throw error;
      }
      if (written.size !== row.declared_size) {
        await blobs.delete(blobKey);
        await filesRepo(db).completeUpload(row.id, row.upload_version, {
          status: 'upload_failed',
          failed_status_reason: `upload_incomplete: received ${written.size} of the declared ${row.declared_size} bytes`,
          updated_at: now(),
        });
        throw errors.invalidPayload(
          `The upload ended after ${written.size} of the declared ${row.declared_size} bytes; nothing was kept`,
        );
      }
      const at = now();
      const committed = await db.transaction().execute(async (tx) => {
        // Read under the row lock: the blob this commit replaces is the one the record holds now.
        const current = await filesRepo(tx).byIdLocked(row.id);
        if (!current || current.upload_version !== row.upload_version || current.status !== 'upload_pending')
          return false;
        await filesRepo(tx).update(row.id, {
          blob_key: blobKey,
          size: written.size,
          sha256: written.sha256,
          // What these bytes are served as: the media type and access policies of the upsert they belong to.
          blob_content_type: current.content_type,
          blob_access_policies: current.access_policies,
          status: 'upload_completed',
          failed_status_reason: null,
          updated_at: at,
        });
        await queueGarbage(tx, current.blob_key);
        if (current.index === 1 && deps.jobs) await scheduleIndexing(tx, current);
        return true;
      });
      if (!committed) {
        await blobs.delete(blobKey);
        throw errors.gone('The file was replaced or deleted while uploading; nothing was kept');
      }
      await collectGarbage().catch(() => undefined);
      const fresh = await filesRepo(db).byIdAnyBot(row.id);
      return toFile(fresh as FileRow);
    },

    async get(ctx: FilesContext, idOrKey: string): Promise<FileObject> {
      const row = await load(ctx, idOrKey, 'read');
      return toFile(row, undefined, ctx.actor);
    },

    async list(
      ctx: FilesContext,
      q: {
        nextToken?: string | undefined;
        pageSize?: number | undefined;
        sortField?: keyof typeof FILE_SORT_COLUMNS | undefined;
        sortDirection?: 'asc' | 'desc' | undefined;
        tags?: TagFilter | undefined;
        ids?: string[] | undefined;
        indexed?: boolean | undefined;
      },
    ): Promise<Page<FileObject>> {
      if (fileRule(ctx.actor, 'list') === false) throw denied(ctx, 'list');
      const sortField = q.sortField ?? 'createdAt';
      const sortDirection = q.sortDirection ?? 'desc';
      const sort = `${sortField}:${sortDirection}`;
      const limit = q.pageSize ?? 20;
      const visibility = visibilityOf(ctx);
      const repo = filesRepo(db);
      const rows = await repo.list({
        botId: ctx.botId,
        visibility,
        tags: q.tags,
        ids: q.ids,
        indexed: q.indexed,
        sortField,
        sortDirection,
        limit,
        after: decodeCursor(q.nextToken, sort),
      });
      const column = FILE_SORT_COLUMNS[sortField];
      const page = toPage(rows, limit, sort, (r) => [
        // As LISTED_SIZE sorts it.
        column === 'size' ? (uploaded(r) ? (r.size ?? -1) : -1) : (r[column] as string),
        r.id,
      ]);
      const tags = await repo.tagsOf(page.items.map((r) => r.id));
      const items = await Promise.all(page.items.map((r) => toFile(r, tags.get(r.id) ?? {}, ctx.actor)));
      return { items, ...(page.nextToken ? { nextToken: page.nextToken } : {}) };
    },

    async update(ctx: FilesContext, idOrKey: string, body: UpdateFileBody): Promise<FileObject> {
      const row = await load(ctx, idOrKey, 'update');
      const values: Partial<FileRow> = { updated_at: now() };
      if (body.metadata !== undefined) {
        let stored: Record<string, unknown> = {};
        try {
          const parsed: unknown = JSON.parse(row.metadata);
          if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
            stored = parsed as Record<string, unknown>;
        } catch {
          // Unreadable stored metadata: the update starts from an empty object.
        }
        const merged = { ...stored, ...body.metadata };
        for (const [k, v] of Object.entries(body.metadata)) if (v === null) delete merged[k];
        values.metadata = checkJsonField('metadata', merged);
      }
      if (body.accessPolicies !== undefined) {
        // An explicit change of access applies to the bytes served now too (unlike a re-upsert's policies,
        // which wait for the new bytes).
        values.access_policies = JSON.stringify(body.accessPolicies);
        values.blob_access_policies = values.access_policies;
      }
      if (body.expiresAt !== undefined) values.expires_at = checkExpiry(body.expiresAt);
      await db.transaction().execute(async (tx) => {
        await filesRepo(tx).update(row.id, values);
        if (body.tags) await filesRepo(tx).setTags(row.id, body.tags);
      });
      return toFile((await filesRepo(db).byIdAnyBot(row.id)) as FileRow, undefined, ctx.actor);
    },

    async delete(ctx: FilesContext, idOrKey: string): Promise<void> {
      const row = await load(ctx, idOrKey, 'delete');
      await removeFile(row.id);
      await collectGarbage().catch(() => undefined);
    },

    /** Copies a file's content and fields to `destinationKey`, on the same bot or on `destination` (another bot). */
    async copy(
      ctx: FilesContext,
      idOrKey: string,
      destinationKey: string,
      destination: FilesContext,
      overwrite: boolean,
    ): Promise<FileObject> {
      const source = await load(ctx, idOrKey, 'read');
      // Only the content of the source's latest upsert: not older bytes it still serves while re-uploading.
      if (!uploaded(source) || !servable(source))
        throw new ApiError(
          'ResourceLockedConflict',
          `File "${source.key}" has no uploaded content to copy yet`,
        );
      const existsError = () =>
        errors.alreadyExists(
          `A file with key "${destinationKey}" already exists on the destination bot; pass overwrite: true to replace it`,
        );
      const authorizeDestination = (existing: FileRow | undefined) => {
        if (existing && !overwrite) throw existsError();
        if (existing) authorizeFile(destination, 'update', existing);
        else authorizeFile(destination, 'create');
      };
      // Early answers before any byte is copied; the transaction below decides again, atomically.
      const early = await filesRepo(db).byKey(destination.botId, destinationKey);
      authorizeDestination(early);
      await checkQuota(db, destination, source.size, early?.id);
      const tags = (await filesRepo(db).tagsOf([source.id])).get(source.id) ?? {};
      const blobKey = `bots/${destination.botId}/files/copy/${newId('file').slice(5)}`;
      try {
        await blobs.copy(source.blob_key, blobKey);
      } catch (error) {
        if (error instanceof BlobNotFoundError)
          throw new ApiError(
            'ResourceLockedConflict',
            `File "${source.key}" was replaced or deleted while copying; copy it again`,
          );
        throw error;
      }
      const contentType = source.blob_content_type ?? source.content_type;
      const common = {
        content_type: contentType,
        size: source.size,
        declared_size: source.size,
        sha256: source.sha256,
        metadata: source.metadata,
        access_policies: source.access_policies,
        index: source.index,
        indexing_configuration: source.indexing_configuration,
        status: 'upload_completed',
        failed_status_reason: null,
        expires_at: source.expires_at,
        blob_key: blobKey,
        blob_content_type: contentType,
        blob_access_policies: source.access_policies,
        indexing_done: 0,
        indexing_total: 0,
      };
      // The destination row is read locked inside the transaction, so the blob it replaces is the one it
      // holds at that moment, and concurrent copies onto one key each queue the blob they replaced.
      const attempt = () =>
        db.transaction().execute(async (tx): Promise<string> => {
          const repo = filesRepo(tx);
          if (quotaLimited) await repo.lockQuota(destination.workspaceId);
          const existing = await repo.byKeyLocked(destination.botId, destinationKey);
          authorizeDestination(existing);
          await checkQuota(tx, destination, source.size, existing?.id);
          const at = now();
          if (existing) {
            await queueGarbage(tx, existing.blob_key);
            await repo.update(existing.id, {
              ...common,
              upload_version: existing.upload_version + 1,
              updated_at: at,
            });
            await repo.replaceTags(existing.id, tags);
            return existing.id;
          }
          const who = owner(destination.actor);
          const id = newId('file');
          await repo.insert(
            {
              id,
              bot_id: destination.botId,
              workspace_id: destination.workspaceId,
              key: destinationKey,
              ...common,
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
      let id: string;
      try {
        try {
          id = await attempt();
        } catch (error) {
          // Created by another request at the same moment: with overwrite, replace it as a moment later.
          if (!(isUniqueViolation(error) && overwrite)) throw error;
          id = await attempt();
        }
      } catch (error) {
        await blobs.delete(blobKey);
        if (isUniqueViolation(error)) throw existsError();
        throw error;
      }
      await collectGarbage().catch(() => undefined);
      return toFile((await filesRepo(db).byIdAnyBot(id)) as FileRow, undefined, destination.actor);
    },

    async tagKeys(
      ctx: FilesContext,
      q: { nextToken?: string | undefined; pageSize?: number | undefined },
    ): Promise<Page<string>> {
      if (fileRule(ctx.actor, 'list') === false) throw denied(ctx, 'list');
      const limit = q.pageSize ?? 100;
      const after = decodeCursor(q.nextToken, 'tag:asc');
      const vis = visibilityOf(ctx);
      const rows = await filesRepo(db).tagKeys(ctx.botId, vis, limit, after?.id);
      const page = toPage(rows, limit, 'tag:asc', (r) => [r.key, r.key]);
      return {
        items: page.items.map((r) => r.key),
        ...(page.nextToken ? { nextToken: page.nextToken } : {}),
      };
    },

    async tagValues(
      ctx: FilesContext,
      tag: string,
      q: { nextToken?: string | undefined; pageSize?: number | undefined },
    ): Promise<Page<string>> {
      if (fileRule(ctx.actor, 'list') === false) throw denied(ctx, 'list');
      const limit = q.pageSize ?? 100;
      const after = decodeCursor(q.nextToken, 'value:asc');
      const vis = visibilityOf(ctx);
      const rows = await filesRepo(db).tagValues(ctx.botId, tag, vis, limit, after?.id);
      const page = toPage(rows, limit, 'value:asc', (r) => [r.value, r.value]);
      return {
        items: page.items.map((r) => r.value),
        ...(page.nextToken ? { nextToken: page.nextToken } : {}),
      };
    },

    /**
     * Opens a file's content for a download URL: a permanent public URL (only while the file has
     * `public_content`) or a signed private URL (403 once expired or altered).
     */
    async openContent(id: string, query: Record<string, string | undefined>): Promise<FileContent> {
      const row = await filesRepo(db).byIdAnyBot(id);
      // Who downloads: anyone (public URL), an integration (a URL handed to it), or a holder of a private URL.
      let downloader: FileActor | undefined;
      if (query.public === '1') {
        if (!query.signature || !signer.checkPermanent(contentPath(id), { public: '1' }, query.signature)) {
          throw errors.forbidden(
            'This public URL is not valid: it was altered or is not one the API handed out',
          );
        }
        if (!row || !canFile(PUBLIC, 'download', facts(row))) throw errors.notFound('Public file', id);
        downloader = PUBLIC;
      } else {
        const check = signer.check(contentPath(id), query);
        if (check === 'invalid')
          throw errors.forbidden(
            'This download URL is not valid: it was altered or is not one the API handed out',
          );
        if (check === 'expired')
          throw errors.forbidden(
            'This download URL has expired: get the file again (GET /v1/files/{id}) for a fresh url',
          );
        if (!row) throw errors.notFound('File', id);
        if (query.integration !== undefined)
          downloader = { kind: 'integration', integrationId: query.integration, botId: row.bot_id };
      }
      // The bytes served may be older than the latest upsert (its upload is pending): they are served only
      // to whoever may download them as they were committed, so a re-upsert never publishes older bytes.
      if (!servable(row) || (downloader && !canFile(downloader, 'download', contentFacts(row))))
        throw new ApiError('ResourceNotFound', `File "${row.key}" has no uploaded content yet`);
      const blobKey = row.blob_key;
      return {
        size: row.size,
        // A media type stored before they were checked may not be sendable as a header.
        contentType: servedMediaType(row.blob_content_type ?? row.content_type),
        key: row.key,
        etag: `"${row.sha256 ?? row.id}"`,
        lastModified: row.updated_at,
        // Reads the very blob these headers describe (blobs are never rewritten in place), so a new upload
        // committed meanwhile can never mix its bytes with the old headers.
        open: async (range?: ByteRange) => {
          try {
            return await blobs.get(blobKey, range);
          } catch (error) {
            if (error instanceof BlobNotFoundError) {
              throw new ApiError(
                'ResourceLockedConflict',
                'The file was replaced or deleted while downloading; get it again',
              );
            }
            throw error;
          }
        },
      };
    },

    /** Deletes files whose expiresAt has passed, then their blobs; answers how many files went. */
    async expire(limit = 100): Promise<number> {
      const rows = await filesRepo(db).expired(now(), limit);
      for (const row of rows) await removeFile(row.id);
      await collectGarbage();
      return rows.length;
    },

    collectGarbage,

    /** Which of a bot's files the caller may see, as the search index filters them. */
    visibility: visibilityOf,

    /** Loads a file the caller may update (403/404 otherwise), for setFilePassages. */
    async writable(ctx: FilesContext, idOrKey: string): Promise<FileRow> {
      return load(ctx, idOrKey, 'update');
    },

    /** Loads a file the caller may read (404 otherwise), for search and knowledge bases. */
    async readable(ctx: FilesContext, idOrKey: string): Promise<FileRow> {
      return load(ctx, idOrKey, 'read');
    },

    /**
     * Indexes a file again without a new upload (a failed or outdated index, or a file linked to a knowledge
     * base): needs update rights and uploaded content. Turns `index` on.
     */
    async reindex(ctx: FilesContext, idOrKey: string): Promise<FileObject> {
      const row = await load(ctx, idOrKey, 'update');
      return this.ensureIndexed(row.id, true);
    },

    /** Makes sure a file is (being) indexed: queues indexing unless it is indexed or queued already (or `force`). */
    async ensureIndexed(fileId: string, force = false): Promise<FileObject> {
      if (!deps.jobs) throw new ApiError('Internal', 'Indexing is not available in this process');
      const row = await filesRepo(db).byIdAnyBot(fileId);
      if (!row) throw errors.notFound('File', fileId);
      if (!uploaded(row)) {
        // Not uploaded yet (or a re-upsert waits for its bytes): it will be indexed when the upload completes.
        if (row.index === 0) await filesRepo(db).update(row.id, { index: 1, updated_at: now() });
      } else if (
        force ||
        row.index === 0 ||
        row.status === 'upload_completed' ||
        row.status === 'indexing_failed'
      ) {
        await db.transaction().execute(async (tx) => {
          await filesRepo(tx).update(row.id, { index: 1 });
          await scheduleIndexing(tx, row);
        });
      }
      return toFile((await filesRepo(db).byIdAnyBot(fileId)) as FileRow);
    },

    /** The file fields a search answer carries, for these ids. */
    async summaries(ids: string[]): Promise<Map<string, PassageFileSummary>> {
      const rows = ids.length
        ? await db.selectFrom('files').selectAll().where('id', 'in', ids).execute()
        : [];
      const tags = await filesRepo(db).tagsOf(rows.map((r) => r.id));
      return new Map(
        rows.map((r) => [
          r.id,
          {
            id: r.id,
            key: r.key,
            contentType: r.content_type,
            metadata: readJsonObject(r.metadata),
            tags: tags.get(r.id) ?? {},
            createdAt: r.created_at,
            updatedAt: r.updated_at,
          },
        ]),
      );
    },

    /** Removes leftovers of uploads whose process died (idle for an hour); answers how many. */
    sweepTemporary: async (): Promise<number> => (await blobs.sweepTemporary?.(3600_000)) ?? 0,

    /**
     * Deletes blobs that no file record holds (left by a crash or a lost race between a blob write and its
     * record), once older than `olderThanMs` (default: the upload URL lifetime); answers how many went. A
     * blob is written just before the transaction that records it, so `olderThanMs` must exceed the longest
     * upload: with S3, a multipart object is dated from when its upload began. Safe on several processes.
     */
    async sweepOrphans(olderThanMs: number = settings.uploadUrlTtlMs): Promise<number> {
      const cutoff = clock().getTime() - olderThanMs;
      let removed = 0;
      let batch: string[] = [];
      const flush = async () => {
        const held = new Set(
          (await db.selectFrom('files').select('blob_key').where('blob_key', 'in', batch).execute()).map(
            (r) => r.blob_key,
          ),
        );
        for (const key of batch) {
          if (held.has(key)) continue;
          await blobs.delete(key);
          removed += 1;
        }
        batch = [];
      };
      for await (const entry of blobs.list('bots/')) {
        if (entry.lastModified.getTime() > cutoff) continue;
        batch.push(entry.key);
        if (batch.length >= 500) await flush();
      }
      if (batch.length > 0) await flush();
      return removed;
    },

    /** Usage figures of one bot (Admin API): its File Storage bytes against the per-bot quota. */
    async botUsages(actor: Actor, botId: string): Promise<Usage[]> {
      await deps.bots.get(actor, botId);
      authorize(actor, 'usage.read');
      const value = await filesRepo(db).storedBytes({ botId }, false);
      const period = now().slice(0, 7);
      const extra = (await Promise.all(botUsageSources.map((source) => source(botId)))).flat();
      return [
        { id: botId, period, type: 'storage_count', value, quota: settings.quotas.botBytes },
        ...extra.map((u) => ({ id: botId, period, ...u })),
      ];
    },

    /** Lets other modules (knowledge) add their figures to a bot's usages. */
    addBotUsageSource(source: BotUsageSource): void {
      botUsageSources.push(source);
    },

    /** File Storage bytes of a workspace or a bot. */
    storedBytes: (where: { botId?: string; workspaceId?: string }) => filesRepo(db).storedBytes(where, false),
  };
}
/** The files service. */
export type FilesService = ReturnType<typeof filesService>;
