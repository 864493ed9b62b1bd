/* Row types of accounts, their passwords, sessions and sign-in failures, workspaces, members and
 * invitations. Timestamps are ISO 8601 text; booleans are 0/1. */

export interface AccountsTable {
  id: string;
  email: string;
  display_name: string;
  created_at: string;
  updated_at: string;
  /** The workspace whose invitation made the account, until someone signs into it; null for a claimed account. */
  unclaimed_via: string | null;
}

/** An account's password: `scrypt$…` with its parameters and salt (see access/passwords.ts). */
export interface AccountPasswordsTable {
  account_id: string;
  hash: string;
  updated_at: string;
}

/** A signed-in session: `hash` is the SHA-256 of the cookie's value, never the value itself. */
export interface SessionsTable {
  id: string;
  hash: string;
  account_id: string;
  user_agent: string;
  address: string;
  created_at: string;
  last_seen_at: string;
  /** The absolute end; the idle end is `last_seen_at` plus the idle limit. */
  expires_at: string;
  revoked_at: string | null;
}

/** One failed sign-in, counted against its key (`email:…` or `address:…`) while it is in the window. */
export interface SignInFailuresTable {
  key: string;
  failed_at: string;
  /** The attempt that reserved the row (rows from before attempts were reserved have none). */
  attempt: string | null;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  owner_id: string;
  about: string;
  contact_email: string;
  website: string;
  created_at: string;
  updated_at: string;
}

export interface MembersTable {
  id: string;
  workspace_id: string;
  account_id: string | null;
  email: string;
  role: string;
  created_at: string;
  updated_at: string;
}

export interface InvitationsTable {
  id: string;
  member_id: string;
  code_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}
