import type { BotInsights, InsightsDay, InsightsPeriod, UnansweredQuestion } from '@parley/protocol';
import { authorize } from '../../access/policy.js';
import type { Embedder } from '../../search/types.js';
import { type AnswerMode, NOT_FOUND_TEXT } from '../answers/index.js';
import type { BotsService } from '../bots/service.js';
import type { ChatActivity, ChatService } from '../chat/contract.js';
import type { QaService } from '../qa/contract.js';
import type { InsightsService } from './contract.js';
import { groupQuestions, MAX_QUESTION_CHARS, wordingOf } from './group.js';
import { questionVectors } from './semantic.js';

export type { InsightsService } from './contract.js';

/** The days of each period. */
export const PERIOD_DAYS: Record<InsightsPeriod, number> = { '7d': 7, '30d': 30, '90d': 90 };

const DAY_MS = 86_400_000;

/** The answer mode of a reply a Q&A entry gave. */
const ENTRY_ANSWER: AnswerMode = 'qa';

/** `part / whole`, rounded to 4 decimals; null when there is no whole. */
const ratio = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

/** The value below which `share` of the sorted `values` lie (nearest rank), rounded to a second; null for none. */
export function percentile(values: number[], share: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(share * sorted.length));
  return Math.round(sorted[rank - 1] as number);
}

/** The waits for a person (seconds) of each day of the requests. */
function waitsByDay(activity: ChatActivity): Map<string, number[]> {
  const byDay = new Map<string, number[]>();
  for (const w of activity.waits) byDay.set(w.date, [...(byDay.get(w.date) ?? []), w.seconds]);
  return byDay;
}

/** Every day of the window (from `from` to `to`, UTC), with zeros on the days nothing happened. */
function daySeries(activity: ChatActivity, days: number): InsightsDay[] {
  const start = Date.parse(activity.from);
  const byDate = new Map(activity.days.map((d) => [d.date, d]));
  const conversations = new Map(activity.conversations.map((c) => [c.date, c]));
  const handoffs = new Map(activity.handoffs.map((h) => [h.date, h.requested]));
  const waits = waitsByDay(activity);
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(start + i * DAY_MS).toISOString().slice(0, 10);
    const d = byDate.get(date);
    const c = conversations.get(date);
    const waited = waits.get(date) ?? [];
    const replies = d?.replies ?? 0;
    const notFound = d?.notFound ?? 0;
    const clarified = d?.clarified ?? 0;
    return {
      date,
      conversations: c?.started ?? 0,
      visitorMessages: d?.visitorMessages ?? 0,
      botMessages: d?.botMessages ?? 0,
      humanMessages: d?.humanMessages ?? 0,
      answered: Math.max(0, replies - notFound - clarified),
      notFound,
      clarified,
      byEntry: d?.withAnswerMode ?? 0,
      positive: d?.positive ?? 0,
      negative: d?.negative ?? 0,
      handoffs: handoffs.get(date) ?? 0,
      medianWaitSeconds: percentile(waited, 0.5),
      p90WaitSeconds: percentile(waited, 0.9),
      resolvedByPeople: c?.byPeople ?? 0,
      resolvedByBot: (c?.started ?? 0) - (c?.byPeople ?? 0),
    };
  });
}

/** The counts of a day that add up over a period. */
const COUNTS = [
  'conversations',
  'visitorMessages',
  'botMessages',
  'humanMessages',
  'handoffs',
  'resolvedByPeople',
  'resolvedByBot',
  'answered',
  'notFound',
  'clarified',
  'byEntry',
  'positive',
  'negative',
] as const;
type Count = (typeof COUNTS)[number];

/** The period's totals of the counts of its days. */
function totals(series: InsightsDay[]): Record<Count, number> {
  const sum = (key: Count) => series.reduce((n, d) => n + d[key], 0);
  return Object.fromEntries(COUNTS.map((key) => [key, sum(key)])) as Record<Count, number>;
}

/**
 * The groups of unanswered questions less what an enabled Q&A entry now answers (asked of `entries`, the very
 * matcher the bot's replies use): a group whose main wording an entry answers goes, and so do such variants.
 */
async function stillUnanswered(
  entries: Pick<QaService, 'match'> | undefined,
  botId: string,
  groups: UnansweredQuestion[],
): Promise<UnansweredQuestion[]> {
  if (!entries) return groups;
  const answered = async (question: string) => (await entries.match(botId, question)) !== undefined;
  const kept: UnansweredQuestion[] = [];
  for (const group of groups) {
    if (await answered(group.question)) continue;
    const variants: string[] = [];
    for (const variant of group.variants) if (!(await answered(variant))) variants.push(variant);
    kept.push({ ...group, variants });
  }
  return kept;
}

/**
 * Bot insights over the chat module's activity: a not-found reply is one whose text is the answers module's
 * NOT_FOUND_TEXT (or that the reply job marked not found), a reply by an entry one of answer mode `qa`; the
 * unanswered questions are grouped by their words (group.ts) and, with the built-in embedding model, by meaning
 * too (semantic.ts), and those a Q&A entry now answers are left out.
 * @example const insights = insightsService({ bots, chat }); await insights.botInsights(actor, botId, '7d');
 */
export function insightsService(deps: {
  bots: Pick<BotsService, 'get'>;
  chat: Pick<ChatService, 'activity'>;
  /** The search embedder: with the built-in model, questions of the same meaning are grouped too. */
  embedder?: Embedder | null | undefined;
  /** The bot's Q&A entries: a question one of them now answers is no longer listed as unanswered. */
  entries?: Pick<QaService, 'match'> | undefined;
}): InsightsService {
  const vectorsOf = questionVectors(deps.embedder);
  return {
    async botInsights(actor, botId, period) {
      await deps.bots.get(actor, botId);
      authorize(actor, 'conversation.read');
      const days = PERIOD_DAYS[period];
      const activity = await deps.chat.activity(botId, {
        days,
        notFoundText: NOT_FOUND_TEXT,
        questionChars: MAX_QUESTION_CHARS,
        answerMode: ENTRY_ANSWER,
      });
      const series = daySeries(activity, days);
      const t = totals(series);
      const replies = t.answered + t.notFound + t.clarified;
      const insights: BotInsights = {
        botId,
        period,
        from: activity.from,
        to: activity.to,
        conversations: { started: t.conversations },
        messages: {
          total: t.visitorMessages + t.botMessages + t.humanMessages,
          visitor: t.visitorMessages,
          bot: t.botMessages,
          human: t.humanMessages,
        },
        handoff: {
          handoffs: t.handoffs,
          rate: ratio(Math.min(t.handoffs, t.conversations), t.conversations),
          medianWaitSeconds: percentile(
            activity.waits.map((w) => w.seconds),
            0.5,
          ),
          p90WaitSeconds: percentile(
            activity.waits.map((w) => w.seconds),
            0.9,
          ),
          resolvedByPeople: t.resolvedByPeople,
          resolvedByBot: t.resolvedByBot,
        },
        replies: {
          total: replies,
          answered: t.answered,
          notFound: t.notFound,
          clarified: t.clarified,
          byEntry: t.byEntry,
          answeredRate: ratio(t.answered, replies),
          notFoundRate: ratio(t.notFound, replies),
        },
        feedback: {
          positive: t.positive,
          negative: t.negative,
          positiveRatio: ratio(t.positive, t.positive + t.negative),
        },
        days: series,
        unansweredQuestions: await stillUnanswered(
          deps.entries,
          botId,
          await groupQuestions(
            activity.unanswered,
            await vectorsOf(activity.unanswered.map((q) => wordingOf(q.text)).filter(Boolean)),
          ),
        ),
      };
      return insights;
    },
  };
}
