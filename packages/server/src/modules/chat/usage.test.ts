// The workspace's usage counts this month's conversations and messages (Console Usage page): those of the
// month the figures' period names, of the workspace's own bots only; a new month starts again from zero.
import { describe, expect, it } from 'vitest';
import { chatClient } from '../../../../testkit/src/server/chat.js';
import { movableClock } from '../../../../testkit/src/server/files-api.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';

describe('conversation and message counts in the workspace usage', () => {
  // Mid-month, so that a few days on is the same month and forty days on the next one.
  const clock = movableClock();
  clock.advance(Date.UTC(2026, 4, 14, 12) - clock.ms);
  const t = useTestApp({ clock: clock.now });

  async function figures(token = t.owner.token, workspaceId = t.workspaceId) {
    const res = await t.call({
      method: 'GET',
      url: `/v1/admin/workspaces/${workspaceId}/usages`,
      token,
      workspaceId,
    });
    expect(res.statusCode, res.body).toBe(200);
    const usages = (
      res.json() as { usages: Array<{ type: string; value: number; quota: number | null; period: string }> }
    ).usages;
    const of = (type: string) => usages.find((u) => u.type === type);
    return { conversations: of('conversation_count'), messages: of('message_count') };
  }

  it('counts the conversations started and the messages sent this month, without a quota', async () => {
    expect(await figures()).toEqual({
      conversations: expect.objectContaining({ value: 0, quota: null, period: '2026-05' }),
      messages: expect.objectContaining({ value: 0, quota: null }),
    });
    const chat = chatClient(t);
    const visitor = await chat.user();
    const first = await chat.conversation(visitor);
    await chat.message(visitor, first, 'Hello?');
    await chat.message(visitor, first, 'Anyone there?');
    const second = await chat.conversation(visitor);
    await chat.message(visitor, second, 'Opening hours?');
    const now = await figures();
    expect(now.conversations?.value).toBe(2);
    expect(now.messages?.value).toBe(3);

    // Another workspace's chat is not counted here, and this one's is not counted there.
    const other = await t.otherTenant();
    const elsewhere = await figures(other.token, other.workspaceId);
    expect(elsewhere.conversations?.value).toBe(0);
    expect(elsewhere.messages?.value).toBe(0);

    // The next month starts from zero.
    clock.advance(40 * 24 * 3600 * 1000);
    const next = await figures();
    expect(next.conversations).toMatchObject({ value: 0, period: '2026-06' });
    expect(next.messages?.value).toBe(0);
  });
});
