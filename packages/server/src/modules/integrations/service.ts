import type { CreatedToken, Integration, TokenInfo } from '@parley/protocol';
import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import { isUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import { decodeCursor, type Page, toPage } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { type AuditService, auditWho } from '../audit/service.js';
import type { BotsService } from '../bots/service.js';
import type { IdentityService } from '../identity/service.js';
import { type IntegrationRow, integrationsRepo } from './repo.js';

function toIntegration(row: IntegrationRow): Integration {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdBy: row.created_by,
  };
}

/** An integration installed on a bot. */
export interface InstallationView {
  integrationId: string;
  botId: string;
  name: string;
  installedAt: string;
}

/** Integrations of a workspace, their installation on bots and their keys. */
export function integrationsService(deps: {
  db: Kysely<Database>;
  clock: () => Date;
  audit: AuditService;
  identity: IdentityService;
  bots: BotsService;
}) {
  const { db, clock, audit } = deps;
  const now = () => clock().toISOString();

  async function load(actor: Actor, id: string): Promise<IntegrationRow> {
    const row = await integrationsRepo(db).byId(actor.workspaceId, id);
    if (!row) throw errors.notFound('Integration', id);
    return row;
  }

  async function installed(actor: Actor, botId: string, integrationId: string) {
    await deps.bots.get(actor, botId);
    const integration = await load(actor, integrationId);
    const inst = await integrationsRepo(db).installation(botId, integrationId);
    if (!inst) throw errors.notFound('Installation of integration on bot', `${integrationId}`);
    return integration;
  }

  return {
    async list(
      actor: Actor,
      query: { nextToken?: string | undefined; pageSize?: number | undefined },
    ): Promise<Page<Integration>> {
      authorize(actor, 'integration.read');
      const limit = query.pageSize ?? 20;
      const rows = await integrationsRepo(db).list(
        actor.workspaceId,
        limit,
        decodeCursor(query.nextToken, 'id:asc'),
      );
      const page = toPage(rows, limit, 'id:asc', (r) => [r.id, r.id]);
      return {
        items: page.items.map(toIntegration),
        ...(page.nextToken ? { nextToken: page.nextToken } : {}),
      };
    },

    async create(
      actor: Actor,
      body: { name: string; description?: string | undefined },
    ): Promise<Integration> {
      authorize(actor, 'integration.create');
      const at = now();
      const row: IntegrationRow = {
        id: newId('int'),
        workspace_id: actor.workspaceId,
        name: body.name,
        description: body.description ?? '',
        created_by: actor.kind === 'member' ? actor.accountId : '',
        created_at: at,
        updated_at: at,
      };
      try {
        await db.transaction().execute(async (tx) => {
          await integrationsRepo(tx).insert(row);
          await audit.record(tx, actor.workspaceId, auditWho(actor), {
            action: 'CREATE_INTEGRATION',
            resourceId: row.id,
            resourceName: row.name,
          });
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw errors.alreadyExists(`An integration named "${body.name}" already exists in this workspace`);
        throw error;
      }
      return toIntegration(row);
    },

    async get(actor: Actor, id: string): Promise<Integration> {
      authorize(actor, 'integration.read');
      return toIntegration(await load(actor, id));
    },

    async delete(actor: Actor, id: string): Promise<void> {
      const row = await load(actor, id);
      authorize(actor, 'integration.delete', { createdBy: row.created_by });
      await db.transaction().execute(async (tx) => {
        await integrationsRepo(tx).delete(id);
        await audit.record(tx, actor.workspaceId, auditWho(actor), {
          action: 'DELETE_INTEGRATION',
          resourceId: id,
          resourceName: row.name,
        });
      });
    },

    async listInstalled(actor: Actor, botId: string): Promise<InstallationView[]> {
      await deps.bots.get(actor, botId);
      authorize(actor, 'integration.read');
      return (await integrationsRepo(db).installationsOf(botId)).map((r) => ({
        integrationId: r.integration_id,
        botId: r.bot_id,
        name: r.name,
        installedAt: r.installed_at,
      }));
    },

    async install(actor: Actor, botId: string, integrationId: string): Promise<InstallationView> {
      await deps.bots.get(actor, botId);
      const integration = await load(actor, integrationId);
      authorize(actor, 'integration.install');
      // PUT is idempotent: installing again answers the installation that exists.
      const existing = await integrationsRepo(db).installation(botId, integrationId);
      if (existing)
        return { integrationId, botId, name: integration.name, installedAt: existing.installed_at };
      const at = now();
      try {
        await db.transaction().execute(async (tx) => {
          await integrationsRepo(tx).install(botId, integrationId, at);
          await audit.record(tx, actor.workspaceId, auditWho(actor), {
            action: 'INSTALL_INTEGRATION',
            resourceId: integrationId,
            resourceName: integration.name,
            value: { botId },
          });
        });
      } catch (error) {
        // Installed by a concurrent request in between: same answer as above.
        const raced = isUniqueViolation(error)
          ? await integrationsRepo(db).installation(botId, integrationId)
          : undefined;
        if (!raced) throw error;
        return { integrationId, botId, name: integration.name, installedAt: raced.installed_at };
      }
      return { integrationId, botId, name: integration.name, installedAt: at };
    },

    /** Uninstalls an integration from a bot and revokes every key it had there. */
    async uninstall(actor: Actor, botId: string, integrationId: string): Promise<void> {
      const integration = await installed(actor, botId, integrationId);
      authorize(actor, 'integration.install');
      await db.transaction().execute(async (tx) => {
        await deps.identity.revokeIntegrationKeys(tx, botId, integrationId);
        await integrationsRepo(tx).uninstall(botId, integrationId);
        await audit.record(tx, actor.workspaceId, auditWho(actor), {
          action: 'UNINSTALL_INTEGRATION',
          resourceId: integrationId,
          resourceName: integration.name,
          value: { botId },
        });
      });
    },

    async listKeys(actor: Actor, botId: string, integrationId: string): Promise<TokenInfo[]> {
      await installed(actor, botId, integrationId);
      authorize(actor, 'integrationKey.read');
      return deps.identity.listTokens({ bot_id: botId, integration_id: integrationId }, 'iak');
    },

    async createKey(
      actor: Actor,
      botId: string,
      integrationId: string,
      body: { note?: string | undefined; expiresAt?: string | undefined },
    ): Promise<CreatedToken> {
      const integration = await installed(actor, botId, integrationId);
      authorize(actor, 'integrationKey.create');
      return db.transaction().execute(async (tx) => {
        const key = await deps.identity.createToken(tx, {
          kind: 'iak',
          botId,
          integrationId,
          note: body.note,
          expiresAt: body.expiresAt,
        });
        await audit.record(tx, actor.workspaceId, auditWho(actor), {
          action: 'CREATE_INTEGRATION_KEY',
          resourceId: key.id,
          resourceName: integration.name,
          value: { botId },
        });
        return key;
      });
    },

    async revokeKey(actor: Actor, botId: string, integrationId: string, keyId: string): Promise<void> {
      const integration = await installed(actor, botId, integrationId);
      authorize(actor, 'integrationKey.revoke');
      const key = await deps.identity.tokenById(keyId);
      if (
        key?.kind !== 'iak' ||
        key.bot_id !== botId ||
        key.integration_id !== integrationId ||
        key.revoked_at !== null
      ) {
        throw errors.notFound('Integration key', keyId);
      }
      await db.transaction().execute(async (tx) => {
        await deps.identity.revokeToken(tx, keyId);
        await audit.record(tx, actor.workspaceId, auditWho(actor), {
          action: 'REVOKE_INTEGRATION_KEY',
          resourceId: keyId,
          resourceName: integration.name,
          value: { botId },
        });
      });
    },
  };
}
/** The integrations service. */
export type IntegrationsService = ReturnType<typeof integrationsService>;
