import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { KeyHolder } from '../identity/service.js';
import { type BotsContext, loadBot } from './context.js';
import type { BotKeys } from './contract.js';

/** A bot's access keys: issued, listed and revoked through the identity service, each change audited. */
export function botKeys(ctx: Pick<BotsContext, 'db' | 'identity' | 'credentialsChanged'>): BotKeys {
  const { db, identity } = ctx;

  /** The holder of a bot's keys and the bot's name, once the actor may `permission` them. */
  async function holderFor(
    actor: Actor,
    id: string,
    permission: 'botKey.read' | 'botKey.create' | 'botKey.revoke',
  ): Promise<{ holder: KeyHolder; name: string }> {
    const row = await loadBot(db, actor, id);
    authorize(actor, permission);
    return { holder: { kind: 'bak', botId: id }, name: row.name };
  }

  return {
    async listKeys(actor, id) {
      return identity.listKeys((await holderFor(actor, id, 'botKey.read')).holder);
    },

    async createKey(actor, id, body) {
      const { holder, name } = await holderFor(actor, id, 'botKey.create');
      return identity.createKey(actor, holder, body, { action: 'CREATE_BOT_ACCESS_KEY', resourceName: name });
    },

    async revokeKey(actor, id, keyId) {
      const { holder, name } = await holderFor(actor, id, 'botKey.revoke');
      await identity.revokeKey(actor, holder, keyId, { action: 'REVOKE_BOT_ACCESS_KEY', resourceName: name });
      // Streams opened with the key end.
      ctx.credentialsChanged(id);
    },
  };
}
