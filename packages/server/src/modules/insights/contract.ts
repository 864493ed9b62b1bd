import type { BotInsights, InsightsPeriod } from '@parley/protocol';
import type { Actor } from '../../access/principal.js';

/**
 * Insights of a bot: what its conversations say over a period (conversations, messages, answered and
 * not-found replies, feedback, a per-day series and the top unanswered questions). Read through the chat
 * module's `activity`; this module owns no table.
 */
export interface InsightsService {
  /** The bot's insights over `period` (404 for an unknown bot, 403 without `conversation.read`). */
  botInsights(actor: Actor, botId: string, period: InsightsPeriod): Promise<BotInsights>;
}
