import type { Bot, BotSummary } from '@parley/protocol';
import { errors } from '../../errors/errors.js';
import { handoffOf } from './handoff-settings.js';
import { repliesOf } from './replies.js';
import type { BotRow } from './repo.js';

/** Shapes a bot row and its tags for the wire. */
export function toBot(row: BotRow, tags: Record<string, string>): Bot {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deployedAt: row.deployed_at,
    name: row.name,
    description: row.description,
    dev: row.dev === 1,
    status: row.status as Bot['status'],
    tags,
    createdBy: row.created_by,
    replyMode: row.reply_mode as Bot['replyMode'],
    webhookUrl: row.webhook_url,
    sourceLinks: sourceLinksOf(row.source_links),
    replies: repliesOf(row.replies),
    handoff: handoffOf(row.handoff),
  };
}

/** A stored source links setting (`public`, the default, for anything else). */
export function sourceLinksOf(value: string): Bot['sourceLinks'] {
  return value === 'none' || value === 'all' ? value : 'public';
}

/** A bot as lists show it. */
export function toSummary(row: BotRow, tags: Record<string, string>): BotSummary {
  const { id, createdAt, updatedAt, name, deployedAt, sourceLinks } = toBot(row, tags);
  return { id, createdAt, updatedAt, name, deployedAt, tags, sourceLinks };
}

/** 400 when a bot would be in webhook mode without a webhook URL. */
export function checkReplyMode(replyMode: string, webhookUrl: string | null | undefined): void {
  if (replyMode === 'webhook' && !webhookUrl) {
    throw errors.invalidPayload('A bot in webhook mode needs a webhookUrl', [
      { field: 'webhookUrl', message: 'required when replyMode is webhook' },
    ]);
  }
}
