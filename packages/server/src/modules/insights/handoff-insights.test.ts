import type { BotInsights } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { askAndReply, withChatAt } from '../../../../testkit/src/server/chat.js';
import { type TestApp, testDatabases } from '../../../../testkit/src/server/harness.js';
import { NOT_FOUND_TEXT } from '../answers/format.js';
import { percentile } from './service.js';

const databases = testDatabases();

/**
 * On 2026-03-20 (the test clock), four conversations: one the bot answers; three whose visitor asks for a person,
 * answered by one after 30 s and 120 s (the second person pasting the bot's not-found text), the third never.
 */
async function withHandoffs(use: (t: TestApp) => Promise<void>, databaseUrl?: string): Promise<void> {
  await withChatAt('2026-03-20T08:00:00.000Z', databaseUrl, async ({ t, api, chat, bot, clock }) => {
    const visitor = await api.user();
    const botAnswered = await api.conversation(visitor);
    await askAndReply({ api, chat, bot }, visitor, botAnswered, 'When do you open?', 'At 9.');
    for (const [hour, waitSeconds, text] of [
      [9, 30, 'Hello, Ann here.'],
      [10, 120, NOT_FOUND_TEXT],
      [11, null, ''],
    ] as const) {
      clock.now = Date.parse(`2026-03-20T${String(hour).padStart(2, '0')}:00:00.000Z`);
      const conv = await api.conversation(visitor);
      await api.message(visitor, conv, 'A person please', { handoff: 'request' });
      if (waitSeconds === null) continue;
      clock.now += waitSeconds * 1000;
      const said = await t.asOwner('POST', `/v1/admin/bots/${t.botId}/conversations/${conv}/messages`, {
        payload: { type: 'text', text },
      });
      expect(said.statusCode, said.body).toBe(201);
    }
    clock.now = Date.parse('2026-03-20T12:00:00.000Z');
    await use(t);
  });
}

describe.each(databases)('handoff insights on $name', ({ url: databaseUrl }) => {
  it('counts requests, the wait to the first human reply, and who resolved, per day; a person is never the bot', async () => {
    await withHandoffs(async (t) => {
      const res = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/insights?period=7d`);
      expect(res.statusCode, res.body).toBe(200);
      const insights = (res.json() as { insights: BotInsights }).insights;
      expect(insights.handoff).toEqual({
        handoffs: 3,
        rate: 0.75,
        medianWaitSeconds: 30,
        p90WaitSeconds: 120,
        resolvedByPeople: 2,
        resolvedByBot: 2,
      });
      // The people's two messages are theirs: not bot messages, not replies, not "not found" (the second one's
      // text is the bot's not-found text). The bot's own: its answer and its five notices (3 waits, 2 take-overs).
      expect(insights.messages).toEqual({ total: 12, visitor: 4, bot: 6, human: 2 });
      expect(insights.replies).toMatchObject({ total: 1, answered: 1, notFound: 0 });
      const today = insights.days.at(-1);
      expect(today).toMatchObject({
        date: '2026-03-20',
        conversations: 4,
        humanMessages: 2,
        handoffs: 3,
        medianWaitSeconds: 30,
        p90WaitSeconds: 120,
        resolvedByPeople: 2,
        resolvedByBot: 2,
      });
      expect(insights.days.at(-2)).toMatchObject({
        handoffs: 0,
        medianWaitSeconds: null,
        p90WaitSeconds: null,
        resolvedByPeople: 0,
        resolvedByBot: 0,
      });
    }, databaseUrl);
  });
});

describe('percentile', () => {
  it('is the nearest-rank value, rounded to a second, and null without values', () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile([12.4], 0.9)).toBe(12);
    expect(percentile([300, 10, 20, 40, 30, 50, 60, 70, 80, 90], 0.5)).toBe(50);
    expect(percentile([300, 10, 20, 40, 30, 50, 60, 70, 80, 90], 0.9)).toBe(90);
  });
});
