import type { Role } from '@parley/protocol';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import { errors } from '../../errors/errors.js';
import type { Cursor } from '../../http/pagination.js';
import { readPage } from '../../http/route-helpers.js';
import { newId } from '../../ids.js';
import { auditWho } from '../audit/service.js';
import { type IdentityContext, type MemberActor, requireMember } from './context.js';
import type { AddedMember, IdentityMembers } from './contract.js';
import { issueInvitation } from './invitations.js';
import { toMember } from './records.js';
import { type IdentityRepo, identityRepo, type MemberView } from './repo.js';

const LAST_OWNER = 'A workspace keeps at least one owner: make another member owner first';

/** 403 when an owner is `leaving` (the role or the workspace) and is the workspace's last accepted owner. */
async function keepAnOwner(repo: IdentityRepo, workspaceId: string, leaving: boolean): Promise<void> {
  if (leaving && (await repo.countOwners(workspaceId)) <= 1) throw errors.forbidden(LAST_OWNER);
}

/** Members of the actor's workspace: listed, read, invited, given roles and removed, each change audited. */
export function identityMembers(ctx: IdentityContext): IdentityMembers {
  const { db, now, audit } = ctx;

  async function member(actor: Actor, memberId: string): Promise<MemberView> {
    const row = await identityRepo(db).memberById(actor.workspaceId, memberId);
    if (!row) throw errors.notFound('Member', memberId);
    return row;
  }

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

    async getMember(actor, id) {
      authorize(actor, 'member.read');
      return toMember(await member(actor, id));
    },

    async addMember(actor, body, options = {}) {
      authorize(actor, 'member.add');
      const me = requireMember(actor);
      if (body.role === 'owner' && me.role !== 'owner')
        throw errors.forbidden('Only an owner can add another owner');
      return addTo(me, body.email.toLowerCase(), body.role, options.direct === true);
    },

    async updateMember(actor, id, body) {
      authorize(actor, 'member.update');
      const me = requireMember(actor);
      const target = await member(actor, id);
      if ((target.role === 'owner' || body.role === 'owner') && me.role !== 'owner') {
        throw errors.forbidden('Only an owner can grant or change the owner role');
      }
      await db.transaction().execute(async (tx) => {
        const repo = identityRepo(tx);
        await keepAnOwner(repo, me.workspaceId, target.role === 'owner' && body.role !== 'owner');
        await repo.updateMemberRole(id, body.role, now());
        await audit.record(tx, me.workspaceId, auditWho(actor), {
          action: 'UPDATE_WORKSPACE_MEMBER',
          resourceId: id,
          resourceName: target.email,
          value: { from: target.role, to: body.role },
        });
      });
      return toMember(await member(actor, id));
    },

    async removeMember(actor, id) {
      authorize(actor, 'member.remove');
      const me = requireMember(actor);
      const target = await member(actor, id);
      if (target.role === 'owner' && me.role !== 'owner')
        throw errors.forbidden('Only an owner can remove an owner');
      await db.transaction().execute(async (tx) => {
        const repo = identityRepo(tx);
        await keepAnOwner(repo, me.workspaceId, target.role === 'owner' && target.account_id !== null);
        await repo.deleteMember(id);
        await audit.record(tx, me.workspaceId, auditWho(actor), {
          action: 'REMOVE_WORKSPACE_MEMBER',
          resourceId: id,
          resourceName: target.email,
        });
      });
    },
  };
}
