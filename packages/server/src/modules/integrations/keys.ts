import { authorize } from '../../access/policy.js';
import type { KeyHolder } from '../identity/service.js';
import { type IntegrationsContext, installedIntegration } from './context.js';
import type { IntegrationKeys } from './contract.js';

/** The key holder of an integration on a bot. */
const holder = (botId: string, integrationId: string): KeyHolder => ({ kind: 'iak', botId, integrationId });

/** The keys of an integration installed on a bot, issued and revoked through the identity service. */
export function integrationKeys(ctx: Pick<IntegrationsContext, 'db' | 'bots' | 'identity'>): IntegrationKeys {
  const { identity } = ctx;
  return {
    async listKeys(actor, botId, integrationId) {
      await installedIntegration(ctx, actor, botId, integrationId);
      authorize(actor, 'integrationKey.read');
      return identity.listKeys(holder(botId, integrationId));
    },

    async createKey(actor, botId, integrationId, body) {
      const integration = await installedIntegration(ctx, actor, botId, integrationId);
      authorize(actor, 'integrationKey.create');
      return identity.createKey(actor, holder(botId, integrationId), body, {
        action: 'CREATE_INTEGRATION_KEY',
        resourceName: integration.name,
        value: { botId },
      });
    },

    async revokeKey(actor, botId, integrationId, keyId) {
      const integration = await installedIntegration(ctx, actor, botId, integrationId);
      authorize(actor, 'integrationKey.revoke');
      await identity.revokeKey(actor, holder(botId, integrationId), keyId, {
        action: 'REVOKE_INTEGRATION_KEY',
        resourceName: integration.name,
        value: { botId },
      });
    },
  };
}
