import type { Role } from '@parley/protocol';

/** What can be done to files. `download` is reading the content through a URL. */
export const FILE_ACTIONS = ['create', 'read', 'list', 'search', 'update', 'delete', 'download'] as const;
/** A file action. */
export type FileAction = (typeof FILE_ACTIONS)[number];

/**
 * A rule of the file policy: always, never, only on files the caller created, on those or files shared
 * with integrations by the `integrations` policy, or only files with the `public_content` policy.
 */
export type FileRule = true | false | 'created' | 'createdOrShared' | 'publicContent';

/** Callers of the Files API. Members act with their role in the bot's workspace. */
export type FileActor =
  | { kind: 'public' }
  | { kind: 'bot'; botId: string }
  | { kind: 'integration'; integrationId: string; botId: string }
  | { kind: 'member'; role: Role; accountId: string };

/** The columns of the table. */
export type FileActorKey = 'public' | 'bot' | 'integration' | Role;

/** What the policy needs to know about a file. */
export interface FileFacts {
  ownerType: 'bot' | 'integration' | 'user';
  ownerId: string | null;
  accessPolicies: readonly string[];
}

const ALL: Record<FileAction, FileRule> = {
  create: true,
  read: true,
  list: true,
  search: true,
  update: true,
  delete: true,
  download: true,
};
const NONE: Record<FileAction, FileRule> = {
  create: false,
  read: false,
  list: false,
  search: false,
  update: false,
  delete: false,
  download: false,
};

/**
 * The spec's "File permissions" table as data. Public: download of `public_content` files only. Bot: every
 * file of its own bot, whoever created it. Integration: everything on files it created for the bot it is
 * installed on; read, search, list (and download) on files with the `integrations` policy. Viewer: read,
 * search, list. Developer, manager, administrator (and owner): everything. Billing: nothing. Members and the
 * bot see files created by the bot or a user whatever their access policies.
 */
export const FILE_POLICY: Readonly<Record<FileActorKey, Readonly<Record<FileAction, FileRule>>>> = {
  public: { ...NONE, download: 'publicContent' },
  bot: ALL,
  integration: {
    create: true,
    read: 'createdOrShared',
    list: 'createdOrShared',
    search: 'createdOrShared',
    download: 'createdOrShared',
    update: 'created',
    delete: 'created',
  },
  viewer: { ...NONE, read: true, list: true, search: true, download: true },
  billing: NONE,
  developer: ALL,
  manager: ALL,
  administrator: ALL,
  owner: ALL,
};

function key(actor: FileActor): FileActorKey {
  return actor.kind === 'member' ? actor.role : actor.kind;
}

/** The rule for an actor and action, before looking at any file. */
export function fileRule(actor: FileActor, action: FileAction): FileRule {
  return FILE_POLICY[key(actor)][action];
}

/** True when `actor` may do `action` on a file with these facts (`create` needs no file). */
export function canFile(actor: FileActor, action: FileAction, file?: FileFacts): boolean {
  const rule = FILE_POLICY[key(actor)][action];
  if (typeof rule === 'boolean') return rule;
  if (!file) return false;
  const created =
    actor.kind === 'integration' && file.ownerType === 'integration' && file.ownerId === actor.integrationId;
  switch (rule) {
    case 'created':
      return created;
    case 'createdOrShared':
      return created || file.accessPolicies.includes('integrations');
    case 'publicContent':
      return file.accessPolicies.includes('public_content');
  }
}
