import type { Account, CreatedToken, Member, Role, TokenInfo, Usage, Workspace } from '@parley/protocol';
import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Actor, Principal } from '../../access/principal.js';
import {
  hashToken,
  newInvitationCode,
  newTokenValue,
  sameHash,
  type TokenKind,
} from '../../access/tokens.js';
import type { Config } from '../../config/config.js';
import { isUniqueViolation } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import type { AuthResolver } from '../../http/context.js';
import { decodeCursor, type Page, toPage } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { type AuditService, auditWho } from '../audit/service.js';
import { type AccountRow, identityRepo, type MemberView, type TokenRow, type WorkspaceRow } from './repo.js';

/** How long an invitation code stays valid. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

/** Shapes an account row for the wire. */
export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Shapes a token row for the wire (never its value). */
export function toTokenInfo(row: TokenRow): TokenInfo {
  return {
    id: row.id,
    note: row.note,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
  };
}

function toMember(row: MemberView): Member {
  return {
    id: row.id,
    ...(row.account_id ? { userId: row.account_id } : {}),
    email: row.email,
    ...(row.display_name ? { displayName: row.display_name } : {}),
    role: row.role as Role,
    createdAt: row.created_at,
    status: row.account_id ? 'active' : 'invited',
  };
}

function toWorkspace(row: WorkspaceRow, botCount: number, role?: string): Workspace {
  return {
    id: row.id,
    name: row.name,
    ownerId: row.owner_id,
    about: row.about,
    contactEmail: row.contact_email,
    website: row.website,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    botCount,
    ...(role ? { role: role as Role } : {}),
  };
}

/** Options of token creation. */
export interface NewToken {
  kind: TokenKind;
  note?: string | undefined;
  expiresAt?: string | undefined;
  accountId?: string;
  botId?: string;
  integrationId?: string;
  /** Use this value instead of a random one (PARLEY_ADMIN_TOKEN). */
  value?: string;
}

/** Accounts, tokens, workspaces and members: the identity model and the AuthResolver. */
/** Usage figures another module contributes for a workspace. */
export type UsageSource = (
  workspaceId: string,
) => Promise<Array<{ type: string; value: number; quota: number | null }>>;

export function identityService(deps: {
  db: Kysely<Database>;
  clock: () => Date;
  config: Config;
  audit: AuditService;
}) {
  const usageSources: UsageSource[] = [];
  const { db, clock, audit } = deps;
  const now = () => clock().toISOString();

  async function createToken(tx: Kysely<Database>, spec: NewToken): Promise<CreatedToken> {
    if (spec.expiresAt !== undefined && Date.parse(spec.expiresAt) <= clock().getTime()) {
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
      created_at: now(),
      last_used_at: null,
      expires_at: spec.expiresAt === undefined ? null : new Date(spec.expiresAt).toISOString(),
      revoked_at: null,
    };
    await identityRepo(tx).insertToken(row);
    return { ...toTokenInfo(row), value };
  }

  async function createAccount(
    tx: Kysely<Database>,
    email: string,
    displayName?: string,
  ): Promise<AccountRow> {
    const at = now();
    const row: AccountRow = {
      id: newId('user'),
      email: email.toLowerCase(),
      display_name: displayName ?? email.split('@')[0] ?? email,
      created_at: at,
      updated_at: at,
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

  async function createWorkspace(
    tx: Kysely<Database>,
    owner: AccountRow,
    name: string,
  ): Promise<WorkspaceRow> {
    const at = now();
    const ws: WorkspaceRow = {
      id: newId('wkspace'),
      name,
      owner_id: owner.id,
      about: '',
      contact_email: '',
      website: '',
      created_at: at,
      updated_at: at,
    };
    const repo = identityRepo(tx);
    await repo.insertWorkspace(ws);
    await repo.insertMember({
      id: newId('member'),
      workspace_id: ws.id,
      account_id: owner.id,
      email: owner.email,
      role: 'owner',
      created_at: at,
      updated_at: at,
    });
    await audit.record(
      tx,
      ws.id,
      { accountId: owner.id, email: owner.email },
      { action: 'CREATE_WORKSPACE', resourceId: ws.id, resourceName: name },
    );
    return ws;
  }

  async function member(actor: Actor, memberId: string): Promise<MemberView> {
    const row = await identityRepo(db).memberById(actor.workspaceId, memberId);
    if (!row) throw errors.notFound('Member', memberId);
    return row;
  }

  function requireMember(actor: Actor): Extract<Actor, { kind: 'member' }> {
    if (actor.kind !== 'member') authorize(actor, 'member.read');
    return actor as Extract<Actor, { kind: 'member' }>;
  }

  const resolver: AuthResolver = {
    async resolveToken(value) {
      const hash = hashToken(value);
      const repo = identityRepo(db);
      const row = await repo.tokenByHash(hash);
      if (!row || !sameHash(row.hash, hash) || row.revoked_at !== null) return undefined;
      const at = clock();
      if (row.expires_at !== null && Date.parse(row.expires_at) <= at.getTime()) return undefined;
      let principal: Principal | undefined;
      if (row.kind === 'pat' && row.account_id) {
        const account = await repo.accountById(row.account_id);
        if (account)
          principal = { kind: 'account', accountId: account.id, email: account.email, tokenId: row.id };
      } else if (row.kind === 'bak' && row.bot_id) {
        const bot = await repo.botForKey(row.bot_id);
        if (bot) principal = { kind: 'bot', botId: bot.id, workspaceId: bot.workspace_id, tokenId: row.id };
      } else if (row.kind === 'iak' && row.bot_id && row.integration_id) {
        const inst = await repo.installation(row.bot_id, row.integration_id);
        if (inst)
          principal = {
            kind: 'integration',
            integrationId: inst.integration_id,
            botId: inst.bot_id,
            workspaceId: inst.workspace_id,
            tokenId: row.id,
          };
      }
      if (principal) {
        // Record use at most once a minute per token, so reads stay reads.
        await repo.touchToken(row.id, at.toISOString(), new Date(at.getTime() - 60_000).toISOString());
      }
      return principal;
    },
    async resolveActor(principal, workspaceId) {
      if (principal.kind === 'account') {
        const m = await identityRepo(db).memberOfAccount(workspaceId, principal.accountId);
        return m
          ? {
              kind: 'member',
              accountId: principal.accountId,
              email: principal.email,
              role: m.role as Role,
              workspaceId,
            }
          : undefined;
      }
      if (principal.workspaceId !== workspaceId) return undefined;
      return principal.kind === 'bot'
        ? { kind: 'bot', botId: principal.botId, workspaceId }
        : {
            kind: 'integration',
            integrationId: principal.integrationId,
            botId: principal.botId,
            workspaceId,
          };
    },
  };

  return {
    resolver,
    createToken,
    /** Building blocks for callers that compose one transaction (bootstrap). */
    tx: { createAccount, createWorkspace },

    /** Live tokens of one kind held by an account, a bot or an integration on a bot. */
    async listTokens(
      owner: { account_id?: string; bot_id?: string; integration_id?: string },
      kind: TokenKind,
    ): Promise<TokenInfo[]> {
      return (await identityRepo(db).tokensOf(owner, kind)).map(toTokenInfo);
    },
    /** A token row by id (its hash stays inside this module's callers' reach only for ownership checks). */
    tokenById: (id: string) => identityRepo(db).tokenById(id),
    /** Revokes a token inside the caller's transaction. */
    revokeToken: (tx: Kysely<Database>, id: string) => identityRepo(tx).revokeToken(id, now()),
    /** Revokes every key of an integration on a bot (when it is uninstalled). */
    revokeIntegrationKeys: (tx: Kysely<Database>, botId: string, integrationId: string) =>
      identityRepo(tx).revokeTokensWhere({ bot_id: botId, integration_id: integrationId }, now()),

    /** Creates an account (CLI and bootstrap); with `withToken`, also its first personal access token. */
    async createAccount(
      email: string,
      displayName?: string,
      tokenValue?: string,
    ): Promise<{ account: Account; token: CreatedToken }> {
      return db.transaction().execute(async (tx) => {
        const account = await createAccount(tx, email, displayName);
        const token = await createToken(tx, {
          kind: 'pat',
          accountId: account.id,
          note: 'first token',
          ...(tokenValue ? { value: tokenValue } : {}),
        });
        return { account: toAccount(account), token };
      });
    },

    async accountByEmail(email: string) {
      const row = await identityRepo(db).accountByEmail(email);
      return row ? toAccount(row) : undefined;
    },

    async getAccount(principal: Principal): Promise<Account> {
      if (principal.kind !== 'account') throw errors.forbidden('Only a personal access token has an account');
      const row = await identityRepo(db).accountById(principal.accountId);
      if (!row) throw errors.unauthorized('The account of this token no longer exists');
      return toAccount(row);
    },

    async updateAccount(principal: Principal, body: { displayName: string }): Promise<Account> {
      const account = await this.getAccount(principal);
      await identityRepo(db).updateAccount(account.id, { display_name: body.displayName, updated_at: now() });
      return this.getAccount(principal);
    },

    async listPats(principal: Principal): Promise<TokenInfo[]> {
      const account = await this.getAccount(principal);
      return (await identityRepo(db).tokensOf({ account_id: account.id }, 'pat')).map(toTokenInfo);
    },

    async createPat(
      principal: Principal,
      body: { note?: string | undefined; expiresAt?: string | undefined },
      value?: string,
    ): Promise<CreatedToken> {
      const account = await this.getAccount(principal);
      return createToken(db, {
        kind: 'pat',
        accountId: account.id,
        note: body.note,
        expiresAt: body.expiresAt,
        ...(value ? { value } : {}),
      });
    },

    /** Registers a chosen value as a personal access token of an account (PARLEY_ADMIN_TOKEN); no-op if it exists. */
    async ensurePat(accountId: string, value: string, note: string): Promise<void> {
      const existing = await identityRepo(db).tokenByHash(hashToken(value));
      if (existing) {
        if (existing.account_id !== accountId || existing.revoked_at !== null) {
          throw new Error(
            'PARLEY_ADMIN_TOKEN is already in use by another or a revoked token; choose another value',
          );
        }
        return;
      }
      await createToken(db, { kind: 'pat', accountId, note, value });
    },

    async deletePat(principal: Principal, id: string): Promise<void> {
      const account = await this.getAccount(principal);
      const repo = identityRepo(db);
      const row = await repo.tokenById(id);
      if (row?.kind !== 'pat' || row.account_id !== account.id || row.revoked_at !== null)
        throw errors.notFound('Personal access token', id);
      await repo.revokeToken(id, now());
    },

    async listWorkspaces(
      principal: Principal,
      query: { nextToken?: string | undefined; pageSize?: number | undefined },
    ): Promise<Page<Workspace>> {
      const account = await this.getAccount(principal);
      const limit = query.pageSize ?? 20;
      const repo = identityRepo(db);
      const rows = await repo.workspacesOf(account.id, limit, decodeCursor(query.nextToken, 'createdAt:asc'));
      const page = toPage(rows, limit, 'createdAt:asc', (r) => [r.created_at, r.id]);
      const items = await Promise.all(
        page.items.map(async (r) => toWorkspace(r, await repo.countBots(r.id), r.role)),
      );
      return { items, ...(page.nextToken ? { nextToken: page.nextToken } : {}) };
    },

    async createWorkspace(principal: Principal, body: { name: string }): Promise<Workspace> {
      const account = await this.getAccount(principal);
      const row = await identityRepo(db).accountById(account.id);
      if (!row) throw errors.unauthorized('The account of this token no longer exists');
      const ws = await db.transaction().execute((tx) => createWorkspace(tx, row, body.name));
      return toWorkspace(ws, 0, 'owner');
    },

    /** The bootstrap path: account, workspace, with a given or generated token, in one transaction. */
    createAccountAndWorkspace: (email: string, workspaceName: string, tokenValue?: string) =>
      db.transaction().execute(async (tx) => {
        const account = await createAccount(tx, email, 'Owner');
        const token = await createToken(tx, {
          kind: 'pat',
          accountId: account.id,
          note: 'bootstrap',
          ...(tokenValue ? { value: tokenValue } : {}),
        });
        const workspace = await createWorkspace(tx, account, workspaceName);
        return { account: toAccount(account), token, workspace: toWorkspace(workspace, 0, 'owner') };
      }),

    async getWorkspace(actor: Actor, id: string): Promise<Workspace> {
      if (id !== actor.workspaceId) throw errors.notFound('Workspace', id);
      authorize(actor, 'workspace.read');
      const repo = identityRepo(db);
      const row = await repo.workspaceById(id);
      if (!row) throw errors.notFound('Workspace', id);
      return toWorkspace(row, await repo.countBots(id), actor.kind === 'member' ? actor.role : undefined);
    },

    async updateWorkspace(
      actor: Actor,
      id: string,
      body: {
        name?: string | undefined;
        about?: string | undefined;
        contactEmail?: string | undefined;
        website?: string | undefined;
      },
    ): Promise<Workspace> {
      await this.getWorkspace(actor, id);
      authorize(actor, 'workspace.update');
      const values: Partial<WorkspaceRow> = { updated_at: now() };
      if (body.name !== undefined) values.name = body.name;
      if (body.about !== undefined) values.about = body.about;
      if (body.contactEmail !== undefined) values.contact_email = body.contactEmail;
      if (body.website !== undefined) values.website = body.website;
      await db.transaction().execute(async (tx) => {
        await identityRepo(tx).updateWorkspace(id, values);
        await audit.record(tx, id, auditWho(actor), {
          action: 'UPDATE_WORKSPACE',
          resourceId: id,
          resourceName: body.name ?? null,
          value: body,
        });
      });
      return this.getWorkspace(actor, id);
    },

    async deleteWorkspace(actor: Actor, id: string): Promise<void> {
      await this.getWorkspace(actor, id);
      authorize(actor, 'workspace.delete');
      await db.transaction().execute((tx) => identityRepo(tx).deleteWorkspace(id, now()));
    },

    async usages(actor: Actor, id: string): Promise<Usage[]> {
      await this.getWorkspace(actor, id);
      authorize(actor, 'usage.read');
      const repo = identityRepo(db);
      const period = now().slice(0, 7);
      const figure = (type: string, value: number, quota: number | null): Usage => ({
        id,
        period,
        type,
        value,
        quota,
      });
      return [
        figure('bot_count', await repo.countBots(id), deps.config.quotas.botsPerWorkspace),
        figure('workspace_member_count', await repo.countMembers(id), null),
        figure('integration_count', await repo.countIntegrations(id), null),
        ...(await Promise.all(usageSources.map((source) => source(id))))
          .flat()
          .map((u) => figure(u.type, u.value, u.quota)),
      ];
    },

    /** Lets other modules (files, knowledge) add their figures to a workspace's usages. */
    addUsageSource(source: UsageSource): void {
      usageSources.push(source);
    },

    async listMembers(
      actor: Actor,
      query: { nextToken?: string | undefined; pageSize?: number | undefined },
    ): Promise<Page<Member>> {
      authorize(actor, 'member.read');
      const limit = query.pageSize ?? 20;
      const rows = await identityRepo(db).members(
        actor.workspaceId,
        limit,
        decodeCursor(query.nextToken, 'id:asc'),
      );
      const page = toPage(rows, limit, 'id:asc', (r) => [r.id, r.id]);
      return { items: page.items.map(toMember), ...(page.nextToken ? { nextToken: page.nextToken } : {}) };
    },

    async getMe(actor: Actor): Promise<Member> {
      const me = requireMember(actor);
      const row = await identityRepo(db).memberOfAccount(me.workspaceId, me.accountId);
      if (!row) throw errors.notFound('Member', me.accountId);
      return toMember(row);
    },

    async getMember(actor: Actor, id: string): Promise<Member> {
      authorize(actor, 'member.read');
      return toMember(await member(actor, id));
    },

    /**
     * Invites an e-mail: a pending member with a one-time invitation code, which the inviting administrator
     * hands to that person. The invitation is the credential: it grants nothing until the person it names
     * accepts it, and an e-mail that an account already holds is accepted only by that account, signed in
     * (so nobody who registered someone else's e-mail elsewhere gains a role here). `direct` (the
     * operator's command line, which created the account in the same command) links an existing account
     * at once instead.
     */
    async addMember(
      actor: Actor,
      body: { email: string; role: Role },
      options: { direct?: boolean } = {},
    ): Promise<Member & { invitation?: { code: string; expiresAt: string } }> {
      authorize(actor, 'member.add');
      const me = requireMember(actor);
      if (body.role === 'owner' && me.role !== 'owner')
        throw errors.forbidden('Only an owner can add another owner');
      const email = body.email.toLowerCase();
      return db.transaction().execute(async (tx) => {
        const repo = identityRepo(tx);
        const existing = await repo.memberByEmail(me.workspaceId, email);
        const account = options.direct ? await repo.accountByEmail(email) : undefined;
        const at = now();
        if (existing) {
          throw errors.alreadyExists(
            existing.account_id === null
              ? `${email} is already invited to this workspace: the invitation stays valid until it is accepted or the member removed`
              : `${email} is already a member of this workspace`,
          );
        }
        const id = newId('member');
        await repo.insertMember({
          id,
          workspace_id: me.workspaceId,
          account_id: account?.id ?? null,
          email,
          role: body.role,
          created_at: at,
          updated_at: at,
        });
        let invitation: { code: string; expiresAt: string } | undefined;
        if (!account) {
          const code = newInvitationCode();
          const expiresAt = new Date(clock().getTime() + INVITATION_TTL_MS).toISOString();
          await repo.insertInvitation({
            id: newId('inv'),
            member_id: id,
            code_hash: hashToken(code),
            expires_at: expiresAt,
            created_at: at,
          });
          invitation = { code, expiresAt };
        }
        await audit.record(tx, me.workspaceId, auditWho(actor), {
          action: 'ADD_WORKSPACE_MEMBER',
          resourceId: id,
          resourceName: email,
          value: { role: body.role },
        });
        const row = await repo.memberById(me.workspaceId, id);
        return { ...toMember(row as MemberView), ...(invitation ? { invitation } : {}) };
      });
    },

    async updateMember(actor: Actor, id: string, body: { role: Role }): Promise<Member> {
      authorize(actor, 'member.update');
      const me = requireMember(actor);
      const target = await member(actor, id);
      if ((target.role === 'owner' || body.role === 'owner') && me.role !== 'owner') {
        throw errors.forbidden('Only an owner can grant or change the owner role');
      }
      await db.transaction().execute(async (tx) => {
        const repo = identityRepo(tx);
        if (
          target.role === 'owner' &&
          body.role !== 'owner' &&
          (await repo.countOwners(me.workspaceId)) <= 1
        ) {
          throw errors.forbidden('A workspace keeps at least one owner: make another member owner first');
        }
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

    async removeMember(actor: Actor, id: string): Promise<void> {
      authorize(actor, 'member.remove');
      const me = requireMember(actor);
      const target = await member(actor, id);
      if (target.role === 'owner' && me.role !== 'owner')
        throw errors.forbidden('Only an owner can remove an owner');
      await db.transaction().execute(async (tx) => {
        const repo = identityRepo(tx);
        if (target.role === 'owner' && target.account_id && (await repo.countOwners(me.workspaceId)) <= 1) {
          throw errors.forbidden('A workspace keeps at least one owner: make another member owner first');
        }
        await repo.deleteMember(id);
        await audit.record(tx, me.workspaceId, auditWho(actor), {
          action: 'REMOVE_WORKSPACE_MEMBER',
          resourceId: id,
          resourceName: target.email,
        });
      });
    },

    /**
     * Redeems an invitation code. Without a caller it creates the account of the invited e-mail and answers
     * its first personal access token; when an account already holds that e-mail, only that account, signed
     * in (`caller`), may accept, and the code then adds it to the workspace without a new token.
     */
    async acceptInvitation(
      body: { code: string; displayName?: string | undefined },
      caller?: Principal,
    ): Promise<{ account: Account; token?: CreatedToken; workspaceId: string }> {
      if (caller && caller.kind !== 'account')
        throw errors.forbidden('Only a person (a personal access token) can accept an invitation');
      return db.transaction().execute(async (tx) => {
        const repo = identityRepo(tx);
        const inv = await repo.invitationByCodeHash(hashToken(body.code));
        if (!inv) throw errors.notFound('Invitation', 'code');
        if (inv.used_at !== null || inv.account_id !== null)
          throw errors.gone('This invitation has already been used');
        if (Date.parse(inv.expires_at) <= clock().getTime())
          throw errors.gone('This invitation has expired; ask an administrator to invite you again');
        if (caller && caller.email.toLowerCase() !== inv.email.toLowerCase()) {
          throw errors.forbidden(
            `This invitation is for ${inv.email}, and you are signed in as ${caller.email}: only ${inv.email} can accept it`,
          );
        }
        const holder = await repo.accountByEmail(inv.email);
        if (holder && !caller) {
          throw errors.alreadyExists(
            `An account with e-mail ${inv.email} already exists: accept the invitation signed in as it (its token in the Authorization header)`,
          );
        }
        const used = await repo.useInvitation(inv.id, now());
        if (Number(used.numUpdatedRows) !== 1) throw errors.gone('This invitation has already been used');
        const account = holder ?? (await createAccount(tx, inv.email, body.displayName));
        await repo.linkMember(inv.member_id, account.id, now());
        const token = holder
          ? undefined
          : await createToken(tx, { kind: 'pat', accountId: account.id, note: 'invitation' });
        await audit.record(
          tx,
          inv.workspace_id,
          { accountId: account.id, email: account.email },
          {
            action: 'ACCEPT_WORKSPACE_INVITATION',
            resourceId: inv.member_id,
            resourceName: account.email,
          },
        );
        return { account: toAccount(account), ...(token ? { token } : {}), workspaceId: inv.workspace_id };
      });
    },
  };
}
/** The identity service. */
export type IdentityService = ReturnType<typeof identityService>;
