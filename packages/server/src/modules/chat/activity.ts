import type { ChatContext } from './context.js';
import type { ChatActivity, ChatService } from './contract.js';
import { activityQueries, notFoundPattern } from './repo-activity.js';

/** How many not-found questions a period reads at most (the newest), for grouping. */
export const MAX_UNANSWERED_READ = 2000;

const count = (value: number | string | null | undefined) => Number(value ?? 0);

/** The text of a stored user payload (a text message's text; other kinds have none to list). */
function questionText(payload: string): string | undefined {
  try {
    const parsed = JSON.parse(payload) as { type?: unknown; text?: unknown };
    return parsed.type === 'text' && typeof parsed.text === 'string' ? parsed.text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A bot's activity over its last days, for insights: per UTC day its conversations started, messages by
 * visitors and by the bot, bot replies and the not-found ones, feedback; and the questions that got a
 * not-found reply. Counted by the database (repo-activity.ts); the window ends at the chat clock's now.
 */
export function chatActivity(ctx: Pick<ChatContext, 'db' | 'clock'>): Pick<ChatService, 'activity'> {
  const { db, clock } = ctx;
  return {
    async activity(botId, { days, notFoundText }) {
      const now = clock();
      const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - days + 1));
      const from = start.toISOString();
      const pattern = notFoundPattern(notFoundText);
      const queries = activityQueries(db);
      const [messageDays, conversationDays, questions] = await Promise.all([
        queries.activityDays(botId, from, pattern),
        queries.conversationDays(botId, from),
        queries.unansweredQuestions(botId, from, pattern, MAX_UNANSWERED_READ),
      ]);
      const result: ChatActivity = {
        from,
        to: now.toISOString(),
        days: messageDays.map((r) => ({
          date: r.day,
          visitorMessages: count(r.visitor),
          botMessages: count(r.bot),
          replies: count(r.replies),
          notFound: count(r.not_found),
          positive: count(r.positive),
          negative: count(r.negative),
        })),
        conversations: conversationDays.map((r) => ({ date: r.day, started: count(r.started) })),
        unanswered: questions.flatMap((q) => {
          const text = questionText(q.payload);
          return text === undefined ? [] : [{ text, at: q.at }];
        }),
      };
      return result;
    },
  };
}
