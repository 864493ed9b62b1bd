import type { Kysely } from 'kysely';
import { hashPassword } from '../../access/passwords.js';
import { hashToken, newInvitationCode } from '../../access/tokens.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import { newId } from '../../ids.js';
import { insertAccount } from './accounts.js';
import type { IdentityContext } from './context.js';
import { type IdentityInvitations, INVITATION_TTL_MS } from './contract.js';
import { checkPolicy } from './passwords.js';
import { toAccount } from './records.js';
import { type IdentityRepo, type InvitationView, identityRepo } from './repo.js';
import { sessionRepo } from './session-repo.js';
import { issueToken } from './tokens.js';

/** Issues the one-time invitation code of a pending member inside `tx`, `at` an ISO time (stored hashed, valid 7 days). */
export async function issueInvitation(
  ctx: Pick<IdentityContext, 'clock'>,
  tx: Kysely<Database>,
  memberId: string,
  at: string,
): Promise<{ code: string; expiresAt: string }> {
  const code = newInvitationCode();
  const expiresAt = new Date(ctx.clock().getTime() + INVITATION_TTL_MS).toISOString();
  await identityRepo(tx).insertInvitation({
    id: newId('inv'),
    member_id: memberId,
    code_hash: hashToken(code),
    expires_at: expiresAt,
    created_at: at,
  });
  return { code, expiresAt };
}

/** The invitation of a code, while it may still be redeemed by the caller (signed in, or nobody). */
async function redeemable(
  repo: IdentityRepo,
  code: string,
  nowMs: number,
  caller: { email: string } | undefined,
): Promise<InvitationView> {
  const inv = await repo.invitationByCodeHash(hashToken(code));
  if (!inv) throw errors.notFound('Invitation', 'code');
  if (inv.used_at !== null || inv.account_id !== null)
    throw errors.gone('This invitation has already been used');
  if (Date.parse(inv.expires_at) <= nowMs)
    throw errors.gone('This invitation has expired; ask an administrator to invite you again');
  if (caller && caller.email.toLowerCase() !== inv.email.toLowerCase()) {
    throw errors.forbidden(
      `This invitation is for ${inv.email}, and you are signed in as ${caller.email}: only ${inv.email} can accept it`,
    );
  }
  return inv;
}

/** Redeeming invitation codes: by the account of the invited e-mail, created on the way when there is none. */
export function identityInvitations(ctx: IdentityContext): IdentityInvitations {
  const { db, clock, now, audit } = ctx;
  return {
    async acceptInvitation(body, caller) {
      if (caller && caller.kind !== 'account')
        throw errors.forbidden('Only a person (a personal access token) can accept an invitation');
      if (body.password !== undefined) checkPolicy(body.password, 'password');
      // Hashed before the transaction, which should not wait on scrypt.
      const passwordHash = body.password === undefined ? undefined : await hashPassword(body.password);
      return db.transaction().execute(async (tx) => {
        const repo = identityRepo(tx);
        const inv = await redeemable(repo, body.code, clock().getTime(), caller);
        const holder = await repo.accountByEmail(inv.email);
        if (holder && !caller) {
          throw errors.alreadyExists(
            `An account with e-mail ${inv.email} already exists: accept the invitation signed in as it (its token in the Authorization header)`,
          );
        }
        if (holder && passwordHash) {
          throw errors.invalidPayload(
            'An existing account keeps its password: leave out `password` (change it with PUT /v1/admin/account/password)',
            [{ field: 'password', message: 'only for an invitation that creates the account' }],
          );
        }
        const used = await repo.useInvitation(inv.id, now());
        if (Number(used.numUpdatedRows) !== 1) throw errors.gone('This invitation has already been used');
        const account = holder ?? (await insertAccount(ctx, tx, inv.email, body.displayName));
        await repo.linkMember(inv.member_id, account.id, now());
        if (!holder && passwordHash) await sessionRepo(tx).setPassword(account.id, passwordHash, now());
        const token = holder
          ? undefined
          : await issueToken(ctx, tx, { kind: 'pat', accountId: account.id, note: 'invitation' });
        await audit.record(
          tx,
          inv.workspace_id,
          { accountId: account.id, email: account.email },
          { action: 'ACCEPT_WORKSPACE_INVITATION', resourceId: inv.member_id, resourceName: account.email },
        );
        return { account: toAccount(account), ...(token ? { token } : {}), workspaceId: inv.workspace_id };
      });
    },
  };
}
