import type { KnowledgeBase, KnowledgeBaseFile } from '@parley/protocol';
import type { Kysely, Selectable } from 'kysely';
import { fileRule } from '../../access/file-policy.js';
import { isUniqueViolation } from '../../db/database.js';
import { keysetPage } from '../../db/keyset.js';
import type { Database } from '../../db/schema.js';
import type { KnowledgeBasesTable } from '../../db/tables/knowledge.js';
import { errors } from '../../errors/errors.js';
import { decodeCursor, type Page, toPage } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { type AuditService, recordMemberChange } from '../audit/service.js';
import type { FilesContext, FilesService } from '../files/service.js';

type KbRow = Selectable<KnowledgeBasesTable>;

/** A file linked to a knowledge base, with its indexing state (wire shape in @parley/protocol). */
export type LinkedFile = KnowledgeBaseFile;

/** The fields of a knowledge base a caller sets. */
export interface KnowledgeBaseFields {
  name: string;
  tags?: Record<string, string> | undefined;
}

/**
 * Knowledge bases: named groups of a bot's files, searched together. The spec's rule is enforced: a linked
 * file is always indexed (linking starts its indexing), and a knowledge base reports how many of its files are
 * indexed, pending or failed, so a client never waits on a file that will not finish.
 */
export interface KnowledgeBaseService {
  list(
    ctx: FilesContext,
    q: { nextToken?: string | undefined; pageSize?: number | undefined },
  ): Promise<Page<KnowledgeBase>>;
  create(ctx: FilesContext, body: KnowledgeBaseFields): Promise<KnowledgeBase>;
  get(ctx: FilesContext, id: string): Promise<KnowledgeBase>;
  update(ctx: FilesContext, id: string, body: KnowledgeBaseFields): Promise<KnowledgeBase>;
  /** Deletes a knowledge base; its files stay (only the links go). */
  delete(ctx: FilesContext, id: string): Promise<void>;
  /** The files linked to a knowledge base that the caller may read, in the order they were linked. */
  files(ctx: FilesContext, id: string): Promise<LinkedFile[]>;
  /** Links a file (by id or key) and makes sure it is indexed. Linking twice changes nothing. */
  link(ctx: FilesContext, id: string, fileIdOrKey: string): Promise<KnowledgeBase>;
  unlink(ctx: FilesContext, id: string, fileIdOrKey: string): Promise<KnowledgeBase>;
  /** The files of these knowledge bases of the bot (unknown ids: 404), for scoping a search. */
  fileIdsOf(ctx: FilesContext, ids: string[]): Promise<string[]>;
}

/** What the knowledge base service is built from. */
export interface KnowledgeBaseDeps {
  db: Kysely<Database>;
  files: Pick<FilesService, 'readable' | 'ensureIndexed' | 'indexingStates'>;
  clock: () => Date;
  /** The audit trail: each knowledge base created, renamed or deleted is recorded with the change. */
  audit?: AuditService | undefined;
}

export function canRead(ctx: FilesContext): void {
  if (fileRule(ctx.actor, 'list') === false)
    throw errors.forbidden('Permission denied: you may not read the knowledge bases of this bot');
}

export function canWrite(ctx: FilesContext): void {
  if (fileRule(ctx.actor, 'update') !== true || fileRule(ctx.actor, 'create') !== true) {
    throw errors.forbidden(
      'Permission denied: only the bot and members who may change every file of the bot manage its knowledge bases',
    );
  }
}

/** A knowledge base of the context's bot (404 otherwise). */
export async function loadKb(db: Kysely<Database>, ctx: FilesContext, id: string): Promise<KbRow> {
  const row = await db
    .selectFrom('knowledge_bases')
    .selectAll()
    .where('bot_id', '=', ctx.botId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw errors.notFound('Knowledge base', id);
  return row;
}

/**
 * How many of a knowledge base's files are indexed, pending or failed, and their bytes. Read in one aggregate
 * over the files' status (a read only: the files module is the one that writes it).
 */
async function fileCounts(db: Kysely<Database>, kbId: string): Promise<KnowledgeBase['files']> {
  const counts = await db
    .selectFrom('knowledge_base_files')
    .innerJoin('files', 'files.id', 'knowledge_base_files.file_id')
    .select(['files.status'])
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('files.size').as('bytes')])
    .where('knowledge_base_files.knowledge_base_id', '=', kbId)
    .groupBy('files.status')
    .execute();
  const files = { total: 0, indexed: 0, pending: 0, failed: 0, size: 0 };
  for (const c of counts) {
    const n = Number(c.n);
    files.total += n;
    files.size += Number(c.bytes ?? 0);
    if (c.status === 'indexing_completed') files.indexed += n;
    else if (c.status === 'indexing_failed' || c.status === 'upload_failed') files.failed += n;
    else files.pending += n;
  }
  return files;
}

async function toKb(db: Kysely<Database>, row: KbRow): Promise<KnowledgeBase> {
  return {
    id: row.id,
    botId: row.bot_id,
    name: row.name,
    tags: JSON.parse(row.tags) as Record<string, string>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    files: await fileCounts(db, row.id),
  };
}

/** Runs a write of a knowledge base's name: 409 when another knowledge base of the bot has that name. */
async function uniqueName(name: string, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (isUniqueViolation(error))
      throw errors.alreadyExists(`A knowledge base named "${name}" already exists on this bot`);
    throw error;
  }
}

/** The knowledge bases themselves: list, create, get, update, delete. */
function knowledgeBaseRecords(
  deps: KnowledgeBaseDeps,
): Pick<KnowledgeBaseService, 'list' | 'create' | 'get' | 'update' | 'delete'> {
  const { db } = deps;
  const now = () => deps.clock().toISOString();
  return {
    async list(ctx, q) {
      canRead(ctx);
      const limit = q.pageSize ?? 20;
      const after = decodeCursor(q.nextToken, 'id:asc');
      const rows = await keysetPage(
        db.selectFrom('knowledge_bases').selectAll().where('bot_id', '=', ctx.botId),
        { id: 'id', direction: 'asc' },
        { limit, after },
      );
      const page = toPage(rows, limit, 'id:asc', (r) => [r.id, r.id]);
      return {
        items: await Promise.all(page.items.map((r) => toKb(db, r))),
        ...(page.nextToken ? { nextToken: page.nextToken } : {}),
      };
    },
    async create(ctx, body) {
      canWrite(ctx);
      const at = now();
      const tags = JSON.stringify(body.tags ?? {});
      const row: KbRow = {
        id: newId('kb'),
        bot_id: ctx.botId,
        name: body.name,
        tags,
        created_at: at,
        updated_at: at,
      };
      await uniqueName(body.name, () =>
        db.transaction().execute(async (tx) => {
          await tx.insertInto('knowledge_bases').values(row).execute();
          await recordMemberChange(deps.audit, tx, ctx, {
            action: 'CREATE_KNOWLEDGE_BASE',
            resourceId: row.id,
            resourceName: row.name,
          });
        }),
      );
      return toKb(db, row);
    },
    async get(ctx, id) {
      canRead(ctx);
      return toKb(db, await loadKb(db, ctx, id));
    },
    async update(ctx, id, body) {
      canWrite(ctx);
      const before = await loadKb(db, ctx, id);
      const values = {
        name: body.name,
        ...(body.tags ? { tags: JSON.stringify(body.tags) } : {}),
        updated_at: now(),
      };
      const change = {
        ...(before.name !== body.name ? { previousName: before.name } : {}),
        ...(body.tags ? { tags: body.tags } : {}),
      };
      await uniqueName(body.name, () =>
        db.transaction().execute(async (tx) => {
          await tx.updateTable('knowledge_bases').set(values).where('id', '=', id).execute();
          await recordMemberChange(deps.audit, tx, ctx, {
            action: 'UPDATE_KNOWLEDGE_BASE',
            resourceId: id,
            resourceName: body.name,
            value: change,
          });
        }),
      );
      return toKb(db, await loadKb(db, ctx, id));
    },
    async delete(ctx, id) {
      canWrite(ctx);
      const kb = await loadKb(db, ctx, id);
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('knowledge_bases').where('id', '=', id).execute();
        await recordMemberChange(deps.audit, tx, ctx, {
          action: 'DELETE_KNOWLEDGE_BASE',
          resourceId: kb.id,
          resourceName: kb.name,
        });
      });
    },
  };
}

/** The files of a knowledge base the caller may read, in link order, as the files module reports them. */
async function linkedFiles(deps: KnowledgeBaseDeps, ctx: FilesContext, id: string): Promise<LinkedFile[]> {
  const links = await deps.db
    .selectFrom('knowledge_base_files')
    .select(['file_id', 'linked_at'])
    .where('knowledge_base_id', '=', id)
    .orderBy('linked_at')
    .execute();
  const states = await deps.files.indexingStates(
    ctx,
    links.map((l) => l.file_id),
  );
  return links.flatMap((link) => {
    const file = states.get(link.file_id);
    if (!file) return [];
    const failed = file.failedStatusReason ? { failedStatusReason: file.failedStatusReason } : {};
    return [{ fileId: file.id, key: file.key, status: file.status, ...failed, linkedAt: link.linked_at }];
  });
}

/** The links between knowledge bases and files. */
function knowledgeBaseLinks(
  deps: KnowledgeBaseDeps,
): Pick<KnowledgeBaseService, 'files' | 'link' | 'unlink' | 'fileIdsOf'> {
  const { db } = deps;
  /** The knowledge base and the file a link or an unlink is about: the caller manages it and reads the file. */
  const target = async (ctx: FilesContext, id: string, fileIdOrKey: string) => {
    canWrite(ctx);
    const kb = await loadKb(db, ctx, id);
    return { kb, file: await deps.files.readable(ctx, fileIdOrKey) };
  };
  return {
    async files(ctx, id) {
      canRead(ctx);
      await loadKb(db, ctx, id);
      return linkedFiles(deps, ctx, id);
    },
    async link(ctx, id, fileIdOrKey) {
      const { kb, file } = await target(ctx, id, fileIdOrKey);
      await db
        .insertInto('knowledge_base_files')
        .values({ knowledge_base_id: kb.id, file_id: file.id, linked_at: deps.clock().toISOString() })
        .onConflict((oc) => oc.columns(['knowledge_base_id', 'file_id']).doNothing())
        .execute();
      await deps.files.ensureIndexed(file.id);
      return toKb(db, kb);
    },
    async unlink(ctx, id, fileIdOrKey) {
      const { kb, file } = await target(ctx, id, fileIdOrKey);
      await db
        .deleteFrom('knowledge_base_files')
        .where('knowledge_base_id', '=', kb.id)
        .where('file_id', '=', file.id)
        .execute();
      return toKb(db, kb);
    },
    async fileIdsOf(ctx, ids) {
      for (const id of ids) await loadKb(db, ctx, id);
      const rows = await db
        .selectFrom('knowledge_base_files')
        .select('file_id')
        .distinct()
        .where('knowledge_base_id', 'in', ids)
        .execute();
      return rows.map((r) => r.file_id);
    },
  };
}

/** The knowledge base service ({@link KnowledgeBaseService}): its records and its links to files. */
export function knowledgeBaseService(deps: KnowledgeBaseDeps): KnowledgeBaseService {
  return { ...knowledgeBaseRecords(deps), ...knowledgeBaseLinks(deps) };
}
