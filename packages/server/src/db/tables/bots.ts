import type { ColumnType } from 'kysely';

/* Row types of bots, their tags, API tokens, integrations and installations. Timestamps are ISO 8601 text;
 * booleans are 0/1. */

export interface BotsTable {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  dev: number;
  status: string;
  created_by: string;
  reply_mode: string;
  webhook_url: string | null;
  /** none | public | all (BotSourceLinks); `public` when an insert leaves it out. */
  source_links: ColumnType<string, string | undefined, string>;
  /** The bot's reply texts, JSON (BotReplies); `{}` when an insert leaves it out. */
  replies: ColumnType<string, string | undefined, string>;
  /** The bot's human handoff settings, JSON (BotHandoff); `{}` when an insert leaves it out. */
  handoff: ColumnType<string, string | undefined, string>;
  webchat_config: string;
  created_at: string;
  updated_at: string;
  deployed_at: string;
}

export interface BotTagsTable {
  bot_id: string;
  key: string;
  value: string;
}

export interface TokensTable {
  id: string;
  kind: string;
  hash: string;
  account_id: string | null;
  bot_id: string | null;
  integration_id: string | null;
  note: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface IntegrationsTable {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface InstallationsTable {
  bot_id: string;
  integration_id: string;
  installed_at: string;
}
