import Type, { type Static } from 'typebox';
import { Timestamp } from './common.js';

/** The periods insights are computed over: the last 7, 30 or 90 days (today included, UTC days). */
export const InsightsPeriod = Type.Union([Type.Literal('7d'), Type.Literal('30d'), Type.Literal('90d')], {
  description: 'The last 7, 30 or 90 days, today included (UTC days)',
});
/** Insights period type. */
export type InsightsPeriod = Static<typeof InsightsPeriod>;

/** Query of `GET /v1/admin/bots/{id}/insights`. */
export const InsightsQuery = {
  period: Type.Optional(InsightsPeriod),
};

const Count = Type.Integer({ minimum: 0 });
const Rate = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]);
const Seconds = Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
  description: "Seconds from the request for a person to a person's first reply; null when none replied",
});

/** Human handoff over a day or a period. */
const HandoffFigures = {
  handoffs: Type.Integer({
    minimum: 0,
    description: 'Conversations whose visitor asked for a person (counted on the day of the first request)',
  }),
  medianWaitSeconds: Seconds,
  p90WaitSeconds: Seconds,
  resolvedByPeople: Type.Integer({
    minimum: 0,
    description: 'Conversations started that day in which a person of the workspace replied',
  }),
  resolvedByBot: Type.Integer({
    minimum: 0,
    description: 'Conversations started that day only the bot answered',
  }),
};

/** One UTC day of a bot's activity. */
export const InsightsDay = Type.Object({
  date: Type.String({ description: 'YYYY-MM-DD (UTC)' }),
  conversations: Count,
  visitorMessages: Count,
  botMessages: Count,
  humanMessages: Type.Integer({
    minimum: 0,
    description: 'Messages of people of the workspace (not the bot)',
  }),
  answered: Count,
  notFound: Count,
  clarified: Type.Integer({
    minimum: 0,
    description: 'Replies that asked back with choices (answer mode clarify): neither answered nor not found',
  }),
  byEntry: Type.Integer({ minimum: 0, description: 'Replies a Q&A entry gave (answer mode qa)' }),
  positive: Count,
  negative: Count,
  ...HandoffFigures,
});
/** Insights day type. */
export type InsightsDay = Static<typeof InsightsDay>;

/**
 * Visitor questions that got the knowledge bot's "I couldn't find anything…" reply, grouped by similar wording or
 * meaning; a question an enabled Q&A entry now answers is left out.
 */
export const UnansweredQuestion = Type.Object({
  question: Type.String({ description: 'The most asked wording of the group (as the visitor typed it)' }),
  count: Count,
  lastAskedAt: Timestamp,
  variants: Type.Array(Type.String(), { description: 'Other wordings of the group (at most 5)' }),
});
/** Unanswered question type. */
export type UnansweredQuestion = Static<typeof UnansweredQuestion>;

/** What a bot's conversations say over a period. */
export const BotInsights = Type.Object({
  botId: Type.String(),
  period: InsightsPeriod,
  from: Timestamp,
  to: Timestamp,
  conversations: Type.Object({ started: Count }),
  messages: Type.Object({ total: Count, visitor: Count, bot: Count, human: Count }),
  handoff: Type.Object({
    ...HandoffFigures,
    rate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
      description: 'Conversations that asked for a person / conversations started',
    }),
  }),
  replies: Type.Object({
    total: Count,
    answered: Count,
    notFound: Count,
    clarified: Type.Integer({
      minimum: 0,
      description:
        'Replies that asked back with choices (answer mode clarify), apart from answered and not found',
    }),
    byEntry: Type.Integer({
      minimum: 0,
      description: 'Replies a Q&A entry gave (answer mode qa), among the answered ones',
    }),
    answeredRate: Rate,
    notFoundRate: Rate,
  }),
  feedback: Type.Object({ positive: Count, negative: Count, positiveRatio: Rate }),
  days: Type.Array(InsightsDay),
  unansweredQuestions: Type.Array(UnansweredQuestion),
});
/** Bot insights type. */
export type BotInsights = Static<typeof BotInsights>;

/** Answer of `GET /v1/admin/bots/{id}/insights`. */
export const BotInsightsResponse = Type.Object({ insights: BotInsights });
/** Bot insights response type. */
export type BotInsightsResponse = Static<typeof BotInsightsResponse>;
