import type {
  Account,
  CreatedToken,
  Member,
  Role,
  Session,
  TokenInfo,
  Usage,
  Workspace,
} from '@parley/protocol';
import type { Kysely } from 'kysely';
import type { Actor, Principal } from '../../access/principal.js';
import type { TokenKind } from '../../access/tokens.js';
import type { Database } from '../../db/schema.js';
import type { AuthResolver } from '../../http/context.js';
import type { Page } from '../../http/pagination.js';
import type { PageRequest } from '../../http/route-helpers.js';
import type { AuditAction } from '../audit/service.js';
import type { AccountRow, WorkspaceRow } from './repo.js';

/** How long an invitation code stays valid. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

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

/** What a caller asks of a new token or key: a note, and an expiry in the future. */
export interface TokenRequest {
  note?: string | undefined;
  expiresAt?: string | undefined;
}

/** Who holds a key: a bot (its bot access keys) or an integration installed on a bot (its integration keys). */
export type KeyHolder =
  | { kind: 'bak'; botId: string }
  | { kind: 'iak'; botId: string; integrationId: string };

/**
 * The keys of a holder that the Admin API lists, creates and revokes, `Holder` naming it by the route's
 * parameters: `[id: string]` for a bot, `[botId: string, integrationId: string]` for an installed integration.
 */
export interface HolderKeys<Holder extends string[]> {
  listKeys(actor: Actor, ...holder: Holder): Promise<TokenInfo[]>;
  createKey(actor: Actor, ...holderAndBody: [...holder: Holder, body: TokenRequest]): Promise<CreatedToken>;
  revokeKey(actor: Actor, ...holderAndKey: [...holder: Holder, keyId: string]): Promise<void>;
}

/** The audit record of a key's creation or revocation (its resourceId is the key's id). */
export interface KeyAudit {
  action: AuditAction;
  /** The name of the holder (the bot's or the integration's). */
  resourceName: string;
  value?: unknown;
}

/** Usage figures another module contributes for a workspace. */
export type UsageSource = (
  workspaceId: string,
) => Promise<Array<{ type: string; value: number; quota: number | null }>>;

/** The fields of a workspace an update may change. */
export interface WorkspaceChanges {
  name?: string | undefined;
  about?: string | undefined;
  contactEmail?: string | undefined;
  website?: string | undefined;
}

/** A member as adding one answers it: with the one-time invitation code when one was issued. */
export type AddedMember = Member & { invitation?: { code: string; expiresAt: string } };

/** A redeemed invitation: the account, its first token when the account was created, and the workspace. */
export interface AcceptedInvitation {
  /** The e-mail the invitation names. */
  email: string;
  workspaceId: string;
  /** The account that accepted: only when it accepted signed in (an anonymous answer tells nothing of accounts). */
  account?: Account;
}

/** Steps for callers that compose one transaction of their own (bootstrap). */
export interface IdentitySteps {
  /** Stores an account (its e-mail lowercased); 409 when the e-mail is taken. */
  createAccount(tx: Kysely<Database>, email: string, displayName?: string): Promise<AccountRow>;
  /** Stores an account's password, hashed already (access/passwords.ts `hashPassword`). */
  setPasswordHash(tx: Kysely<Database>, accountId: string, hash: string): Promise<void>;
  /** Stores a workspace with `owner` as its owner, and its audit record. */
  createWorkspace(tx: Kysely<Database>, owner: AccountRow, name: string): Promise<WorkspaceRow>;
}

/** Accounts: the people behind personal access tokens. */
export interface IdentityAccounts {
  /** Creates an account (CLI, tests) with its first personal access token (`tokenValue`, else a random one). */
  createAccount(
    email: string,
    displayName?: string,
    tokenValue?: string,
  ): Promise<{ account: Account; token: CreatedToken }>;
  accountByEmail(email: string): Promise<Account | undefined>;
  /** The caller's account: 403 for a bot or integration key, 401 when the account is gone. */
  getAccount(principal: Principal): Promise<Account>;
  updateAccount(principal: Principal, body: { displayName: string }): Promise<Account>;
}

/** Tokens: issuing any kind, and the personal access tokens of the caller's account. */
export interface IdentityTokens {
  /** Issues a token inside the caller's transaction; 400 when its expiry is not in the future. */
  createToken(tx: Kysely<Database>, spec: NewToken): Promise<CreatedToken>;
  listPats(principal: Principal): Promise<TokenInfo[]>;
  createPat(principal: Principal, body: TokenRequest): Promise<CreatedToken>;
  /** Registers a chosen value as a personal access token of an account (PARLEY_ADMIN_TOKEN); no-op if it exists. */
  ensurePat(accountId: string, value: string, note: string): Promise<void>;
  /** Revokes one of the caller's personal access tokens; 404 when it is not a live one of theirs. */
  deletePat(principal: Principal, id: string): Promise<void>;
}

/**
 * Keys the bots and integrations modules hand out (bot access keys, integration keys): they check the bot
 * or the installation and the caller's permission, then issue, list and revoke keys here.
 */
export interface IdentityKeys {
  /** The live keys of a holder, by id. */
  listKeys(holder: KeyHolder): Promise<TokenInfo[]>;
  /** Issues a key to a holder with its audit record, in one transaction. */
  createKey(actor: Actor, holder: KeyHolder, body: TokenRequest, audit: KeyAudit): Promise<CreatedToken>;
  /** Revokes a live key of the holder with its audit record; 404 when the holder has no such live key. */
  revokeKey(actor: Actor, holder: KeyHolder, keyId: string, audit: KeyAudit): Promise<void>;
  /** Revokes every key of an integration on a bot, inside the caller's transaction (uninstalling). */
  revokeIntegrationKeys(tx: Kysely<Database>, botId: string, integrationId: string): Promise<void>;
}

/** Workspaces: the caller's list, creation by an account, and the workspace an actor acts in. */
export interface IdentityWorkspaces {
  /** The workspaces the caller's account is a member of, oldest first. */
  listWorkspaces(principal: Principal, query: PageRequest): Promise<Page<Workspace>>;
  /** Creates a workspace owned by the caller's account. */
  createWorkspace(principal: Principal, body: { name: string }): Promise<Workspace>;
  /** The actor's workspace: 404 for any other id. */
  getWorkspace(actor: Actor, id: string): Promise<Workspace>;
  updateWorkspace(actor: Actor, id: string, body: WorkspaceChanges): Promise<Workspace>;
  /** Deletes the workspace with everything in it (owner only). */
  deleteWorkspace(actor: Actor, id: string): Promise<void>;
}

/** Members of the actor's workspace: listed, read, added. */
export interface IdentityMembers {
  listMembers(actor: Actor, query: PageRequest): Promise<Page<Member>>;
  /** The caller's own membership (403 for a bot or integration key). */
  getMe(actor: Actor): Promise<Member>;
  getMember(actor: Actor, id: string): Promise<Member>;
  /**
   * Invites an e-mail: a pending member with a one-time invitation code, which the inviting administrator
   * hands to that person. The invitation is the credential: it grants nothing until the person it names
   * accepts it, and an e-mail that an account already holds is accepted only by that account, signed in
   * (so nobody who registered someone else's e-mail elsewhere gains a role here). `direct` (the
   * operator's command line, which created the account in the same command) links an existing account
   * at once instead.
   */
  addMember(
    actor: Actor,
    body: { email: string; role: Role },
    options?: { direct?: boolean },
  ): Promise<AddedMember>;
  /**
   * A new invitation code for a member who has not joined yet, valid 7 days from now; the member's earlier
   * codes stop working (only a hash of a code is kept, so a code is never shown twice: a new one is issued).
   * 409 once the member joined; only an owner renews an owner's invitation.
   */
  renewInvitation(actor: Actor, id: string): Promise<{ code: string; expiresAt: string }>;
}

/** The roles of the members of the actor's workspace. */
export interface IdentityRoles {
  /** Changes a member's role; only an owner grants or changes the owner role, and the last owner stays. */
  updateMember(actor: Actor, id: string, body: { role: Role }): Promise<Member>;
  /** Removes a member; only an owner removes an owner, and the last owner stays. */
  removeMember(actor: Actor, id: string): Promise<void>;
}

/** Redeeming the invitation codes members are added with. */
export interface IdentityInvitations {
  /**
   * Redeems an invitation code. Signed in (`caller`), only the account of the invited e-mail may accept, and the
   * answer names it. Without a caller (`client` counts its password check as a sign-in attempt), `password` is
   * required and the answer is the same whatever accounts exist: the account of the e-mail is created with it,
   * or, when an invitation from another workspace made it and nobody has signed into it yet, reset to it; an
   * account someone has signed into joins only when `password` is its own. Then the person signs in.
   */
  acceptInvitation(
    body: { code: string; displayName?: string | undefined; password?: string | undefined },
    caller: Principal | undefined,
    client: SignInClient,
  ): Promise<AcceptedInvitation>;
}

/** Where a sign-in comes from, kept with its session for the account's list. */
export interface SignInClient {
  userAgent: string;
  address: string;
}

/** A sign-in: the account, its new session, and the session's secret (the cookie's value, shown this once). */
export interface SignedIn {
  account: Account;
  session: Session;
  secret: string;
}

/** Passwords of accounts (scrypt, access/passwords.ts): set by the operator, changed by their holder. */
export interface IdentityPasswords {
  /** Sets an account's password (the CLI); 404 for an unknown e-mail, 400 outside the policy. Ends every session. */
  setPassword(email: string, password: string): Promise<Account>;
  /**
   * Changes the caller's password: `current` must be right (403 otherwise, counted as a failed sign-in) unless
   * the account has none yet. Every other session of the account ends; answers how many.
   */
  changePassword(
    principal: Principal,
    body: { current?: string | undefined; new: string },
    client: SignInClient,
  ): Promise<{ revokedSessions: number }>;
}

/** Sessions: a password's sign-in, and the account's sessions listed and ended. */
export interface IdentitySessions {
  /**
   * Signs in with an e-mail and a password: 401 with one message whether the e-mail or the password is wrong
   * (an unknown e-mail costs the same hashing), 429 after too many failures for the e-mail or the address.
   */
  signIn(body: { email: string; password: string }, client: SignInClient): Promise<SignedIn>;
  /** The caller's live sessions, oldest first; `current` marks the one the request came with. */
  listSessions(principal: Principal): Promise<Session[]>;
  /** Ends one of the caller's sessions; 404 when it is not a live one of theirs. */
  revokeSession(principal: Principal, id: string): Promise<void>;
  /** Ends every session of the caller's account (this one too); answers how many. */
  revokeAllSessions(principal: Principal): Promise<{ revokedSessions: number }>;
}

/** The usage figures of a workspace. */
export interface IdentityUsage {
  /** Bots, members and integrations, and the figures other modules contribute, for this month. */
  usages(actor: Actor, id: string): Promise<Usage[]>;
  /** Lets other modules (files, knowledge) add their figures to a workspace's usages. */
  addUsageSource(source: UsageSource): void;
}

/**
 * The identity model: accounts, tokens, keys, workspaces, members, roles, invitations and usage, and the
 * {@link AuthResolver} the HTTP hooks authenticate with. One interface per use case, each implemented in a
 * file of its own (accounts.ts, tokens.ts, passwords.ts, sessions.ts…) and composed by `identityService`;
 * a session is one more way to the account principal (resolver.ts `resolveSession`).
 */
export interface IdentityService
  extends IdentityAccounts,
    IdentityTokens,
    IdentityKeys,
    IdentityWorkspaces,
    IdentityMembers,
    IdentityRoles,
    IdentityInvitations,
    IdentityPasswords,
    IdentitySessions,
    IdentityUsage {
  /** Resolves tokens to principals and principals to actors of a workspace. */
  resolver: AuthResolver;
  /** Building blocks for callers that compose one transaction (bootstrap). */
  tx: IdentitySteps;
}
