import type { Account, Member, Role, TokenInfo, Workspace } from '@parley/protocol';
import type { AccountRow, MemberView, TokenRow, WorkspaceRow } from './repo.js';

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

/** Shapes a member row for the wire: `invited` until an account holds the membership. */
export function toMember(row: MemberView): Member {
  return {
    id: row.id,
    ...(row.account_id ? { userId: row.account_id } : {}),
    email: row.email,
    ...(row.display_name ? { displayName: row.display_name } : {}),
    role: row.role as Role,
    createdAt: row.created_at,
    status: row.account_id ? 'active' : 'invited',
    ...(!row.account_id && row.invitation_expires_at
      ? { invitationExpiresAt: row.invitation_expires_at }
      : {}),
  };
}

/** Shapes a workspace row for the wire, with its bot count and the caller's role when known. */
export function toWorkspace(row: WorkspaceRow, botCount: number, role?: string): Workspace {
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
