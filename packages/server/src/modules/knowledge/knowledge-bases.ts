import type { KnowledgeBase, KnowledgeBaseFile } from '@parley/protocol';
import type { Kysely, Selectable } from 'kysely';
import { fileRule } from '../../access/file-policy.js';
import { isUniqueViolation } from '../../db/database.js';
import type { Database, KnowledgeBasesTable } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import { decodeCursor, type Page, toPage } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import type { FilesContext, FilesService } from '../files/service.js';

type KbRow = Selectable<KnowledgeBasesTable>;

/** A file linked to a knowledge base, with its indexing state (wire shape in @parley/protocol). */
export type LinkedFile = KnowledgeBaseFile;

/**
 * Knowledge bases: named groups of a bot's files, searched together. The spec's rule is enforced: a linked
 * file is always indexed (linking starts its indexing), and a knowledge base reports how many of its files are
 * indexed, pending or failed, so a client never waits on a file that will not finish.
 */
export function knowledgeBaseService(deps: { db: Kysely<Database>; files: FilesService; clock: () => Date }) {
  const { db } = deps;
  const now = () => deps.clock().toISOString();

  function canRead(ctx: FilesContext): void {
    if (fileRule(ctx.actor, 'list') === false)
      throw errors.forbidden('Permission denied: you may not read the knowledge bases of this bot');
  }
  function canWrite(ctx: FilesContext): void {
    if (fileRule(ctx.actor, 'update') !== true || fileRule(ctx.actor, 'create') !== true) {
      throw errors.forbidden(
        'Permission denied: only the bot and members who may change every file of the bot manage its knowledge bases',
      );
    }
  }

  async function load(ctx: FilesContext, id: string): Promise<KbRow> {
    const row = await db
      .selectFrom('knowledge_bases')
      .selectAll()
      .where('bot_id', '=', ctx.botId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw errors.notFound('Knowledge base', id);
    return row;
  }

  async function toKb(row: KbRow): Promise<KnowledgeBase> {
    const counts = await db
      .selectFrom('knowledge_base_files')
      .innerJoin('files', 'files.id', 'knowledge_base_files.file_id')
      .select(['files.status'])
      .select((eb) => eb.fn.countAll().as('n'))
      .where('knowledge_base_files.knowledge_base_id', '=', row.id)
      .groupBy('files.status')
      .execute();
    const files = { total: 0, indexed: 0, pending: 0, failed: 0 };
    for (const c of counts) {
      const n = Number(c.n);
      files.total += n;
      if (c.status === 'indexing_completed') files.indexed += n;
      else if (c.status === 'indexing_failed' || c.status === 'upload_failed') files.failed += n;
      else files.pending += n;
    }
    return {
      id: row.id,
      botId: row.bot_id,
      name: row.name,
      tags: JSON.parse(row.tags) as Record<string, string>,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      files,
    };
  }

  return {
    async list(
      ctx: FilesContext,
      q: { nextToken?: string | undefined; pageSize?: number | undefined },
    ): Promise<Page<KnowledgeBase>> {
      canRead(ctx);
      const limit = q.pageSize ?? 20;
      const after = decodeCursor(q.nextToken, 'id:asc');
      let query = db.selectFrom('knowledge_bases').selectAll().where('bot_id', '=', ctx.botId);
      if (after) query = query.where('id', '>', after.id);
      const rows = await query
        .orderBy('id')
        .limit(limit + 1)
        .execute();
      const page = toPage(rows, limit, 'id:asc', (r) => [r.id, r.id]);
      return {
        items: await Promise.all(page.items.map(toKb)),
        ...(page.nextToken ? { nextToken: page.nextToken } : {}),
      };
    },

    async create(
      ctx: FilesContext,
      body: { name: string; tags?: Record<string, string> | undefined },
    ): Promise<KnowledgeBase> {
      canWrite(ctx);
      const at = now();
      const row: KbRow = {
        id: newId('kb'),
        bot_id: ctx.botId,
        name: body.name,
        tags: JSON.stringify(body.tags ?? {}),
        created_at: at,
        updated_at: at,
      };
      try {
        await db.insertInto('knowledge_bases').values(row).execute();
      } catch (error) {
        if (isUniqueViolation(error))
          throw errors.alreadyExists(`A knowledge base named "${body.name}" already exists on this bot`);
        throw error;
      }
      return toKb(row);
    },

    async get(ctx: FilesContext, id: string): Promise<KnowledgeBase> {
      canRead(ctx);
      return toKb(await load(ctx, id));
    },

    async update(
      ctx: FilesContext,
      id: string,
      body: { name: string; tags?: Record<string, string> | undefined },
    ): Promise<KnowledgeBase> {
      canWrite(ctx);
      await load(ctx, id);
      try {
        await db
          .updateTable('knowledge_bases')
          .set({
            name: body.name,
            ...(body.tags ? { tags: JSON.stringify(body.tags) } : {}),
            updated_at: now(),
          })
          .where('id', '=', id)
          .execute();
      } catch (error) {
        if (isUniqueViolation(error))
          throw errors.alreadyExists(`A knowledge base named "${body.name}" already exists on this bot`);
        throw error;
      }
      return toKb(await load(ctx, id));
    },

    /** Deletes a knowledge base; its files stay (only the links go). */
    async delete(ctx: FilesContext, id: string): Promise<void> {
      canWrite(ctx);
      await load(ctx, id);
      await db.deleteFrom('knowledge_bases').where('id', '=', id).execute();
    },

    /** The files linked to a knowledge base that the caller may read, in the order they were linked. */
    async files(ctx: FilesContext, id: string): Promise<LinkedFile[]> {
      canRead(ctx);
      await load(ctx, id);
      const links = await db
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
        return [
          {
            fileId: file.id,
            key: file.key,
            status: file.status,
            ...(file.failedStatusReason ? { failedStatusReason: file.failedStatusReason } : {}),
            linkedAt: link.linked_at,
          },
        ];
      });
    },

    /** Links a file (by id or key) and makes sure it is indexed. Linking twice changes nothing. */
    async link(ctx: FilesContext, id: string, fileIdOrKey: string): Promise<KnowledgeBase> {
      canWrite(ctx);
      const kb = await load(ctx, id);
      const file = await deps.files.readable(ctx, fileIdOrKey);
      await db
        .insertInto('knowledge_base_files')
        .values({ knowledge_base_id: kb.id, file_id: file.id, linked_at: now() })
        .onConflict((oc) => oc.columns(['knowledge_base_id', 'file_id']).doNothing())
        .execute();
      await deps.files.ensureIndexed(file.id);
      return toKb(kb);
    },

    async unlink(ctx: FilesContext, id: string, fileIdOrKey: string): Promise<KnowledgeBase> {
      canWrite(ctx);
      const kb = await load(ctx, id);
      const file = await deps.files.readable(ctx, fileIdOrKey);
      await db
        .deleteFrom('knowledge_base_files')
        .where('knowledge_base_id', '=', kb.id)
        .where('file_id', '=', file.id)
        .execute();
      return toKb(kb);
    },

    /** The files of these knowledge bases of the bot (unknown ids: 404), for scoping a search. */
    async fileIdsOf(ctx: FilesContext, ids: string[]): Promise<string[]> {
      for (const id of ids) await load(ctx, id);
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
/** The knowledge base service. */
export type KnowledgeBaseService = ReturnType<typeof knowledgeBaseService>;
