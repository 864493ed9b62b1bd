import type { UpdateBotBody } from '@parley/protocol';
import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import { readPage } from '../../http/route-helpers.js';
import { newBotId } from '../../ids.js';
import { auditWho } from '../audit/service.js';
import { type BotsContext, loadBot } from './context.js';
import type { BotManagement } from './contract.js';
import { checkReplyMode, toBot, toSummary } from './records.js';
import { BOT_SORT_COLUMNS, type BotRow, botsRepo } from './repo.js';

/** Who created a bot: the member's account, or the key's bot or integration. */
const creatorOf = (actor: Actor): string =>
  actor.kind === 'member' ? actor.accountId : actor.kind === 'bot' ? actor.botId : actor.integrationId;

/** The columns an update of a bot sets (a new deployment, whatever changed). */
function botValues(row: BotRow, body: UpdateBotBody, at: string): Partial<BotRow> {
  const replyMode = body.replyMode ?? row.reply_mode;
  const webhookUrl = body.webhookUrl !== undefined ? body.webhookUrl : row.webhook_url;
  checkReplyMode(replyMode, webhookUrl);
  const values: Partial<BotRow> = {
    updated_at: at,
    deployed_at: at,
    reply_mode: replyMode,
    webhook_url: webhookUrl,
  };
  // These fields have the names of their columns.
  for (const field of ['name', 'description', 'status'] as const) {
    const value = body[field];
    if (value !== undefined) values[field] = value;
  }
  return values;
}

/** Bots of the actor's workspace: listed, created within the workspace's quota, read, updated, deleted. */
export function botManagement(ctx: BotsContext): BotManagement {
  const { db, now, audit } = ctx;

  async function get(actor: Actor, id: string) {
    authorize(actor, 'bot.read');
    const row = await loadBot(db, actor, id);
    return toBot(row, (await botsRepo(db).tagsOf([row.id])).get(row.id) ?? {});
  }

  const createInTx: BotManagement['createInTx'] = async (tx, workspaceId, createdBy, body, who) => {
    checkReplyMode(body.replyMode ?? 'knowledge', body.webhookUrl);
    const at = now();
    const row: BotRow = {
      id: newBotId(),
      workspace_id: workspaceId,
      name: body.name ?? 'New bot',
      description: body.description ?? '',
      dev: body.dev ? 1 : 0,
      status: 'active',
      created_by: createdBy,
      reply_mode: body.replyMode ?? 'knowledge',
      webhook_url: body.webhookUrl ?? null,
      webchat_config: '{}',
      created_at: at,
      updated_at: at,
      deployed_at: at,
    };
    await checkQuota(tx, workspaceId);
    await botsRepo(tx).insert(row, body.tags ?? {});
    await audit.record(tx, workspaceId, who, {
      action: 'CREATE_BOT',
      resourceId: row.id,
      resourceName: row.name,
    });
    return toBot(row, body.tags ?? {});
  };

  /** 429 QuotaExceeded when the workspace already has its quota of bots. */
  async function checkQuota(tx: Kysely<Database>, workspaceId: string) {
    const quota = ctx.config.quotas.botsPerWorkspace;
    if (quota !== null && (await botsRepo(tx).count(workspaceId)) >= quota) {
      throw errors.quotaExceeded(
        `This workspace already has ${quota} bots, its quota (PARLEY_QUOTA_BOTS_PER_WORKSPACE); delete one first`,
      );
    }
  }

  return {
    async list(actor, query) {
      authorize(actor, 'bot.read');
      const sortField = query.sortField ?? 'createdAt';
      const sortDirection = query.sortDirection ?? 'desc';
      const repo = botsRepo(db);
      const filter = {
        workspaceId: actor.workspaceId,
        dev: query.dev,
        nameContains: query.name,
        tags: query.tags,
      };
      const page = await readPage(query, {
        sort: `${sortField}:${sortDirection}`,
        rows: (limit, after) => repo.list({ ...filter, sortField, sortDirection, limit, after }),
        key: (r) => [r[BOT_SORT_COLUMNS[sortField]], r.id],
        toItem: (r) => r,
      });
      const tags = await repo.tagsOf(page.items.map((r) => r.id));
      return { ...page, items: page.items.map((r) => toSummary(r, tags.get(r.id) ?? {})) };
    },

    async create(actor, body) {
      authorize(actor, 'bot.create');
      const creator = creatorOf(actor);
      return db
        .transaction()
        .execute((tx) => createInTx(tx, actor.workspaceId, creator, body, auditWho(actor)));
    },

    createInTx,

    get,

    async update(actor, id, body) {
      const row = await loadBot(db, actor, id);
      authorize(actor, 'bot.update', { createdBy: row.created_by });
      const values = botValues(row, body, now());
      await db.transaction().execute(async (tx) => {
        await botsRepo(tx).update(id, values);
        if (body.tags) await botsRepo(tx).setTags(id, body.tags);
        await audit.record(tx, actor.workspaceId, auditWho(actor), {
          action: 'UPDATE_BOT',
          resourceId: id,
          resourceName: values.name ?? row.name,
          value: body,
        });
      });
      return get(actor, id);
    },

    async delete(actor, id) {
      const row = await loadBot(db, actor, id);
      authorize(actor, 'bot.delete', { createdBy: row.created_by });
      await db.transaction().execute(async (tx) => {
        await botsRepo(tx).delete(id, now());
        await audit.record(tx, actor.workspaceId, auditWho(actor), {
          action: 'DELETE_BOT',
          resourceId: id,
          resourceName: row.name,
        });
      });
      ctx.credentialsChanged(id);
    },
  };
}
