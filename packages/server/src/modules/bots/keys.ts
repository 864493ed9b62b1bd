import { authorize } from '../../access/policy.js';
import { type BotsContext, loadBot } from './context.js';
import type { BotKeys } from './contract.js';

/** A bot's access keys: issued, listed and revoked through the identity service, each change audited. */
export function botKeys(ctx: Pick<BotsContext, 'db' | 'identity' | 'credentialsChanged'>): BotKeys {
  const { db, identity } = ctx;
  return {
    async listKeys(actor, id) {
      await loadBot(db, actor, id);
      authorize(actor, 'botKey.read');
      return identity.listKeys({ kind: 'bak', botId: id });
    },

    async createKey(actor, id, body) {
      const row = await loadBot(db, actor, id);
      authorize(actor, 'botKey.create');
      return identity.createKey(actor, { kind: 'bak', botId: id }, body, {
        action: 'CREATE_BOT_ACCESS_KEY',
        resourceName: row.name,
      });
    },

    async revokeKey(actor, id, keyId) {
      const row = await loadBot(db, actor, id);
      authorize(actor, 'botKey.revoke');
      await identity.revokeKey(actor, { kind: 'bak', botId: id }, keyId, {
        action: 'REVOKE_BOT_ACCESS_KEY',
        resourceName: row.name,
      });
      ctx.credentialsChanged(id);
    },
  };
}
