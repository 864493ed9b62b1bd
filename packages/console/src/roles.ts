import type { Bot, Member, Role } from '@parley/client';
import { type MessageKey, t } from './i18n.js';

/** The roles of a workspace, least to most rights, as the Admin API names them. */
export const ROLES: readonly Role[] = ['viewer', 'billing', 'developer', 'manager', 'administrator', 'owner'];

/** Each role's name and what it may do (docs/admin-api.md#roles), as catalog keys. */
const ROLE_WORDS = {
  viewer: ['role.viewer', 'roleAbout.viewer'],
  billing: ['role.billing', 'roleAbout.billing'],
  developer: ['role.developer', 'roleAbout.developer'],
  manager: ['role.manager', 'roleAbout.manager'],
  administrator: ['role.administrator', 'roleAbout.administrator'],
  owner: ['role.owner', 'roleAbout.owner'],
} as const satisfies Record<Role, readonly [MessageKey, MessageKey]>;

/** A role in words, in the Console's language. */
export const roleName = (role: Role): string => t(ROLE_WORDS[role][0]);

/** What a role may do, in a line: said beside the role picker. */
export const roleDescription = (role: Role): string => t(ROLE_WORDS[role][1]);

// What the Console offers mirrors the server's permission policy (packages/server/src/access/policy.ts); the
// server decides anyway, and a 403 is shown in words if the two ever differ.

/** Whether `role` may invite, change and remove members (`member.add`, `member.update`, `member.remove`). */
export function mayManageMembers(role: Role | undefined): boolean {
  return role === 'owner' || role === 'administrator';
}

/** The roles `role` may give: only an owner makes owners. */
export function grantableRoles(role: Role | undefined): Role[] {
  if (!mayManageMembers(role)) return [];
  return role === 'owner' ? [...ROLES] : ROLES.filter((r) => r !== 'owner');
}

/** Whether `me` may change or remove `member`: never oneself here, and only an owner touches an owner. */
export function mayChangeMember(me: Member | undefined, member: Member): boolean {
  if (!me || !mayManageMembers(me.role) || member.id === me.id) return false;
  return member.role !== 'owner' || me.role === 'owner';
}

/** Whether `role` may create and change bots (`bot.create`, `bot.update`). */
export function mayEditBots(role: Role | undefined): boolean {
  return role === 'developer' || role === 'manager' || role === 'administrator' || role === 'owner';
}

/**
 * Whether `role` may take over, hand back and resolve a bot's conversations and reply in them
 * (`conversation.handoff`: developers and above; a viewer reads only).
 */
export function mayHandoff(role: Role | undefined): boolean {
  return role === 'developer' || role === 'manager' || role === 'administrator' || role === 'owner';
}

/** Whether `role` may read the workspace's audit records (`audit.read`: managers and above). */
export function mayReadAudit(role: Role | undefined): boolean {
  return role === 'manager' || role === 'administrator' || role === 'owner';
}

/** Whether `member` may delete `bot` (`bot.delete`: developers and managers only the bots they created). */
export function mayDeleteBot(member: Member | undefined, bot: Bot): boolean {
  if (!member) return false;
  if (member.role === 'owner' || member.role === 'administrator') return true;
  return (member.role === 'developer' || member.role === 'manager') && bot.createdBy === member.userId;
}

/** Whether `role` may create and revoke a bot's access keys (`botKey.create`, `botKey.revoke`). */
export function mayManageBotKeys(role: Role | undefined): boolean {
  return role === 'developer' || role === 'manager' || role === 'administrator' || role === 'owner';
}

/** Whether `role` may change the workspace's settings (`workspace.update`: administrators and owners). */
export function mayEditWorkspace(role: Role | undefined): boolean {
  return role === 'owner' || role === 'administrator';
}

/**
 * Whether `role` may upload, change and delete a bot's files and manage its knowledge bases (`file.create`,
 * `file.update`, `file.delete`: developers and above; a viewer only reads).
 */
export function mayChangeFiles(role: Role | undefined): boolean {
  return role === 'developer' || role === 'manager' || role === 'administrator' || role === 'owner';
}

/**
 * Whether `role` may read a bot's chat secrets, the webchat's `adminKey` among them (`chatSecret.reveal`:
 * developers and above; the Admin API leaves the key out for the others).
 */
export function mayReadChatSecrets(role: Role | undefined): boolean {
  return role === 'developer' || role === 'manager' || role === 'administrator' || role === 'owner';
}

/** Whether `role` may change a bot's webchat configuration (`webchat.update`: developers and above). */
export function mayEditWebchat(role: Role | undefined): boolean {
  return role === 'developer' || role === 'manager' || role === 'administrator' || role === 'owner';
}

/** Whether `role` may add, change and delete a bot's Q&A entries (`qa.write`: developers and above). */
export function mayWriteQa(role: Role | undefined): boolean {
  return role === 'developer' || role === 'manager' || role === 'administrator' || role === 'owner';
}
