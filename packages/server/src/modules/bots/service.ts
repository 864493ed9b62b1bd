import {
  type Bot,
  type BotSummary,
  type CreateBotBody,
  type CreatedToken,
  type TokenInfo,
  type UpdateBotBody,
  validateWebchatConfiguration,
  type WebchatConfiguration,
} from '@parley/protocol';
import type { Kysely } from 'kysely';
import { authorize, can } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { Config } from '../../config/config.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import { decodeCursor, type Page, toPage } from '../../http/pagination.js';
import type { TagFilter } from '../../http/tag-filter.js';
import { newBotId } from '../../ids.js';
import { type AuditService, type AuditWho, auditWho } from '../audit/service.js';
import type { IdentityService } from '../identity/service.js';
import { BOT_SORT_COLUMNS, type BotRow, botsRepo } from './repo.js';

function toBot(row: BotRow, tags: Record<string, string>): Bot {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deployedAt: row.deployed_at,
    name: row.name,
    description: row.description,
    dev: row.dev === 1,
    status: row.status as Bot['status'],
    tags,
    createdBy: row.created_by,
    replyMode: row.reply_mode as Bot['replyMode'],
    webhookUrl: row.webhook_url,
  };
}

function toSummary(row: BotRow, tags: Record<string, string>): BotSummary {
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    name: row.name,
    deployedAt: row.deployed_at,
    tags,
  };
}

/** Query of listBots after parsing. */
export interface ListBotsInput {
  nextToken?: string | undefined;
  pageSize?: number | undefined;
  dev?: boolean | undefined;
  name?: string | undefined;
  tags?: TagFilter | undefined;
  sortField?: keyof typeof BOT_SORT_COLUMNS | undefined;
  sortDirection?: 'asc' | 'desc' | undefined;
}

/** Bots, their access keys and their webchat (dashboard) configuration. */
export function botsService(deps: {
  db: Kysely<Database>;
  clock: () => Date;
  config: Config;
  audit: AuditService;
  identity: IdentityService;
  /**
   * Called after a change that takes chat credentials away from someone (the adminKey changed, a bot
   * access key was revoked, the bot deleted): live streams opened with them end.
   */
  onChatCredentialsChanged?: (botId: string) => void;
}) {
  const { db, clock, audit } = deps;
  const credentialsChanged = (botId: string) => deps.onChatCredentialsChanged?.(botId);
  const now = () => clock().toISOString();

  async function load(actor: Actor, id: string): Promise<BotRow> {
    const row = await botsRepo(db).byId(actor.workspaceId, id);
    if (!row) throw errors.notFound('Bot', id);
    return row;
  }

  async function withTags(row: BotRow): Promise<Bot> {
    const tags = (await botsRepo(db).tagsOf([row.id])).get(row.id) ?? {};
    return toBot(row, tags);
  }

  return {
    async list(actor: Actor, query: ListBotsInput): Promise<Page<BotSummary>> {
      authorize(actor, 'bot.read');
      const sortField = query.sortField ?? 'createdAt';
      const sortDirection = query.sortDirection ?? 'desc';
      const sort = `${sortField}:${sortDirection}`;
      const limit = query.pageSize ?? 20;
      const repo = botsRepo(db);
      const rows = await repo.list({
        workspaceId: actor.workspaceId,
        dev: query.dev,
        nameContains: query.name,
        tags: query.tags,
        sortField,
        sortDirection,
        limit,
        after: decodeCursor(query.nextToken, sort),
      });
      const page = toPage(rows, limit, sort, (r) => [r[BOT_SORT_COLUMNS[sortField]], r.id]);
      const tags = await repo.tagsOf(page.items.map((r) => r.id));
      return {
        items: page.items.map((r) => toSummary(r, tags.get(r.id) ?? {})),
        ...(page.nextToken ? { nextToken: page.nextToken } : {}),
      };
    },

    /** Creates a bot (the creator's workspace, knowledge replies by default). `system` is the bootstrap path. */
    async create(actor: Actor, body: CreateBotBody): Promise<Bot> {
      authorize(actor, 'bot.create');
      const creator =
        actor.kind === 'member' ? actor.accountId : actor.kind === 'bot' ? actor.botId : actor.integrationId;
      return this.createAs(actor.workspaceId, creator, body, auditWho(actor));
    },

    async createAs(
      workspaceId: string,
      createdBy: string,
      body: CreateBotBody,
      who: AuditWho = { accountId: createdBy },
    ): Promise<Bot> {
      return db.transaction().execute((tx) => this.createInTx(tx, workspaceId, createdBy, body, who));
    },

    /** Creates a bot inside the caller's transaction (quota, tags and audit included). */
    async createInTx(
      tx: Kysely<Database>,
      workspaceId: string,
      createdBy: string,
      body: CreateBotBody,
      who: AuditWho,
    ): Promise<Bot> {
      if (body.replyMode === 'webhook' && !body.webhookUrl) {
        throw errors.invalidPayload('A bot in webhook mode needs a webhookUrl', [
          { field: 'webhookUrl', message: 'required when replyMode is webhook' },
        ]);
      }
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
      const quota = deps.config.quotas.botsPerWorkspace;
      if (quota !== null && (await botsRepo(tx).count(workspaceId)) >= quota) {
        throw errors.quotaExceeded(
          `This workspace already has ${quota} bots, its quota (PARLEY_QUOTA_BOTS_PER_WORKSPACE); delete one first`,
        );
      }
      await botsRepo(tx).insert(row, body.tags ?? {});
      await audit.record(tx, workspaceId, who, {
        action: 'CREATE_BOT',
        resourceId: row.id,
        resourceName: row.name,
      });
      return toBot(row, body.tags ?? {});
    },

    /** A bot by id in any workspace, for resolving `x-bot-id` (callers check access themselves). */
    async findAnyWorkspace(id: string): Promise<{ id: string; workspaceId: string } | undefined> {
      const row = await botsRepo(db).byIdAnyWorkspace(id);
      return row ? { id: row.id, workspaceId: row.workspace_id } : undefined;
    },

    /**
     * What the Chat API needs of a bot, in any workspace (no permission check: the Chat API authenticates
     * its callers itself): status, reply mode, webhook URL and the dashboard webchat configuration.
     */
    async chatFacts(id: string): Promise<
      | {
          id: string;
          workspaceId: string;
          name: string;
          status: Bot['status'];
          replyMode: Bot['replyMode'];
          webhookUrl: string | null;
          webchat: WebchatConfiguration;
        }
      | undefined
    > {
      const row = await botsRepo(db).byIdAnyWorkspace(id);
      if (!row) return undefined;
      return {
        id: row.id,
        workspaceId: row.workspace_id,
        name: row.name,
        status: row.status as Bot['status'],
        replyMode: row.reply_mode as Bot['replyMode'],
        webhookUrl: row.webhook_url,
        webchat: JSON.parse(row.webchat_config) as WebchatConfiguration,
      };
    },

    /** True when the bot exists in the workspace (no permission check: used to attribute request logs). */
    async exists(workspaceId: string, id: string): Promise<boolean> {
      return (await botsRepo(db).byId(workspaceId, id)) !== undefined;
    },

    async get(actor: Actor, id: string): Promise<Bot> {
      authorize(actor, 'bot.read');
      return withTags(await load(actor, id));
    },

    async update(actor: Actor, id: string, body: UpdateBotBody): Promise<Bot> {
      const row = await load(actor, id);
      authorize(actor, 'bot.update', { createdBy: row.created_by });
      const replyMode = body.replyMode ?? row.reply_mode;
      const webhookUrl = body.webhookUrl !== undefined ? body.webhookUrl : row.webhook_url;
      if (replyMode === 'webhook' && !webhookUrl) {
        throw errors.invalidPayload('A bot in webhook mode needs a webhookUrl', [
          { field: 'webhookUrl', message: 'required when replyMode is webhook' },
        ]);
      }
      const at = now();
      const values: Partial<BotRow> = {
        updated_at: at,
        deployed_at: at,
        reply_mode: replyMode,
        webhook_url: webhookUrl,
      };
      if (body.name !== undefined) values.name = body.name;
      if (body.description !== undefined) values.description = body.description;
      if (body.status !== undefined) values.status = body.status;
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
      return this.get(actor, id);
    },

    async delete(actor: Actor, id: string): Promise<void> {
      const row = await load(actor, id);
      authorize(actor, 'bot.delete', { createdBy: row.created_by });
      await db.transaction().execute(async (tx) => {
        await botsRepo(tx).delete(id, now());
        await audit.record(tx, actor.workspaceId, auditWho(actor), {
          action: 'DELETE_BOT',
          resourceId: id,
          resourceName: row.name,
        });
      });
      credentialsChanged(id);
    },

    async listKeys(actor: Actor, id: string): Promise<TokenInfo[]> {
      await load(actor, id);
      authorize(actor, 'botKey.read');
      return deps.identity.listTokens({ bot_id: id }, 'bak');
    },

    async createKey(
      actor: Actor,
      id: string,
      body: { note?: string | undefined; expiresAt?: string | undefined },
    ): Promise<CreatedToken> {
      const row = await load(actor, id);
      authorize(actor, 'botKey.create');
      return db.transaction().execute(async (tx) => {
        const key = await deps.identity.createToken(tx, {
          kind: 'bak',
          botId: id,
          note: body.note,
          expiresAt: body.expiresAt,
        });
        await audit.record(tx, actor.workspaceId, auditWho(actor), {
          action: 'CREATE_BOT_ACCESS_KEY',
          resourceId: key.id,
          resourceName: row.name,
        });
        return key;
      });
    },

    async revokeKey(actor: Actor, id: string, keyId: string): Promise<void> {
      const row = await load(actor, id);
      authorize(actor, 'botKey.revoke');
      const key = await deps.identity.tokenById(keyId);
      if (key?.kind !== 'bak' || key.bot_id !== id || key.revoked_at !== null)
        throw errors.notFound('Bot access key', keyId);
      await db.transaction().execute(async (tx) => {
        await deps.identity.revokeToken(tx, keyId);
        await audit.record(tx, actor.workspaceId, auditWho(actor), {
          action: 'REVOKE_BOT_ACCESS_KEY',
          resourceId: keyId,
          resourceName: row.name,
        });
      });
      credentialsChanged(id);
    },

    /**
     * The dashboard webchat configuration. Its `adminKey` opens every conversation of the bot, so it is a
     * chat secret: only callers who may reveal chat secrets (developer and above) receive it.
     */
    async getWebchat(actor: Actor, id: string): Promise<WebchatConfiguration> {
      authorize(actor, 'webchat.read');
      const row = await load(actor, id);
      const configuration = JSON.parse(row.webchat_config) as WebchatConfiguration;
      if (can(actor, 'chatSecret.reveal')) return configuration;
      const { adminKey: _secret, ...withoutSecret } = configuration;
      return withoutSecret;
    },

    /** Replaces the dashboard webchat configuration after validating every field against the spec's table. */
    async putWebchat(actor: Actor, id: string, configuration: unknown): Promise<WebchatConfiguration> {
      const row = await load(actor, id);
      authorize(actor, 'webchat.update');
      const issues = validateWebchatConfiguration(configuration);
      if (issues.length > 0) {
        throw errors.invalidPayload(
          `Invalid webchat configuration: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}`,
          issues,
        );
      }
      const value = configuration as WebchatConfiguration;
      await db.transaction().execute(async (tx) => {
        await botsRepo(tx).update(id, { webchat_config: JSON.stringify(value), updated_at: now() });
        await audit.record(tx, actor.workspaceId, auditWho(actor), {
          action: 'UPDATE_BOT_WEBCHAT',
          resourceId: id,
          resourceName: row.name,
        });
      });
      const before = (JSON.parse(row.webchat_config) as WebchatConfiguration).adminKey;
      if (before !== undefined && before !== value.adminKey) credentialsChanged(id);
      return value;
    },
  };
}
/** The bots service. */
export type BotsService = ReturnType<typeof botsService>;
