import type { Kysely } from 'kysely';
import { hashPassword, verifyNothing, verifyPassword } from '../../access/passwords.js';
import { hashToken, newInvitationCode } from '../../access/tokens.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import { newId } from '../../ids.js';
import { insertAccount } from './accounts.js';
import type { IdentityContext } from './context.js';
import type { AcceptedInvitation, IdentityInvitations, SignInClient } from './contract.js';
import { INVITATION_TTL_MS } from './contract.js';
import { checkPolicy } from './passwords.js';
import { toAccount } from './records.js';
import { type AccountRow, type IdentityRepo, type InvitationView, identityRepo } from './repo.js';
import { sessionRepo } from './session-repo.js';
import { signInThrottle } from './throttle.js';

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

/** What an anonymous accept does to the invited e-mail's account, decided before its transaction. */
type AnonymousAccept =
  | { kind: 'create'; hash: string }
  | { kind: 'reset'; hash: string; holder: AccountRow }
  | { kind: 'join'; holder: AccountRow }
  | { kind: 'nothing' };

/**
 * Redeeming invitation codes. Signed in, by the account of the invited e-mail. Anonymously, with a password, and
 * with one answer whatever accounts exist (no enumeration): the e-mail's account is created; an account an
 * invitation from another workspace made and nobody ever signed into is reset (a squatter's account goes to
 * whoever redeems the next invitation, and nothing it held stays); an account someone signed into joins only
 * when the password is its own (a sign-in attempt, throttled as one). The code is used up in every case.
 */
export function identityInvitations(ctx: IdentityContext): IdentityInvitations {
  const { db, clock, now, audit } = ctx;
  const throttle = signInThrottle(ctx);

  /** Decides (and hashes or checks the password, one scrypt either way) before the transaction. */
  async function decide(
    inv: InvitationView,
    password: string,
    client: SignInClient,
  ): Promise<AnonymousAccept> {
    const holder = await identityRepo(db).accountByEmail(inv.email);
    if (!holder) return { kind: 'create', hash: await hashPassword(password) };
    if (holder.unclaimed_via !== null && holder.unclaimed_via !== inv.workspace_id)
      return { kind: 'reset', hash: await hashPassword(password), holder };
    const stored = await sessionRepo(db).passwordOf(holder.id);
    const keys = { email: inv.email, address: client.address };
    const ok = await throttle.attempt(keys, async () =>
      stored ? verifyPassword(password, stored) : verifyNothing(password).then(() => false),
    );
    return ok ? { kind: 'join', holder } : { kind: 'nothing' };
  }

  /** Makes `account` the invited member, and records that it accepted. */
  async function join(tx: Kysely<Database>, inv: InvitationView, account: AccountRow): Promise<void> {
    await identityRepo(tx).linkMember(inv.member_id, account.id, now());
    await audit.record(
      tx,
      inv.workspace_id,
      { accountId: account.id, email: account.email },
      { action: 'ACCEPT_WORKSPACE_INVITATION', resourceId: inv.member_id, resourceName: account.email },
    );
  }

  /** Whether the e-mail's account is still the one `decide` saw (another accept may have run meanwhile). */
  function unchanged(plan: AnonymousAccept, holder: AccountRow | undefined): boolean {
    if (plan.kind === 'create') return holder === undefined;
    if (plan.kind === 'nothing') return true;
    return holder?.id === plan.holder.id && holder.unclaimed_via === plan.holder.unclaimed_via;
  }

  async function acceptAnonymously(
    body: { code: string; displayName?: string | undefined; password?: string | undefined },
    client: SignInClient,
  ): Promise<AcceptedInvitation> {
    if (body.password === undefined) {
      throw errors.invalidPayload(
        'Without a token, choose a password (`password`): you sign in with it next',
        [{ field: 'password', message: 'required without a token' }],
      );
    }
    checkPolicy(body.password, 'password');
    const first = await redeemable(identityRepo(db), body.code, clock().getTime(), undefined);
    const plan = await decide(first, body.password, client);
    return db.transaction().execute(async (tx) => {
      const repo = identityRepo(tx);
      const inv = await redeemable(repo, body.code, clock().getTime(), undefined);
      const used = await repo.useInvitation(inv.id, now());
      if (Number(used.numUpdatedRows) !== 1) throw errors.gone('This invitation has already been used');
      const holder = await repo.accountByEmail(inv.email);
      // Changed meanwhile: the code is used up without effect, as for an account whose password was not given.
      const step = unchanged(plan, holder) ? plan : ({ kind: 'nothing' } as const);
      let account: AccountRow | undefined;
      if (step.kind === 'create') {
        account = await insertAccount(ctx, tx, inv.email, body.displayName, inv.workspace_id);
        await sessionRepo(tx).setPassword(account.id, step.hash, now());
      } else if (step.kind === 'reset') {
        account = step.holder;
        const name = body.displayName ?? inv.email.split('@')[0] ?? inv.email;
        await repo.updateAccount(account.id, {
          display_name: name,
          updated_at: now(),
          unclaimed_via: inv.workspace_id,
        });
        await sessionRepo(tx).setPassword(account.id, step.hash, now());
        await sessionRepo(tx).revokeSessions(account.id, now());
        await repo.revokeTokens({ account_id: account.id }, now());
        await repo.deleteMembershipsOf(account.id);
      } else if (step.kind === 'join') {
        account = step.holder;
      }
      if (account) await join(tx, inv, account);
      return { email: inv.email, workspaceId: inv.workspace_id };
    });
  }

  return {
    async acceptInvitation(body, caller, client) {
      if (!caller) return acceptAnonymously(body, client);
      if (caller.kind !== 'account')
        throw errors.forbidden('Only a person (a personal access token) can accept an invitation');
      if (body.password !== undefined) {
        throw errors.invalidPayload(
          'An existing account keeps its password: leave out `password` (change it with PUT /v1/admin/account/password)',
          [{ field: 'password', message: 'only for an invitation accepted without a token' }],
        );
      }
      return db.transaction().execute(async (tx) => {
        const repo = identityRepo(tx);
        const inv = await redeemable(repo, body.code, clock().getTime(), caller);
        const account = await repo.accountById(caller.accountId);
        if (!account) throw errors.unauthorized('The account of this token no longer exists');
        const used = await repo.useInvitation(inv.id, now());
        if (Number(used.numUpdatedRows) !== 1) throw errors.gone('This invitation has already been used');
        await join(tx, inv, account);
        return { email: inv.email, workspaceId: inv.workspace_id, account: toAccount(account) };
      });
    },
  };
}
