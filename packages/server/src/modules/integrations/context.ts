import type { Integration } from '@parley/protocol';
import type { Kysely } from 'kysely';
import type { Actor } from '../../access/principal.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import type { AuditService } from '../audit/service.js';
import type { BotsService } from '../bots/service.js';
import type { IdentityService } from '../identity/service.js';
import { type IntegrationRow, integrationsRepo } from './repo.js';

/** What the integrations service is built from. */
export interface IntegrationsDeps {
  db: Kysely<Database>;
  clock: () => Date;
  audit: AuditService;
  identity: IdentityService;
  bots: Pick<BotsService, 'get'>;
}

/** What the use cases of the integrations module are built from. */
export interface IntegrationsContext extends IntegrationsDeps {
  /** The injected clock's time as an ISO string. */
  now: () => string;
}

/** Shapes an integration row for the wire. */
export function toIntegration(row: IntegrationRow): Integration {
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

/** An integration of the actor's workspace; 404 otherwise. */
export async function loadIntegration(
  db: Kysely<Database>,
  actor: Actor,
  id: string,
): Promise<IntegrationRow> {
  const row = await integrationsRepo(db).byId(actor.workspaceId, id);
  if (!row) throw errors.notFound('Integration', id);
  return row;
}

/** The integration, when it is installed on the actor's bot; 404 for an unknown bot, integration or installation. */
export async function installedIntegration(
  ctx: Pick<IntegrationsContext, 'db' | 'bots'>,
  actor: Actor,
  botId: string,
  integrationId: string,
): Promise<IntegrationRow> {
  await ctx.bots.get(actor, botId);
  const integration = await loadIntegration(ctx.db, actor, integrationId);
  const inst = await integrationsRepo(ctx.db).installation(botId, integrationId);
  if (!inst) throw errors.notFound('Installation of integration on bot', `${integrationId}`);
  return integration;
}
