import { type Kysely, type Selectable, sql } from 'kysely';
import { afterCursor } from '../../db/keyset.js';
import type { AccountsTable, Database, MembersTable, TokensTable, WorkspacesTable } from '../../db/schema.js';
import type { Cursor } from '../../http/pagination.js';

/** Account row. */
export type AccountRow = Selectable<AccountsTable>;
/** Workspace row. */
export type WorkspaceRow = Selectable<WorkspacesTable>;
/** Member row. */
export type MemberRow = Selectable<MembersTable>;
/** Token row. */
export type TokenRow = Selectable<TokensTable>;
/** A member row with its account's display name. */
export type MemberView = MemberRow & { display_name: string | null };

/** Queries of accounts, tokens, workspaces, members and invitations. Takes a database or a transaction. */
export function identityRepo(db: Kysely<Database>) {
  return {
    insertAccount: (row: AccountRow) => db.insertInto('accounts').values(row).execute(),
    accountById: (id: string) =>
      db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst(),
    accountByEmail: (email: string) =>
      db.selectFrom('accounts').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst(),
    updateAccount: (id: string, values: Partial<Pick<AccountRow, 'display_name' | 'updated_at'>>) =>
      db.updateTable('accounts').set(values).where('id', '=', id).execute(),

    insertToken: (row: TokenRow) => db.insertInto('tokens').values(row).execute(),
    tokenByHash: (hash: string) =>
      db.selectFrom('tokens').selectAll().where('hash', '=', hash).executeTakeFirst(),
    touchToken: (id: string, at: string, olderThan: string) =>
      db
        .updateTable('tokens')
        .set({ last_used_at: at })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', olderThan)]))
        .execute(),
    tokensOf: (owner: { account_id?: string; bot_id?: string; integration_id?: string }, kind: string) => {
      let q = db.selectFrom('tokens').selectAll().where('kind', '=', kind).where('revoked_at', 'is', null);
      if (owner.account_id !== undefined) q = q.where('account_id', '=', owner.account_id);
      if (owner.bot_id !== undefined) q = q.where('bot_id', '=', owner.bot_id);
      if (owner.integration_id !== undefined) q = q.where('integration_id', '=', owner.integration_id);
      return q.orderBy('id', 'asc').execute();
    },
    tokenById: (id: string) => db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst(),
    revokeToken: (id: string, at: string) =>
      db
        .updateTable('tokens')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst(),
    revokeTokensWhere: (where: { bot_id: string; integration_id: string }, at: string) =>
      db
        .updateTable('tokens')
        .set({ revoked_at: at })
        .where('bot_id', '=', where.bot_id)
        .where('integration_id', '=', where.integration_id)
        .where('revoked_at', 'is', null)
        .execute(),

    insertWorkspace: (row: WorkspaceRow) => db.insertInto('workspaces').values(row).execute(),
    workspaceById: (id: string) =>
      db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst(),
    updateWorkspace: (id: string, values: Partial<WorkspaceRow>) =>
      db.updateTable('workspaces').set(values).where('id', '=', id).execute(),
    deleteWorkspace: async (id: string, at: string) => {
      await db
        .insertInto('blob_garbage')
        .columns(['blob_key', 'queued_at'])
        .expression(
          db
            .selectFrom('files')
            .select(['blob_key', sql.lit(at).as('queued_at')])
            .where('workspace_id', '=', id)
            .where('blob_key', 'is not', null),
        )
        .onConflict((oc) => oc.column('blob_key').doNothing())
        .execute();
      await db
        .deleteFrom('request_logs')
        .where('bot_id', 'in', db.selectFrom('bots').select('id').where('workspace_id', '=', id))
        .execute();
      await db.deleteFrom('workspaces').where('id', '=', id).execute();
    },
    /** Workspaces an account is an active member of, by creation, keyset-paginated on (created_at, id). */
    workspacesOf: (accountId: string, limit: number, after: Cursor | undefined) => {
      let q = db
        .selectFrom('workspaces')
        .innerJoin('members', 'members.workspace_id', 'workspaces.id')
        .selectAll('workspaces')
        .select('members.role')
        .where('members.account_id', '=', accountId);
      if (after) {
        q = q.where(
          afterCursor('workspaces.created_at', 'workspaces.id', 'asc', String(after.value), after.id),
        );
      }
      return q
        .orderBy('workspaces.created_at', 'asc')
        .orderBy('workspaces.id', 'asc')
        .limit(limit + 1)
        .execute();
    },
    countBots: async (workspaceId: string) =>
      Number(
        (
          await db
            .selectFrom('bots')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('workspace_id', '=', workspaceId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    countMembers: async (workspaceId: string) =>
      Number(
        (
          await db
            .selectFrom('members')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('workspace_id', '=', workspaceId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    countIntegrations: async (workspaceId: string) =>
      Number(
        (
          await db
            .selectFrom('integrations')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('workspace_id', '=', workspaceId)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    insertMember: (row: MemberRow) => db.insertInto('members').values(row).execute(),
    memberById: (workspaceId: string, id: string) =>
      db
        .selectFrom('members')
        .leftJoin('accounts', 'accounts.id', 'members.account_id')
        .selectAll('members')
        .select('accounts.display_name')
        .where('members.workspace_id', '=', workspaceId)
        .where('members.id', '=', id)
        .executeTakeFirst(),
    memberOfAccount: (workspaceId: string, accountId: string) =>
      db
        .selectFrom('members')
        .leftJoin('accounts', 'accounts.id', 'members.account_id')
        .selectAll('members')
        .select('accounts.display_name')
        .where('members.workspace_id', '=', workspaceId)
        .where('members.account_id', '=', accountId)
        .executeTakeFirst(),
    memberByEmail: (workspaceId: string, email: string) =>
      db
        .selectFrom('members')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('email', '=', email.toLowerCase())
        .executeTakeFirst(),
    members: (workspaceId: string, limit: number, after: Cursor | undefined) => {
      let q = db
        .selectFrom('members')
        .leftJoin('accounts', 'accounts.id', 'members.account_id')
        .selectAll('members')
        .select('accounts.display_name')
        .where('members.workspace_id', '=', workspaceId);
      if (after) q = q.where('members.id', '>', after.id);
      return q
        .orderBy('members.id', 'asc')
        .limit(limit + 1)
        .execute();
    },
    updateMemberRole: (id: string, role: string, at: string) =>
      db.updateTable('members').set({ role, updated_at: at }).where('id', '=', id).execute(),
    linkMember: (id: string, accountId: string, at: string) =>
      db.updateTable('members').set({ account_id: accountId, updated_at: at }).where('id', '=', id).execute(),
    deleteMember: (id: string) => db.deleteFrom('members').where('id', '=', id).execute(),
    countOwners: async (workspaceId: string) =>
      Number(
        (
          await db
            .selectFrom('members')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('workspace_id', '=', workspaceId)
            .where('role', '=', 'owner')
            .where('account_id', 'is not', null)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    insertInvitation: (row: {
      id: string;
      member_id: string;
      code_hash: string;
      expires_at: string;
      created_at: string;
    }) =>
      db
        .insertInto('invitations')
        .values({ ...row, used_at: null })
        .execute(),
    invitationByCodeHash: (codeHash: string) =>
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
    useInvitation: (id: string, at: string) =>
      db
        .updateTable('invitations')
        .set({ used_at: at })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst(),

    botForKey: (botId: string) =>
      db.selectFrom('bots').select(['id', 'workspace_id']).where('id', '=', botId).executeTakeFirst(),
    installation: (botId: string, integrationId: string) =>
      db
        .selectFrom('installations')
        .innerJoin('bots', 'bots.id', 'installations.bot_id')
        .select(['installations.bot_id', 'installations.integration_id', 'bots.workspace_id'])
        .where('installations.bot_id', '=', botId)
        .where('installations.integration_id', '=', integrationId)
        .executeTakeFirst(),

    getMeta: (key: string) => db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst(),
    insertMeta: (key: string, value: string) => db.insertInto('meta').values({ key, value }).execute(),
  };
}
/** The identity repository. */
export type IdentityRepo = ReturnType<typeof identityRepo>;
