import { describe, expect, it } from 'vitest';
import { botRow } from '../../../../testkit/src/server/rows.js';
import { decodeCursor, toPage } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { type ChatUserRow, chatRepo, type MessageRow } from '../../modules/chat/repo.js';
import { newUserRow } from '../../modules/chat/users.js';
import { at, type SuiteRepos } from './rows.suite.js';

/** The repository suite on chat: users, conversations, messages, signals and a bot's secrets, each kept per bot. */
export function chatRepositoryCases({ kysely, bots, tenant }: SuiteRepos): void {
  describe('chat', () => {
    const chat = () => chatRepo(kysely());
    const chatUser = (botId: string, id: string): ChatUserRow => newUserRow(botId, id, {}, at(0));
    const message = (botId: string, conversationId: string, userId: string, seconds: number): MessageRow => ({
      id: newId('msg'),
      bot_id: botId,
      conversation_id: conversationId,
      user_id: userId,
      is_bot: 0,
      payload: '{"type":"text","text":"hi"}',
      metadata: null,
      feedback: null,
      reply_to: null,
      created_at: at(seconds),
      answer: null,
      details: null,
    });
    const signal = (botId: string, conversationId: string, createdAt: string, adminOnly = 0) => ({
      bot_id: botId,
      conversation_id: conversationId,
      type: 'message_created',
      data: '{}',
      admin_only: adminOnly,
      created_at: createdAt,
    });
    async function twoBots() {
      const { ws } = await tenant();
      const one = botRow(ws.id);
      const two = botRow(ws.id);
      await bots().insert(one, {});
      await bots().insert(two, {});
      return { one, two };
    }

    it('keys users and conversations per bot: the same id in two bots is two records', async () => {
      const { one, two } = await twoBots();
      expect(await chat().insertUserIfMissing(chatUser(one.id, 'site-user'))).toBe(true);
      expect(await chat().insertUserIfMissing(chatUser(one.id, 'site-user'))).toBe(false);
      expect(await chat().insertUserIfMissing({ ...chatUser(two.id, 'site-user'), name: 'Two' })).toBe(true);
      expect((await chat().user(one.id, 'site-user'))?.name).toBeNull();
      expect((await chat().user(two.id, 'site-user'))?.name).toBe('Two');
      const conv = {
        bot_id: one.id,
        id: 'c1',
        created_by: 'site-user',
        created_at: at(0),
        updated_at: at(0),
      };
      expect(await chat().insertConversationIfMissing(conv)).toBe(true);
      expect(await chat().insertConversationIfMissing(conv)).toBe(false);
      expect(await chat().conversation(two.id, 'c1')).toBeUndefined();
    });

    it("lists one participant's conversations newest-updated first, by keyset pages", async () => {
      const { one } = await twoBots();
      await chat().insertUserIfMissing(chatUser(one.id, 'u1'));
      for (let i = 0; i < 5; i++) {
        const id = `conv-${i}`;
        await chat().insertConversationIfMissing({
          bot_id: one.id,
          id,
          created_by: 'u1',
          created_at: at(i),
          updated_at: at(i),
        });
        if (i !== 2) await chat().addParticipant(one.id, id, 'u1', at(i));
      }
      const sort = 'updatedAt:desc';
      const first = await chat().listConversations({
        botId: one.id,
        userId: 'u1',
        limit: 2,
        after: undefined,
      });
      const page = toPage(first, 2, sort, (r) => [r.updated_at, r.id]);
      expect(page.items.map((c) => c.id)).toEqual(['conv-4', 'conv-3']);
      const second = await chat().listConversations({
        botId: one.id,
        userId: 'u1',
        limit: 2,
        after: decodeCursor(page.nextToken, sort),
      });
      expect(second.map((c) => c.id)).toEqual(['conv-1', 'conv-0']);
      const all = await chat().listConversations({
        botId: one.id,
        userId: undefined,
        limit: 10,
        after: undefined,
      });
      expect(all).toHaveLength(5);
    });

    it('deletes a user with its messages and participations, and the conversations only it was in', async () => {
      const { one } = await twoBots();
      for (const u of ['gone', 'stays']) await chat().insertUserIfMissing(chatUser(one.id, u));
      for (const c of ['alone', 'shared']) {
        await chat().insertConversationIfMissing({
          bot_id: one.id,
          id: c,
          created_by: 'gone',
          created_at: at(0),
          updated_at: at(0),
        });
        await chat().addParticipant(one.id, c, 'gone', at(0));
      }
      await chat().addParticipant(one.id, 'shared', 'stays', at(1));
      const mine = message(one.id, 'shared', 'gone', 1);
      const theirs = message(one.id, 'shared', 'stays', 2);
      await chat().insertMessages([mine, theirs, message(one.id, 'alone', 'gone', 3)]);
      expect(await chat().deleteUser(one.id, 'gone')).toEqual(['alone']);
      expect(await chat().user(one.id, 'gone')).toBeUndefined();
      expect(await chat().conversation(one.id, 'alone')).toBeUndefined();
      expect(await chat().message(one.id, mine.id)).toBeUndefined();
      expect(await chat().message(one.id, theirs.id)).toEqual(theirs);
      expect(await chat().isParticipant(one.id, 'shared', 'gone')).toBe(false);
    });

    it('hands out growing signal cursors, never reused after pruning, and filters admin-only signals', async () => {
      const { one, two } = await twoBots();
      const c1 = await chat().insertSignal(signal(one.id, 'c', '2000-01-01T00:00:00.000Z'));
      const c2 = await chat().insertSignal(signal(one.id, 'c', '2000-01-01T00:00:01.000Z', 1));
      const c3 = await chat().insertSignal(signal(two.id, 'c', at(0)));
      expect(c2).toBeGreaterThan(c1);
      expect(c3).toBeGreaterThan(c2);
      expect(await chat().lastCursor(one.id, 'c')).toBe(c2);
      expect(await chat().lastCursor(one.id, 'none')).toBe(0);
      const q = { botId: one.id, conversationId: 'c', after: 0, limit: 10 };
      expect((await chat().signalsAfter({ ...q, admin: false })).map((r) => r.cursor)).toEqual([c1]);
      expect((await chat().signalsAfter({ ...q, admin: true })).map((r) => r.cursor)).toEqual([c1, c2]);
      expect((await chat().signalsAfter({ ...q, admin: true, after: c1 })).map((r) => r.cursor)).toEqual([
        c2,
      ]);
      expect(await chat().pruneSignals('2000-01-02T00:00:00.000Z')).toBe(2);
      const c4 = await chat().insertSignal(signal(one.id, 'c', at(1)));
      expect(c4).toBeGreaterThan(c3);
      expect((await chat().signalsAfter({ ...q, admin: true })).map((r) => r.cursor)).toEqual([c4]);
    });

    it("keeps a bot's secrets until replaced, and deletes its chat data with the bot", async () => {
      const { one } = await twoBots();
      const secrets = {
        bot_id: one.id,
        user_key_secret: 'a',
        webhook_secret: 'b',
        created_at: at(0),
        rotated_at: null,
      };
      await chat().insertSecretsIfMissing(secrets);
      await chat().insertSecretsIfMissing({ ...secrets, user_key_secret: 'other' });
      expect(await chat().secrets(one.id)).toEqual(secrets);
      await chat().replaceSecrets({
        ...secrets,
        user_key_secret: 'c',
        webhook_secret: 'd',
        rotated_at: at(5),
      });
      expect(await chat().secrets(one.id)).toMatchObject({
        user_key_secret: 'c',
        webhook_secret: 'd',
        rotated_at: at(5),
      });
      await chat().insertUserIfMissing(chatUser(one.id, 'u'));
      await chat().insertSignal(signal(one.id, 'c', at(0)));
      await bots().delete(one.id, at(9));
      expect(await chat().secrets(one.id)).toBeUndefined();
      expect(await chat().user(one.id, 'u')).toBeUndefined();
      expect(await chat().lastCursor(one.id, 'c')).toBe(0);
    });
  });
}
