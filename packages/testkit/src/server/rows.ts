// Rows of the owning tables (accounts, workspaces, bots) as tests and contract suites insert them: every
// column a new row has, made at ROW_TIME, with the caller's overrides on top.
import type { Selectable } from 'kysely';
import type { BotsTable } from '../../../server/src/db/tables/bots.js';
import type { AccountsTable, WorkspacesTable } from '../../../server/src/db/tables/identity.js';
import { newBotId, newId } from '../../../server/src/ids.js';

/** When a row is made unless its overrides say otherwise. */
export const ROW_TIME = '2026-01-01T00:00:00.000Z';

/** A new account with an address of its own. */
export function accountRow(overrides: Partial<Selectable<AccountsTable>> = {}): Selectable<AccountsTable> {
  const id = newId('user');
  return {
    id,
    email: `${id.toLowerCase()}@example.com`,
    display_name: 'Test user',
    created_at: ROW_TIME,
    updated_at: ROW_TIME,
    unclaimed_via: null,
    ...overrides,
  };
}

/** A new workspace owned by `ownerId`, its profile empty. */
export function workspaceRow(
  ownerId: string,
  overrides: Partial<Selectable<WorkspacesTable>> = {},
): Selectable<WorkspacesTable> {
  return {
    id: newId('wkspace'),
    name: 'Test workspace',
    owner_id: ownerId,
    about: '',
    contact_email: '',
    website: '',
    created_at: ROW_TIME,
    updated_at: ROW_TIME,
    ...overrides,
  };
}

/** A new knowledge bot of `workspaceId`, every setting its default. */
export function botRow(
  workspaceId: string,
  overrides: Partial<Selectable<BotsTable>> = {},
): Selectable<BotsTable> {
  return {
    id: newBotId(),
    workspace_id: workspaceId,
    name: 'Bot',
    description: '',
    dev: 0,
    status: 'active',
    created_by: 'user_creator',
    reply_mode: 'knowledge',
    webhook_url: null,
    source_links: 'public',
    replies: '{}',
    handoff: '{}',
    webchat_config: '{}',
    created_at: ROW_TIME,
    updated_at: ROW_TIME,
    deployed_at: ROW_TIME,
    ...overrides,
  };
}
