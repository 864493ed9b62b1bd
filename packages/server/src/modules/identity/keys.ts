import { errors } from '../../errors/errors.js';
import { auditWho } from '../audit/service.js';
import type { IdentityContext } from './context.js';
import type { IdentityKeys, KeyHolder } from './contract.js';
import { toTokenInfo } from './records.js';
import { identityRepo, type TokenOwner, type TokenRow } from './repo.js';
import { issueToken } from './tokens.js';

/** What a key of each kind is called in a 404. */
const KEY_NAMES = { bak: 'Bot access key', iak: 'Integration key' } as const;

/** The token columns that name a holder. */
function ownerOf(holder: KeyHolder): TokenOwner {
  return holder.kind === 'bak'
    ? { bot_id: holder.botId }
    : { bot_id: holder.botId, integration_id: holder.integrationId };
}

/** True when the token is a live key of the holder. */
function holds(holder: KeyHolder, row: TokenRow | undefined): row is TokenRow {
  return (
    row?.kind === holder.kind &&
    row.bot_id === holder.botId &&
    (holder.kind === 'bak' || row.integration_id === holder.integrationId) &&
    row.revoked_at === null
  );
}

/** The keys of bots and of integrations on bots: listed, issued and revoked, each change audited. */
export function identityKeys(ctx: IdentityContext): IdentityKeys {
  const { db, now, audit } = ctx;
  return {
    async listKeys(holder) {
      return (await identityRepo(db).tokensOf(ownerOf(holder), holder.kind)).map(toTokenInfo);
    },

    createKey(actor, holder, body, entry) {
      return db.transaction().execute(async (tx) => {
        const key = await issueToken(ctx, tx, {
          kind: holder.kind,
          botId: holder.botId,
          ...(holder.kind === 'iak' ? { integrationId: holder.integrationId } : {}),
          note: body.note,
          expiresAt: body.expiresAt,
        });
        await audit.record(tx, actor.workspaceId, auditWho(actor), { ...entry, resourceId: key.id });
        return key;
      });
    },

    async revokeKey(actor, holder, keyId, entry) {
      if (!holds(holder, await identityRepo(db).tokenById(keyId)))
        throw errors.notFound(KEY_NAMES[holder.kind], keyId);
      await db.transaction().execute(async (tx) => {
        await identityRepo(tx).revokeTokens({ id: keyId }, now());
        await audit.record(tx, actor.workspaceId, auditWho(actor), { ...entry, resourceId: keyId });
      });
    },

    async revokeIntegrationKeys(tx, botId, integrationId) {
      await identityRepo(tx).revokeTokens({ bot_id: botId, integration_id: integrationId }, now());
    },
  };
}
