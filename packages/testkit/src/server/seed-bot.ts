import type { Kysely } from 'kysely';
import type { Database } from '../../../server/src/db/schema.js';
import { newBotId, newId } from '../../../server/src/ids.js';
import { ROW_TIME } from './rows.js';

/**
 * An account, its workspace and a webhook bot of it, as the schema needs them before files and passages can be
 * written (the passage-index suites, the search benchmark). Only the columns every migration has are written
 * (source_links, replies and handoff keep their defaults), so it seeds databases migrated to an older version too.
 */
export async function seedBot(db: {
  kysely: Kysely<Database>;
}): Promise<{ botId: string; workspaceId: string }> {
  const accountId = newId('user');
  const workspaceId = newId('wkspace');
  const botId = newBotId();
  await db.kysely
    .insertInto('accounts')
    .values({
      id: accountId,
      email: `${accountId.toLowerCase()}@example.com`,
      display_name: 'T',
      created_at: ROW_TIME,
      updated_at: ROW_TIME,
    })
    .execute();
  await db.kysely
    .insertInto('workspaces')
    .values({
      id: workspaceId,
      name: 'W',
      owner_id: accountId,
      about: '',
      contact_email: '',
      website: '',
      created_at: ROW_TIME,
      updated_at: ROW_TIME,
    })
    .execute();
  await db.kysely
    .insertInto('bots')
    .values({
      id: botId,
      workspace_id: workspaceId,
      name: 'B',
      description: '',
      dev: 0,
      status: 'active',
      created_by: accountId,
      reply_mode: 'webhook',
      webhook_url: null,
      webchat_config: '{}',
      created_at: ROW_TIME,
      updated_at: ROW_TIME,
      deployed_at: ROW_TIME,
    })
    .execute();
  return { botId, workspaceId };
}
