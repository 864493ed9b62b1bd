import { BotInsightsResponse, InsightsQuery } from '@parley/protocol';
import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ADMIN_SECURITY, operations } from '../../http/operation.js';
import { IdParam } from '../../http/route-helpers.js';
import type { InsightsService } from './contract.js';

/** A bot's insights (the Console's Insights page reads them; scripts can too). */
export function insightsRoutes(app: FastifyInstance, deps: { insights: InsightsService }) {
  const op = operations(app, { tags: ['bots'], security: ADMIN_SECURITY });
  op(
    BOT_OPERATIONS.getBotInsights,
    {
      description:
        'What the bot\'s conversations say over the last 7, 30 or 90 days (default 30d, UTC days, today included): conversations started, messages, replies answered vs not found ("I couldn\'t find anything…"), feedback, a per-day series, and the top unanswered questions grouped by similar wording or meaning.',
      params: IdParam,
      query: Type.Object(InsightsQuery),
      response: BotInsightsResponse,
    },
    async (req) => ({
      insights: await deps.insights.botInsights(req.actor, req.params.id, req.query.period ?? '30d'),
    }),
  );
}
