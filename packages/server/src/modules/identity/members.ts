import type { Role } from '@parley/protocol';
import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import type { Cursor } from '../../http/pagination.js';
import { readPage } from '../../http/route-helpers.js';
import { newId } from '../../ids.js';
import { auditWho } from '../audit/service.js';
import { type IdentityContext, type MemberActor, requireMember } from './context.js';
import type { AddedMember, IdentityMembers } from './contract.js';
import { issueInvitation } from './invitations.js';
import { toMember } from './records.js';
import { identityRepo, type MemberView } from './repo.js';

/** A member of the actor's workspace; 404 otherwise. */
export async function loadMember(db: Kysely<Database>, actor: Actor, memberId: string): Promise<MemberView> {
  const row = await identityRepo(db).memberById(actor.workspaceId, memberId);
  if (!row) throw errors.notFound('Member', memberId);
  return row;
}

/** Members of the actor's workspace: listed, read, and added (by invitation), each addition audited. */
export function identityMembers(ctx: IdentityContext): IdentityMembers {
  const { db, now, audit } = ctx;

  /** Stores a new member with its audit record: invited with a code, or (`direct`) linked to the e-mail's account. */
  async function addTo(actor: MemberActor, email: string, role: Role, direct: boolean): Promise<AddedMember> {
    return db.transaction().execute(async (tx) => {
      const repo = identityRepo(tx);
      const existing = await repo.memberByEmail(actor.workspaceId, email);
      const account = direct ? await repo.accountByEmail(email) : undefined;
      const at = now();
      if (existing) {
        throw errors.alreadyExists(
          existing.account_id === null
            ? `${email} is already invited to this workspace: the invitation stays valid until it is accepted or the member removed`
            : `${email} is already a member of this workspace`,
        );
      }
      const id = newId('member');
      const row = { id, workspace_id: actor.workspaceId, account_id: account?.id ?? null, email, role };
      await repo.insertMember({ ...row, created_at: at, updated_at: at });
      const invitation = account ? undefined : await issueInvitation(ctx, tx, id, at);
      await audit.record(tx, actor.workspaceId, auditWho(actor), {
        action: 'ADD_WORKSPACE_MEMBER',
        resourceId: id,
        resourceName: email,
        value: { role },
      });
      const added = toMember((await repo.memberById(actor.workspaceId, id)) as MemberView);
      return { ...added, ...(invitation ? { invitation } : {}) };
    });
  }

  return {
    async listMembers(actor, query) {
      authorize(actor, 'member.read');
      const rows = (limit: number, after: Cursor | undefined) =>
        identityRepo(db).members(actor.workspaceId, limit, after);
      return readPage(query, { sort: 'id:asc', rows, toItem: toMember });
    },

    async getMe(actor) {
      const me = requireMember(actor);
      const row = await identityRepo(db).memberOfAccount(me.workspaceId, me.accountId);
      if (!row) throw errors.notFound('Member', me.accountId);
      return toMember(row);
    },

    async renewInvitation(actor, id) {
      authorize(actor, 'member.add');
      const me = requireMember(actor);
      return db.transaction().execute(async (tx) => {
        const member = await loadMember(tx, actor, id);
        if (member.account_id !== null)
          throw errors.alreadyExists(`${member.email} has already joined: there is no invitation to renew`);
        if (member.role === 'owner' && me.role !== 'owner')
          throw errors.forbidden("Only an owner renews an owner's invitation");
        await identityRepo(tx).dropInvitationsOf(member.id);
        const invitation = await issueInvitation(ctx, tx, member.id, now());
        await audit.record(tx, actor.workspaceId, auditWho(actor), {
          action: 'RENEW_WORKSPACE_INVITATION',
          resourceId: member.id,
          resourceName: member.email,
        });
        return invitation;
      });
    },

    async getMember(actor, id) {
      authorize(actor, 'member.read');
      return toMember(await loadMember(db, actor, id));
    },

    async addMember(actor, body, options = {}) {
      authorize(actor, 'member.add');
      const me = requireMember(actor);
      if (body.role === 'owner' && me.role !== 'owner')
        throw errors.forbidden('Only an owner can add another owner');
      return addTo(me, body.email.toLowerCase(), body.role, options.direct === true);
    },
  };
}
