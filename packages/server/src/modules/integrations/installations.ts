import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import { isUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { auditWho } from '../audit/service.js';
import { type IntegrationsContext, installedIntegration, loadIntegration } from './context.js';
import type { InstallationView, IntegrationInstallations } from './contract.js';
import { type IntegrationRow, integrationsRepo } from './repo.js';

const view = (integration: IntegrationRow, botId: string, installedAt: string): InstallationView => ({
  integrationId: integration.id,
  botId,
  name: integration.name,
  installedAt,
});

/** Integrations installed on the bots of the actor's workspace: listed, installed (idempotently), uninstalled. */
export function integrationInstallations(ctx: IntegrationsContext): IntegrationInstallations {
  const { db, now, audit } = ctx;

  /** Records an installation change of the actor's workspace in `tx`. */
  const record = (
    tx: Kysely<Database>,
    actor: Actor,
    action: 'INSTALL_INTEGRATION' | 'UNINSTALL_INTEGRATION',
    integration: IntegrationRow,
    botId: string,
  ) =>
    audit.record(tx, actor.workspaceId, auditWho(actor), {
      action,
      resourceId: integration.id,
      resourceName: integration.name,
      value: { botId },
    });

  return {
    async listInstalled(actor, botId) {
      await ctx.bots.get(actor, botId);
      authorize(actor, 'integration.read');
      return (await integrationsRepo(db).installationsOf(botId)).map((r) => ({
        integrationId: r.integration_id,
        botId: r.bot_id,
        name: r.name,
        installedAt: r.installed_at,
      }));
    },

    async install(actor, botId, integrationId) {
      await ctx.bots.get(actor, botId);
      const integration = await loadIntegration(db, actor, integrationId);
      authorize(actor, 'integration.install');
      // PUT is idempotent: installing again answers the installation that exists.
      const existing = await integrationsRepo(db).installation(botId, integrationId);
      if (existing) return view(integration, botId, existing.installed_at);
      const at = now();
      try {
        await db.transaction().execute(async (tx) => {
          await integrationsRepo(tx).install(botId, integrationId, at);
          await record(tx, actor, 'INSTALL_INTEGRATION', integration, botId);
        });
      } catch (error) {
        // Installed by a concurrent request in between: same answer as above.
        const raced = isUniqueViolation(error)
          ? await integrationsRepo(db).installation(botId, integrationId)
          : undefined;
        if (!raced) throw error;
        return view(integration, botId, raced.installed_at);
      }
      return view(integration, botId, at);
    },

    async uninstall(actor, botId, integrationId) {
      const integration = await installedIntegration(ctx, actor, botId, integrationId);
      authorize(actor, 'integration.install');
      await db.transaction().execute(async (tx) => {
        await ctx.identity.revokeIntegrationKeys(tx, botId, integrationId);
        await integrationsRepo(tx).uninstall(botId, integrationId);
        await record(tx, actor, 'UNINSTALL_INTEGRATION', integration, botId);
      });
    },
  };
}
