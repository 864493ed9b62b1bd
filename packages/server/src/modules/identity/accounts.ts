import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import { newId } from '../../ids.js';
import { accountOf, type IdentityContext } from './context.js';
import type { IdentityAccounts } from './contract.js';
import { toAccount } from './records.js';
import { type AccountRow, identityRepo } from './repo.js';
import { issueToken } from './tokens.js';

/**
 * Stores an account inside `tx` (its e-mail lowercased, its name the e-mail's local part unless given); 409 when
 * the e-mail is taken. `unclaimedVia`: the workspace whose invitation makes it (unclaimed until signed into).
 */
export async function insertAccount(
  ctx: Pick<IdentityContext, 'now'>,
  tx: Kysely<Database>,
  email: string,
  displayName?: string,
  unclaimedVia?: string,
): Promise<AccountRow> {
  const at = ctx.now();
  const row: AccountRow = {
    id: newId('user'),
    email: email.toLowerCase(),
    display_name: displayName ?? email.split('@')[0] ?? email,
    created_at: at,
    updated_at: at,
    unclaimed_via: unclaimedVia ?? null,
  };
  try {
    await identityRepo(tx).insertAccount(row);
  } catch (error) {
    if (isUniqueViolation(error))
      throw errors.alreadyExists(`An account with e-mail ${row.email} already exists`);
    throw error;
  }
  return row;
}

/** Accounts: created by the operator, read and renamed by their holder. */
export function identityAccounts(ctx: IdentityContext): IdentityAccounts {
  const { db, now } = ctx;
  return {
    createAccount: (email, displayName, tokenValue) =>
      db.transaction().execute(async (tx) => {
        const account = await insertAccount(ctx, tx, email, displayName);
        const token = await issueToken(ctx, tx, {
          kind: 'pat',
          accountId: account.id,
          note: 'first token',
          ...(tokenValue ? { value: tokenValue } : {}),
        });
        return { account: toAccount(account), token };
      }),

    async accountByEmail(email) {
      const row = await identityRepo(db).accountByEmail(email);
      return row ? toAccount(row) : undefined;
    },

    getAccount: async (principal) => toAccount(await accountOf(db, principal)),

    async updateAccount(principal, body) {
      const account = await accountOf(db, principal);
      await identityRepo(db).updateAccount(account.id, { display_name: body.displayName, updated_at: now() });
      return toAccount(await accountOf(db, principal));
    },
  };
}
