import type { Bot, WebchatConfiguration } from '@parley/protocol';
import { WatchedCache } from '../../db/change-watch.js';
import { fixedQuery } from '../../db/fixed-query.js';
import type { BotsContext } from './context.js';
import type { BotChatFacts, BotDirectory } from './contract.js';
import { handoffOf } from './handoff-settings.js';
import { sourceLinksOf } from './records.js';
import { repliesOf } from './replies.js';
import { botsRepo } from './repo.js';

/**
 * What chatFacts reads of a bot: every Chat API request asks (compiled once, see fixedQuery). On SQLite the
 * facts read are kept until a bot changes (see WatchedCache), so a change of the bot made by this process or
 * any other is seen by the next request; on PostgreSQL every call reads.
 */
const chatFactsRow = fixedQuery(1, (db, id: string) =>
  db
    .selectFrom('bots')
    .select([
      'id',
      'workspace_id',
      'name',
      'status',
      'reply_mode',
      'webhook_url',
      'source_links',
      'replies',
      'handoff',
      'webchat_config',
    ])
    .where('id', '=', id),
);

/** Bots whose webchat configuration's parse is kept (the least recently parsed forgotten first). */
const CONFIGURATIONS_KEPT = 10_000;

/**
 * The parsed webchat configuration of each bot, with the JSON text it was parsed from: a configuration is
 * parsed again only when the text read from the database differs. Frozen, as every request shares it.
 */
class ParsedConfigurations {
  private readonly kept = new Map<string, { text: string; value: WebchatConfiguration }>();

  of(botId: string, text: string): WebchatConfiguration {
    const kept = this.kept.get(botId);
    if (kept?.text === text) return kept.value;
    const value = deepFreeze(JSON.parse(text) as WebchatConfiguration);
    this.kept.delete(botId);
    this.kept.set(botId, { text, value });
    if (this.kept.size > CONFIGURATIONS_KEPT) this.kept.delete(this.kept.keys().next().value as string);
    return value;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** What other modules read of a bot in any workspace, without a permission check. */
export function botDirectory(ctx: Pick<BotsContext, 'db'>): BotDirectory {
  const { db } = ctx;
  const configurations = new ParsedConfigurations();
  const facts = new WatchedCache<BotChatFacts>([{ name: 'bots' }]);
  const readFacts = async (id: string): Promise<BotChatFacts | undefined> => {
    const row = (await chatFactsRow(db, id)).rows[0];
    if (!row) return undefined;
    // Frozen: a kept value is every request's.
    return Object.freeze({
      id: row.id,
      workspaceId: row.workspace_id,
      name: row.name,
      status: row.status as Bot['status'],
      replyMode: row.reply_mode as Bot['replyMode'],
      webhookUrl: row.webhook_url,
      sourceLinks: sourceLinksOf(row.source_links),
      replies: repliesOf(row.replies),
      handoff: handoffOf(row.handoff),
      webchat: configurations.of(row.id, row.webchat_config),
    });
  };
  return {
    async findAnyWorkspace(id) {
      const row = await botsRepo(db).byIdAnyWorkspace(id);
      return row ? { id: row.id, workspaceId: row.workspace_id } : undefined;
    },

    chatFacts: (id) => facts.get(db, id, () => readFacts(id)),

    exists: async (workspaceId, id) => (await botsRepo(db).byId(workspaceId, id)) !== undefined,
  };
}
