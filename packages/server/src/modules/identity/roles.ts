import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import { auditWho } from '../audit/service.js';
import { type IdentityContext, requireMember } from './context.js';
import type { IdentityRoles } from './contract.js';
import { loadMember } from './members.js';
import { toMember } from './records.js';
import { identityRepo } from './repo.js';

/** 403 when an owner is `leaving` (the role or the workspace) and is the workspace's last accepted owner. */
async function keepAnOwner(tx: Kysely<Database>, workspaceId: string, leaving: boolean): Promise<void> {
  if (leaving && (await identityRepo(tx).countOwners(workspaceId)) <= 1)
    throw errors.forbidden('A workspace keeps at least one owner: make another member owner first');
}

/** The roles of the members of the actor's workspace: changed and taken away, each change audited. */
export function identityRoles(ctx: IdentityContext): IdentityRoles {
  const { db, now, audit } = ctx;
  return {
    async updateMember(actor, id, body) {
      authorize(actor, 'member.update');
      const me = requireMember(actor);
      const target = await loadMember(db, actor, id);
      if ((target.role === 'owner' || body.role === 'owner') && me.role !== 'owner') {
        throw errors.forbidden('Only an owner can grant or change the owner role');
      }
      await db.transaction().execute(async (tx) => {
        const repo = identityRepo(tx);
        await keepAnOwner(tx, me.workspaceId, target.role === 'owner' && body.role !== 'owner');
        await repo.updateMemberRole(id, body.role, now());
        await audit.record(tx, me.workspaceId, auditWho(actor), {
          action: 'UPDATE_WORKSPACE_MEMBER',
          resourceId: id,
          resourceName: target.email,
          value: { from: target.role, to: body.role },
        });
      });
      return toMember(await loadMember(db, actor, id));
    },

    async removeMember(actor, id) {
      authorize(actor, 'member.remove');
      const me = requireMember(actor);
      const target = await loadMember(db, actor, id);
      if (target.role === 'owner' && me.role !== 'owner')
        throw errors.forbidden('Only an owner can remove an owner');
      await db.transaction().execute(async (tx) => {
        const repo = identityRepo(tx);
        await keepAnOwner(tx, me.workspaceId, target.role === 'owner' && target.account_id !== null);
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
