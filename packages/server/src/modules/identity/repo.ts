import type { Kysely } from 'kysely';
import { queueGarbageOf } from '../../db/blob-garbage.js';
import { fixedQuery } from '../../db/fixed-query.js';
import { afterCursor } from '../../db/keyset.js';
import { PerHandle } from '../../db/per-handle.js';
import type { Database } from '../../db/schema.js';
import { countIn, invitationQueries, memberQueries } from './repo-members.js';

export type {
  AccountRow,
  IdentityRepo,
  InvitationView,
  MemberRow,
  MemberView,
  NewInvitationRow,
  TokenMatch,
  TokenOwner,
  TokenRow,
  WorkspaceOfAccount,
  WorkspaceRow,
} from './repo-types.js';

import type { AccountQueries, IdentityRepo, LookupQueries, WorkspaceQueries } from './repo-types.js';

/** The columns a {@link TokenMatch} names. */
type TokenMatchColumn = 'id' | 'account_id' | 'bot_id' | 'integration_id';

/** Accounts and their tokens. */
function accountQueries(db: Kysely<Database>): AccountQueries {
  return {
    async insertAccount(row) {
      await db.insertInto('accounts').values(row).execute();
    },
    accountById: (id) => db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst(),
    accountByEmail: (email) =>
      db.selectFrom('accounts').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst(),
    async updateAccount(id, values) {
      await db.updateTable('accounts').set(values).where('id', '=', id).execute();
    },
    async claimAccount(id) {
      await db
        .updateTable('accounts')
        .set({ unclaimed_via: null })
        .where('id', '=', id)
        .where('unclaimed_via', 'is not', null)
        .execute();
    },
    async insertToken(row) {
      await db.insertInto('tokens').values(row).execute();
    },
    tokenByHash: async (hash) => (await tokenByHash(db, hash)).rows[0],
    tokenById: (id) => db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst(),
    async touchToken(id, at, olderThan) {
      await db
        .updateTable('tokens')
        .set({ last_used_at: at })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', olderThan)]))
        .execute();
    },
    tokensOf(owner, kind) {
      let q = db.selectFrom('tokens').selectAll().where('kind', '=', kind).where('revoked_at', 'is', null);
      if (owner.account_id !== undefined) q = q.where('account_id', '=', owner.account_id);
      if (owner.bot_id !== undefined) q = q.where('bot_id', '=', owner.bot_id);
      if (owner.integration_id !== undefined) q = q.where('integration_id', '=', owner.integration_id);
      return q.orderBy('id', 'asc').execute();
    },
    revokeTokens: (match, at) => {
      let q = db.updateTable('tokens').set({ revoked_at: at }).where('revoked_at', 'is', null);
      for (const [column, value] of Object.entries(match) as [TokenMatchColumn, string][])
        q = q.where(column, '=', value);
      return q.executeTakeFirst();
    },
  };
}

/** The token of a hash (every authenticated request reads one: compiled once, see fixedQuery). */
const tokenByHash = fixedQuery(1, (db, hash: string) =>
  db.selectFrom('tokens').selectAll().where('hash', '=', hash),
);

/** The bot of a bot access key, as its token's resolution reads it (compiled once, see fixedQuery). */
const botForKey = fixedQuery(1, (db, botId: string) =>
  db.selectFrom('bots').select(['id', 'workspace_id']).where('id', '=', botId),
);

/** Workspaces, and what they hold, counted. */
function workspaceQueries(db: Kysely<Database>): WorkspaceQueries {
  return {
    async insertWorkspace(row) {
      await db.insertInto('workspaces').values(row).execute();
    },
    workspaceById: (id) => db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst(),
    async updateWorkspace(id, values) {
      await db.updateTable('workspaces').set(values).where('id', '=', id).execute();
    },
    async deleteWorkspace(id, at) {
      await queueGarbageOf(db, { workspaceId: id }, at);
      await db
        .deleteFrom('request_logs')
        .where('bot_id', 'in', db.selectFrom('bots').select('id').where('workspace_id', '=', id))
        .execute();
      await db.deleteFrom('workspaces').where('id', '=', id).execute();
    },
    workspacesOf(accountId, limit, after) {
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
    countBots: (workspaceId) => countIn(db, 'bots', workspaceId),
    countMembers: (workspaceId) => countIn(db, 'members', workspaceId),
    countIntegrations: (workspaceId) => countIn(db, 'integrations', workspaceId),
  };
}

/** The bots and installations keys belong to, and the meta table. */
function lookupQueries(db: Kysely<Database>): LookupQueries {
  return {
    botForKey: async (botId) => (await botForKey(db, botId)).rows[0],
    installation: (botId, integrationId) =>
      db
        .selectFrom('installations')
        .innerJoin('bots', 'bots.id', 'installations.bot_id')
        .select(['installations.bot_id', 'installations.integration_id', 'bots.workspace_id'])
        .where('installations.bot_id', '=', botId)
        .where('installations.integration_id', '=', integrationId)
        .executeTakeFirst(),

    getMeta: (key) => db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst(),
    async insertMeta(key, value) {
      await db.insertInto('meta').values({ key, value }).execute();
    },
  };
}

/** The repositories made so far, by database handle (a transaction's goes with it). */
const repos = new PerHandle<IdentityRepo>();

/** The identity queries over a database or a transaction. */
export function identityRepo(db: Kysely<Database>): IdentityRepo {
  // Every authenticated request asks for one: each database handle keeps the one made for it.
  return repos.of(db, () => ({
    ...accountQueries(db),
    ...workspaceQueries(db),
    ...memberQueries(db),
    ...invitationQueries(db),
    ...lookupQueries(db),
  }));
}
