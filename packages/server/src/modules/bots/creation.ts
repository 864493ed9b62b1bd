import type { Bot, CreateBotBody, WebchatConfiguration } from '@parley/protocol';
import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import { newBotId } from '../../ids.js';
import { type AuditWho, auditWho } from '../audit/service.js';
import type { BotsContext } from './context.js';
import type { BotCreation } from './contract.js';
import { checkHandoff } from './handoff-settings.js';
import { checkReplyMode, toBot } from './records.js';
import { checkReplies } from './replies.js';
import { type BotRow, botsRepo } from './repo.js';

/** Who created a bot: the member's account, or the key's bot or integration. */
const creatorOf = (actor: Actor): string =>
  actor.kind === 'member' ? actor.accountId : actor.kind === 'bot' ? actor.botId : actor.integrationId;

/**
 * The webchat configuration a bot made through the Admin API (the Console, the CLI) starts with: feedback on,
 * and the "Talk to a person" button (human handoff).
 */
export const NEW_BOT_WEBCHAT: WebchatConfiguration = { feedbackEnabled: true, handoffButton: true };

/**
 * New bots, within the workspace's quota: knowledge replies and `public` source links unless asked otherwise,
 * audited.
 */
export function botCreation(ctx: Pick<BotsContext, 'db' | 'now' | 'audit' | 'config'>): BotCreation {
  const { db, now, audit } = ctx;

  /** Inserts the bot with its first webchat configuration, audited. */
  const insertBot = async (
    tx: Kysely<Database>,
    workspaceId: string,
    createdBy: string,
    body: CreateBotBody,
    who: AuditWho,
    webchat: WebchatConfiguration,
  ): Promise<Bot> => {
    checkReplyMode(body.replyMode ?? 'knowledge', body.webhookUrl);
    const replies = checkReplies(body.replies ?? {});
    const handoff = checkHandoff(body.handoff ?? {});
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
      source_links: body.sourceLinks ?? 'public',
      replies: JSON.stringify(replies),
      handoff: JSON.stringify(handoff),
      webchat_config: JSON.stringify(webchat),
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
  // The first start's demo bot keeps the webchat's own defaults.
  const createInTx: BotCreation['createInTx'] = (tx, workspaceId, createdBy, body, who) =>
    insertBot(tx, workspaceId, createdBy, body, who, {});

  /** 403 QuotaExceeded when the workspace already has its quota of bots. */
  async function checkQuota(tx: Kysely<Database>, workspaceId: string) {
    const quota = ctx.config.quotas.botsPerWorkspace;
    if (quota !== null && (await botsRepo(tx).count(workspaceId)) >= quota) {
      throw errors.quotaExceeded(
        `This workspace already has ${quota} bots, its quota (PARLEY_QUOTA_BOTS_PER_WORKSPACE); delete one first`,
      );
    }
  }

  return {
    async create(actor, body) {
      authorize(actor, 'bot.create');
      const creator = creatorOf(actor);
      return db
        .transaction()
        .execute((tx) => insertBot(tx, actor.workspaceId, creator, body, auditWho(actor), NEW_BOT_WEBCHAT));
    },

    createInTx,
  };
}
