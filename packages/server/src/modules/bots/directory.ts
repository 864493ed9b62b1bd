import type { Bot, WebchatConfiguration } from '@parley/protocol';
import type { BotsContext } from './context.js';
import type { BotDirectory } from './contract.js';
import { botsRepo } from './repo.js';

/** What other modules read of a bot in any workspace, without a permission check. */
export function botDirectory(ctx: Pick<BotsContext, 'db'>): BotDirectory {
  const { db } = ctx;
  return {
    async findAnyWorkspace(id) {
      const row = await botsRepo(db).byIdAnyWorkspace(id);
      return row ? { id: row.id, workspaceId: row.workspace_id } : undefined;
    },

    async chatFacts(id) {
      const row = await botsRepo(db).byIdAnyWorkspace(id);
      if (!row) return undefined;
      return {
        id: row.id,
        workspaceId: row.workspace_id,
        name: row.name,
        status: row.status as Bot['status'],
        replyMode: row.reply_mode as Bot['replyMode'],
        webhookUrl: row.webhook_url,
        webchat: JSON.parse(row.webchat_config) as WebchatConfiguration,
      };
    },

    exists: async (workspaceId, id) => (await botsRepo(db).byId(workspaceId, id)) !== undefined,
  };
}
