import type { CreatedToken } from '@parley/protocol';
import type { Kysely } from 'kysely';
import { hashToken, newTokenValue } from '../../access/tokens.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import { newId } from '../../ids.js';
import { accountOf, type IdentityContext } from './context.js';
import type { IdentityTokens, NewToken } from './contract.js';
import { toTokenInfo } from './records.js';
import { identityRepo, type TokenRow } from './repo.js';

/** Issues a token inside `tx` and answers it with its value (shown this once); 400 for an expiry not ahead. */
export async function issueToken(
  ctx: Pick<IdentityContext, 'clock' | 'now'>,
  tx: Kysely<Database>,
  spec: NewToken,
): Promise<CreatedToken> {
  if (spec.expiresAt !== undefined && Date.parse(spec.expiresAt) <= ctx.clock().getTime()) {
    throw errors.invalidPayload('expiresAt must be in the future', [
      { field: 'expiresAt', message: 'must be in the future' },
    ]);
  }
  const value = spec.value ?? newTokenValue(spec.kind);
  const row: TokenRow = {
    id: newId('tok'),
    kind: spec.kind,
    hash: hashToken(value),
    account_id: spec.accountId ?? null,
    bot_id: spec.botId ?? null,
    integration_id: spec.integrationId ?? null,
    note: spec.note ?? '',
    created_at: ctx.now(),
    last_used_at: null,
    expires_at: spec.expiresAt === undefined ? null : new Date(spec.expiresAt).toISOString(),
    revoked_at: null,
  };
  await identityRepo(tx).insertToken(row);
  return { ...toTokenInfo(row), value };
}

/** Issuing tokens, and the personal access tokens (PATs) of the caller's account. */
export function identityTokens(ctx: IdentityContext): IdentityTokens {
  const { db, now } = ctx;
  return {
    createToken: (tx, spec) => issueToken(ctx, tx, spec),

    async listPats(principal) {
      const account = await accountOf(db, principal);
      return (await identityRepo(db).tokensOf({ account_id: account.id }, 'pat')).map(toTokenInfo);
    },

    async createPat(principal, body) {
      const account = await accountOf(db, principal);
      return issueToken(ctx, db, {
        kind: 'pat',
        accountId: account.id,
        note: body.note,
        expiresAt: body.expiresAt,
      });
    },

    async ensurePat(accountId, value, note) {
      const existing = await identityRepo(db).tokenByHash(hashToken(value));
      if (existing) {
        if (existing.account_id !== accountId || existing.revoked_at !== null) {
          throw new Error(
            'PARLEY_ADMIN_TOKEN is already in use by another or a revoked token; choose another value',
          );
        }
        return;
      }
      await issueToken(ctx, db, { kind: 'pat', accountId, note, value });
    },

    async deletePat(principal, id) {
      const account = await accountOf(db, principal);
      const repo = identityRepo(db);
      const row = await repo.tokenById(id);
      if (row?.kind !== 'pat' || row.account_id !== account.id || row.revoked_at !== null)
        throw errors.notFound('Personal access token', id);
      await repo.revokeTokens({ id }, now());
    },
  };
}
