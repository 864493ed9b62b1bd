import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { KeyAudit, KeyHolder } from '../identity/service.js';
import { type IntegrationsContext, installedIntegration } from './context.js';
import type { IntegrationKeys } from './contract.js';

/** The keys of an integration installed on a bot, issued and revoked through the identity service. */
export function integrationKeys(ctx: Pick<IntegrationsContext, 'db' | 'bots' | 'identity'>): IntegrationKeys {
  const { identity } = ctx;

  /** The holder of the keys of an integration on a bot, once the actor may `permission` them. */
  async function holderFor(
    actor: Actor,
    botId: string,
    integrationId: string,
    permission: 'integrationKey.read' | 'integrationKey.create' | 'integrationKey.revoke',
  ): Promise<{ holder: KeyHolder; name: string }> {
    const integration = await installedIntegration(ctx, actor, botId, integrationId);
    authorize(actor, permission);
    return { holder: { kind: 'iak', botId, integrationId }, name: integration.name };
  }

  /** The audit record of a key change of an integration on a bot. */
  const audit = (action: KeyAudit['action'], name: string, botId: string): KeyAudit => ({
    action,
    resourceName: name,
    value: { botId },
  });

  return {
    async listKeys(actor, botId, integrationId) {
      const { holder } = await holderFor(actor, botId, integrationId, 'integrationKey.read');
      return identity.listKeys(holder);
    },

    async createKey(actor, botId, integrationId, body) {
      const { holder, name } = await holderFor(actor, botId, integrationId, 'integrationKey.create');
      return identity.createKey(actor, holder, body, audit('CREATE_INTEGRATION_KEY', name, botId));
    },

    async revokeKey(actor, botId, integrationId, keyId) {
      const { holder, name } = await holderFor(actor, botId, integrationId, 'integrationKey.revoke');
      await identity.revokeKey(actor, holder, keyId, audit('REVOKE_INTEGRATION_KEY', name, botId));
    },
  };
}
