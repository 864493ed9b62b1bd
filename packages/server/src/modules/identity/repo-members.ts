import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { InvitationQueries, MemberQueries } from './repo-types.js';

/** Rows of a table that belong to a workspace (and match `where`), counted. */
export async function countIn(
  db: Kysely<Database>,
  table: 'bots' | 'members' | 'integrations',
  workspaceId: string,
  where: { role?: string; accepted?: boolean } = {},
): Promise<number> {
  let q = db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('workspace_id', '=', workspaceId);
  if (where.role !== undefined) q = q.where(sql.ref('role'), '=', where.role);
  if (where.accepted) q = q.where(sql.ref('account_id'), 'is not', null);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** Members with their account's display name and, while one is pending, when their invitation expires. */
function membersWithNames(db: Kysely<Database>) {
  return db
    .selectFrom('members')
    .leftJoin('accounts', 'accounts.id', 'members.account_id')
    .selectAll('members')
    .select('accounts.display_name')
    .select((eb) =>
      eb
        .selectFrom('invitations')
        .whereRef('invitations.member_id', '=', 'members.id')
        .where('invitations.used_at', 'is', null)
        .select((i) => i.fn.max('invitations.expires_at').as('expires_at'))
        .as('invitation_expires_at'),
    );
}

/** The members of workspaces. */
export function memberQueries(db: Kysely<Database>): MemberQueries {
  return {
    async insertMember(row) {
      await db.insertInto('members').values(row).execute();
    },
    memberById: (workspaceId, id) =>
      membersWithNames(db)
        .where('members.workspace_id', '=', workspaceId)
        .where('members.id', '=', id)
        .executeTakeFirst(),
    memberOfAccount: (workspaceId, accountId) =>
      membersWithNames(db)
        .where('members.workspace_id', '=', workspaceId)
        .where('members.account_id', '=', accountId)
        .executeTakeFirst(),
    memberByEmail: (workspaceId, email) =>
      db
        .selectFrom('members')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('email', '=', email.toLowerCase())
        .executeTakeFirst(),
    members(workspaceId, limit, after) {
      let q = membersWithNames(db).where('members.workspace_id', '=', workspaceId);
      if (after) q = q.where('members.id', '>', after.id);
      return q
        .orderBy('members.id', 'asc')
        .limit(limit + 1)
        .execute();
    },
    async updateMemberRole(id, role, at) {
      await db.updateTable('members').set({ role, updated_at: at }).where('id', '=', id).execute();
    },
    async linkMember(id, accountId, at) {
      await db
        .updateTable('members')
        .set({ account_id: accountId, updated_at: at })
        .where('id', '=', id)
        .execute();
    },
    async deleteMember(id) {
      await db.deleteFrom('members').where('id', '=', id).execute();
    },
    async deleteMembershipsOf(accountId) {
      await db.deleteFrom('members').where('account_id', '=', accountId).execute();
    },
    countOwners: (workspaceId) => countIn(db, 'members', workspaceId, { role: 'owner', accepted: true }),
  };
}

/** Invitations and the members they invite. */
export function invitationQueries(db: Kysely<Database>): InvitationQueries {
  return {
    async insertInvitation(row) {
      await db
        .insertInto('invitations')
        .values({ ...row, used_at: null })
        .execute();
    },
    invitationByCodeHash: (codeHash) =>
      db
        .selectFrom('invitations')
        .innerJoin('members', 'members.id', 'invitations.member_id')
        .select([
          'invitations.id',
          'invitations.code_hash',
          'invitations.expires_at',
          'invitations.used_at',
          'members.id as member_id',
          'members.email',
          'members.workspace_id',
          'members.account_id',
        ])
        .where('invitations.code_hash', '=', codeHash)
        .executeTakeFirst(),
    async dropInvitationsOf(memberId) {
      await db
        .deleteFrom('invitations')
        .where('member_id', '=', memberId)
        .where('used_at', 'is', null)
        .execute();
    },
    useInvitation: (id, at) =>
      db
        .updateTable('invitations')
        .set({ used_at: at })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst(),
  };
}
