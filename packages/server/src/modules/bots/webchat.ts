import { validateWebchatConfiguration, type WebchatConfiguration } from '@parley/protocol';
import { authorize, can } from '../../access/policy.js';
import { errors } from '../../errors/errors.js';
import { auditWho } from '../audit/service.js';
import { type BotsContext, loadBot } from './context.js';
import type { BotWebchat } from './contract.js';
import { botsRepo } from './repo.js';

/** A valid webchat configuration, or 400 naming every bad field. */
function validConfiguration(configuration: unknown): WebchatConfiguration {
  const issues = validateWebchatConfiguration(configuration);
  if (issues.length > 0) {
    throw errors.invalidPayload(
      `Invalid webchat configuration: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}`,
      issues,
    );
  }
  return configuration as WebchatConfiguration;
}

/** A bot's dashboard webchat configuration: read (its adminKey only by those who may see secrets), replaced. */
export function botWebchat(ctx: BotsContext): BotWebchat {
  const { db, now, audit } = ctx;
  return {
    async getWebchat(actor, id) {
      authorize(actor, 'webchat.read');
      const row = await loadBot(db, actor, id);
      const configuration = JSON.parse(row.webchat_config) as WebchatConfiguration;
      if (can(actor, 'chatSecret.reveal')) return configuration;
      const { adminKey: _secret, ...withoutSecret } = configuration;
      return withoutSecret;
    },

    async putWebchat(actor, id, configuration) {
      const row = await loadBot(db, actor, id);
      authorize(actor, 'webchat.update');
      const value = validConfiguration(configuration);
      await db.transaction().execute(async (tx) => {
        await botsRepo(tx).update(id, { webchat_config: JSON.stringify(value), updated_at: now() });
        await audit.record(tx, actor.workspaceId, auditWho(actor), {
          action: 'UPDATE_BOT_WEBCHAT',
          resourceId: id,
          resourceName: row.name,
        });
      });
      // A changed adminKey ends the streams opened with the old one.
      const before = (JSON.parse(row.webchat_config) as WebchatConfiguration).adminKey;
      if (before !== undefined && before !== value.adminKey) ctx.credentialsChanged(id);
      return value;
    },
  };
}
