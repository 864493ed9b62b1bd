/** The identity module's rows and the queries its repository answers (repo.ts builds them; repo-members.ts a part). */
import type { Selectable, UpdateResult } from 'kysely';
import type { TokensTable } from '../../db/tables/bots.js';
import type {
  AccountsTable,
  InvitationsTable,
  MembersTable,
  WorkspacesTable,
} from '../../db/tables/identity.js';
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
export type MemberView = MemberRow & { display_name: string | null; invitation_expires_at: string | null };
/** A workspace row with the role the listing account holds there. */
export type WorkspaceOfAccount = WorkspaceRow & { role: string };
/** An invitation row as stored (no `used_at` yet). */
export type NewInvitationRow = Omit<Selectable<InvitationsTable>, 'used_at'>;
/** An invitation with the member it invites. */
export interface InvitationView {
  id: string;
  code_hash: string;
  expires_at: string;
  used_at: string | null;
  member_id: string;
  email: string;
  workspace_id: string;
  account_id: string | null;
}
/** Whose tokens to list: an account's, a bot's, or an integration's on a bot. */
export interface TokenOwner {
  account_id?: string;
  bot_id?: string;
  integration_id?: string;
}

/** Which live tokens a revocation ends: one token, every token of an account, or an integration's keys on a bot. */
export type TokenMatch = { id: string } | { account_id: string } | { bot_id: string; integration_id: string };

/** Accounts and their tokens. */
export interface AccountQueries {
  insertAccount(row: AccountRow): Promise<void>;
  accountById(id: string): Promise<AccountRow | undefined>;
  /** The account of an e-mail, whatever its case. */
  accountByEmail(email: string): Promise<AccountRow | undefined>;
  updateAccount(
    id: string,
    values: Partial<Pick<AccountRow, 'display_name' | 'updated_at' | 'unclaimed_via'>>,
  ): Promise<void>;
  /** Marks an account claimed (someone signed into it): no invitation resets it any more. */
  claimAccount(id: string): Promise<void>;

  insertToken(row: TokenRow): Promise<void>;
  tokenByHash(hash: string): Promise<TokenRow | undefined>;
  tokenById(id: string): Promise<TokenRow | undefined>;
  /** Sets `last_used_at` to `at` unless the token was used after `olderThan`. */
  touchToken(id: string, at: string, olderThan: string): Promise<void>;
  /** Live tokens of one kind held by an owner, by id. */
  tokensOf(owner: TokenOwner, kind: string): Promise<TokenRow[]>;
  /** Revokes the live tokens that match (`numUpdatedRows` 0 when none was live: revoked already). */
  revokeTokens(match: TokenMatch, at: string): Promise<UpdateResult>;
}

/** Workspaces, and what they hold, counted. */
export interface WorkspaceQueries {
  insertWorkspace(row: WorkspaceRow): Promise<void>;
  workspaceById(id: string): Promise<WorkspaceRow | undefined>;
  updateWorkspace(id: string, values: Partial<WorkspaceRow>): Promise<void>;
  /** Deletes a workspace and all it holds; its files' blobs are queued for deletion first. */
  deleteWorkspace(id: string, at: string): Promise<void>;
  /** Workspaces an account is an active member of, by creation, keyset-paginated on (created_at, id). */
  workspacesOf(accountId: string, limit: number, after: Cursor | undefined): Promise<WorkspaceOfAccount[]>;
  countBots(workspaceId: string): Promise<number>;
  countMembers(workspaceId: string): Promise<number>;
  countIntegrations(workspaceId: string): Promise<number>;
}

/** The members of workspaces. */
export interface MemberQueries {
  insertMember(row: MemberRow): Promise<void>;
  memberById(workspaceId: string, id: string): Promise<MemberView | undefined>;
  memberOfAccount(workspaceId: string, accountId: string): Promise<MemberView | undefined>;
  memberByEmail(workspaceId: string, email: string): Promise<MemberRow | undefined>;
  /** `limit + 1` members of a workspace after the cursor, by id. */
  members(workspaceId: string, limit: number, after: Cursor | undefined): Promise<MemberView[]>;
  updateMemberRole(id: string, role: string, at: string): Promise<void>;
  linkMember(id: string, accountId: string, at: string): Promise<void>;
  deleteMember(id: string): Promise<void>;
  /** Removes an account from every workspace it is a member of. */
  deleteMembershipsOf(accountId: string): Promise<void>;
  /** Owners of a workspace who have accepted (pending owner invitations do not count). */
  countOwners(workspaceId: string): Promise<number>;
}

/** Invitations and the members they invite. */
export interface InvitationQueries {
  insertInvitation(row: NewInvitationRow): Promise<void>;
  invitationByCodeHash(codeHash: string): Promise<InvitationView | undefined>;
  /** Marks an invitation used (`numUpdatedRows` 0 when it was used already). */
  useInvitation(id: string, at: string): Promise<UpdateResult>;
  /** Deletes the member's invitations not used yet (their codes stop working). */
  dropInvitationsOf(memberId: string): Promise<void>;
}

/** The bots and installations keys belong to, and the meta table. */
export interface LookupQueries {
  /** The bot a bot access key belongs to. */
  botForKey(botId: string): Promise<{ id: string; workspace_id: string } | undefined>;
  /** The installation an integration key belongs to, with its bot's workspace. */
  installation(
    botId: string,
    integrationId: string,
  ): Promise<{ bot_id: string; integration_id: string; workspace_id: string } | undefined>;

  getMeta(key: string): Promise<{ value: string } | undefined>;
  insertMeta(key: string, value: string): Promise<void>;
}

/** Queries of accounts, tokens, workspaces, members and invitations. */
export interface IdentityRepo
  extends AccountQueries,
    WorkspaceQueries,
    MemberQueries,
    InvitationQueries,
    LookupQueries {}
