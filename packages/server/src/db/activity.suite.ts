import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountRow, botRow, workspaceRow } from '../../../testkit/src/server/rows.js';
import { newId } from '../ids.js';
import { botsRepo } from '../modules/bots/repo.js';
import { chatRepo, type MessageRow } from '../modules/chat/repo.js';
import { activityQueries, notFoundPattern } from '../modules/chat/repo-activity.js';
import { identityRepo } from '../modules/identity/repo.js';
import type { Db } from './database.js';

const NOT_FOUND = "I couldn't find anything about that in my knowledge base.";
const text = (t: string) => JSON.stringify({ type: 'text', text: t });

/**
 * The chat module's insights queries (repo-activity.ts) on a real database: per-day sums, conversations per
 * day and the questions a not-found reply answered, scoped by bot and time. Run on SQLite and PostgreSQL.
 */
export function runActivitySuite(name: string, open: () => Promise<Db>): void {
  describe(`chat activity queries: ${name}`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => {
      await db?.close();
    });

    /** A workspace with one bot; answers the bot's id. */
    async function newBot(): Promise<string> {
      const account = accountRow({ display_name: 'Owner' });
      await identityRepo(db.kysely).insertAccount(account);
      const workspace = workspaceRow(account.id, { name: 'Activity' });
      await identityRepo(db.kysely).insertWorkspace(workspace);
      const bot = botRow(workspace.id, { created_by: account.id });
      await botsRepo(db.kysely).insert(bot, {});
      return bot.id;
    }

    function row(botId: string, conversationId: string, at: string, fields: Partial<MessageRow>): MessageRow {
      return {
        id: newId('msg'),
        bot_id: botId,
        conversation_id: conversationId,
        user_id: 'visitor',
        is_bot: 0,
        payload: text('hi'),
        metadata: null,
        feedback: null,
        reply_to: null,
        created_at: at,
        ...fields,
      };
    }

    /** A question at 10:00 on `day` and the bot's reply to it a second later, with its answer mode if any. */
    async function exchange(
      botId: string,
      conversationId: string,
      day: string,
      question: string,
      reply: string,
      answer: string | null = null,
    ) {
      const q = row(botId, conversationId, `${day}T10:00:00.000Z`, { payload: text(question) });
      const a = row(botId, conversationId, `${day}T10:00:01.000Z`, {
        is_bot: 1,
        user_id: `bot_${botId}`,
        payload: text(reply),
        reply_to: q.id,
        answer,
      });
      await chatRepo(db.kysely).insertMessages([q, a]);
      return a.id;
    }

    it('sums messages, replies, not-found replies and feedback per UTC day since a time, for one bot only', async () => {
      const botId = await newBot();
      const other = await newBot();
      for (const [id, day] of [
        ['c-old', '2026-02-01'],
        ['c-1', '2026-03-01'],
        ['c-2', '2026-03-02'],
      ] as const) {
        const at = `${day}T09:00:00.000Z`;
        await chatRepo(db.kysely).insertConversationIfMissing({
          bot_id: botId,
          id,
          created_by: 'visitor',
          created_at: at,
          updated_at: at,
        });
      }
      await exchange(botId, 'c-old', '2026-02-01', 'old question', NOT_FOUND);
      const good = await exchange(botId, 'c-1', '2026-03-01', 'opening hours?', 'We open at 9.');
      await exchange(botId, 'c-1', '2026-03-01', 'refund?', NOT_FOUND);
      // A reply the reply job marked not found, in other words than the built-in text.
      await exchange(botId, 'c-1', '2026-03-01', 'warranty?', 'Nothing on that, sorry.', 'not_found');
      const bad = await exchange(botId, 'c-2', '2026-03-02', 'shipping "to" Mars?', NOT_FOUND);
      await chatRepo(db.kysely).setFeedback(botId, good, JSON.stringify({ value: 'positive' }));
      await chatRepo(db.kysely).setFeedback(
        botId,
        bad,
        JSON.stringify({ value: 'negative', comment: 'said "value":"positive" wrongly' }),
      );
      await exchange(other, 'x', '2026-03-01', 'elsewhere', NOT_FOUND);

      const q = activityQueries(db.kysely);
      const pattern = notFoundPattern(NOT_FOUND);
      const days = await q.activityDays(botId, '2026-03-01T00:00:00.000Z', pattern);
      const counted = days
        .map((d) => ({
          day: d.day,
          visitor: Number(d.visitor),
          bot: Number(d.bot),
          replies: Number(d.replies),
          notFound: Number(d.not_found),
          positive: Number(d.positive),
          negative: Number(d.negative),
        }))
        .sort((a, b) => a.day.localeCompare(b.day));
      expect(counted).toEqual([
        { day: '2026-03-01', visitor: 3, bot: 3, replies: 3, notFound: 2, positive: 1, negative: 0 },
        { day: '2026-03-02', visitor: 1, bot: 1, replies: 1, notFound: 1, positive: 0, negative: 1 },
      ]);
      const started = await q.conversationDays(botId, '2026-03-01T00:00:00.000Z');
      expect(started.map((s) => [s.day, Number(s.started)]).sort()).toEqual([
        ['2026-03-01', 1],
        ['2026-03-02', 1],
      ]);
      const questions = await q.unansweredQuestions(botId, '2026-03-01T00:00:00.000Z', pattern, 10, 10_000);
      expect(questions[0]).toEqual({ payload: text('shipping "to" Mars?'), at: '2026-03-02T10:00:00.000Z' });
      expect(questions).toHaveLength(3);
      expect(questions.slice(1)).toEqual(
        expect.arrayContaining([
          { payload: text('warranty?'), at: '2026-03-01T10:00:00.000Z' },
          { payload: text('refund?'), at: '2026-03-01T10:00:00.000Z' },
        ]),
      );
      expect(await q.unansweredQuestions(botId, '2026-03-01T00:00:00.000Z', pattern, 1, 10_000)).toHaveLength(
        1,
      );
    });
  });
}
