import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Database } from '../../db/schema.js';
import { type ChatContext, checkWorkspaceBot } from './context.js';
import type { ChatSecrets, ChatService } from './contract.js';
import { newUserKeySecret, newWebhookSecret } from './keys.js';
import { chatRepo, type SecretsRow } from './repo.js';

/** A bot's chat secrets, created on first use (`now` stamps a new row). */
export async function secretsOf(db: Kysely<Database>, now: () => string, botId: string): Promise<SecretsRow> {
  const repo = chatRepo(db);
  const existing = await repo.secrets(botId);
  if (existing) return existing;
  await repo.insertSecretsIfMissing({
    bot_id: botId,
    user_key_secret: newUserKeySecret(),
    webhook_secret: newWebhookSecret(),
    created_at: now(),
    rotated_at: null,
  });
  const row = await repo.secrets(botId);
  if (!row) throw new Error('chat secrets were not stored');
  return row;
}

const toSecrets = (row: SecretsRow): ChatSecrets => ({
  userKeySecret: row.user_key_secret,
  webhookSecret: row.webhook_secret,
});

/** The bot's chat secrets: revealed and rotated through the Admin API, read by the webhook job. */
export function chatSecrets(
  ctx: Pick<ChatContext, 'db' | 'now' | 'bots' | 'bus'>,
): Pick<ChatService, 'getSecrets' | 'rotateSecrets' | 'webhookSecret'> {
  const { db, now } = ctx;

  return {
    async getSecrets(actor, botId) {
      authorize(actor, 'chatSecret.reveal');
      await checkWorkspaceBot(ctx.bots, actor, botId);
      return toSecrets(await secretsOf(db, now, botId));
    },

    async rotateSecrets(actor, botId) {
      authorize(actor, 'chatSecret.rotate');
      await checkWorkspaceBot(ctx.bots, actor, botId);
      const at = now();
      const row: SecretsRow = {
        bot_id: botId,
        user_key_secret: newUserKeySecret(),
        webhook_secret: newWebhookSecret(),
        created_at: at,
        rotated_at: at,
      };
      await chatRepo(db).replaceSecrets(row);
      // Streams opened with a user key signed by the old secret end (here and in other processes).
      ctx.bus.revoke(botId);
      return toSecrets(row);
    },

    webhookSecret: async (botId) => (await secretsOf(db, now, botId)).webhook_secret,
  };
}
