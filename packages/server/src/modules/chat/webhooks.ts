import type { ChatWebhookEvent } from '@parley/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { newId } from '../../ids.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { ChatBot, ChatWebhookJob } from './contract.js';
import { CHAT_WEBHOOK_JOB } from './job-kinds.js';

/** A webhook event of the bot, created `at` (an ISO time). */
export function webhookEvent(
  bot: ChatBot,
  type: ChatWebhookEvent['type'],
  fields: Omit<ChatWebhookEvent, 'id' | 'type' | 'createdAt' | 'botId'>,
  at: string,
): ChatWebhookEvent {
  return { id: newId('whevt'), type, createdAt: at, botId: bot.id, ...fields };
}

/** Enqueues a `chat_webhook` job for the event in `tx` when the bot is in webhook mode with a URL. */
export async function toWebhook(
  jobs: Pick<JobQueue, 'enqueue'>,
  tx: Kysely<Database>,
  bot: ChatBot,
  event: ChatWebhookEvent,
): Promise<void> {
  if (bot.replyMode !== 'webhook' || !bot.webhookUrl) return;
  const job: ChatWebhookJob = { botId: bot.id, event };
  await jobs.enqueue(CHAT_WEBHOOK_JOB, job, { tx });
}
