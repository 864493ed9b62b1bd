import type { UpdateBotBody } from '@parley/protocol';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import { readPage } from '../../http/route-helpers.js';
import { auditWho } from '../audit/service.js';
import { type BotsContext, loadBot } from './context.js';
import type { BotManagement } from './contract.js';
import { checkHandoff } from './handoff-settings.js';
import { checkReplyMode, toBot, toSummary } from './records.js';
import { checkReplies } from './replies.js';
import { BOT_SORT_COLUMNS, type BotRow, botsRepo } from './repo.js';

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
  if (body.sourceLinks !== undefined) values.source_links = body.sourceLinks;
  if (body.replies !== undefined) values.replies = JSON.stringify(checkReplies(body.replies));
  if (body.handoff !== undefined) values.handoff = JSON.stringify(checkHandoff(body.handoff));
  // These fields have the names of their columns.
  for (const field of ['name', 'description', 'status'] as const) {
    const value = body[field];
    if (value !== undefined) values[field] = value;
  }
  return values;
}

/** Bots of the actor's workspace: listed, read, updated and deleted, each change audited. */
export function botManagement(ctx: BotsContext): BotManagement {
  const { db, now, audit } = ctx;

  async function get(actor: Actor, id: string) {
    authorize(actor, 'bot.read');
    const row = await loadBot(db, actor, id);
    return toBot(row, (await botsRepo(db).tagsOf([row.id])).get(row.id) ?? {});
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
