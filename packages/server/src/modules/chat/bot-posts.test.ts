import { describe, expect, it } from 'vitest';
import { useClockedApp } from '../../../../testkit/src/server/clocked-app-fixture.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

/**
 * The bot posting through the Chat API with its access key, as a backend does for every message: the key's
 * checks stay per request (a revoked key is refused at once), its use is recorded at most once a minute, and
 * the bot's own chat user (stored once, then remembered by the process) authors every message.
 */
describe('the bot posting with its access key', () => {
  const { t, clock } = useClockedApp();

  const keysUrl = () => `/v1/admin/bots/${t.botId}/access-keys`;

  async function newKey(note: string): Promise<{ id: string; value: string }> {
    const res = await t.asOwner('POST', keysUrl(), { note });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { key: { id: string; value: string } }).key;
  }

  async function lastUsedAt(id: string): Promise<string | null> {
    const res = await t.asOwner('GET', keysUrl());
    expect(res.statusCode).toBe(200);
    const keys = (res.json() as { keys: { id: string; lastUsedAt: string | null }[] }).keys;
    const key = keys.find((k) => k.id === id);
    if (!key) throw new Error(`key ${id} is not listed`);
    return key.lastUsedAt;
  }

  async function conversation(): Promise<string> {
    const user = await t.app.inject({ method: 'POST', url: `/v1/chat/${t.botId}/users`, payload: {} });
    const { key } = user.json() as { key: string };
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/chat/${t.botId}/conversations`,
      headers: { 'x-user-key': key },
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { conversation: { id: string } }).conversation.id;
  }

  const post = (key: string, conversationId: string, text: string) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/chat/${t.botId}/messages`,
      headers: { authorization: `Bearer ${key}` },
      payload: { conversationId, payload: { type: 'text', text } },
    });

  it('refuses a revoked key at once, on the very next message', async () => {
    const key = await newKey('revoked while posting');
    const conversationId = await conversation();
    for (const text of ['one', 'two', 'three'])
      expect((await post(key.value, conversationId, text)).statusCode).toBe(201);
    const revoked = await t.asOwner('DELETE', `${keysUrl()}/${key.id}`);
    expect(revoked.statusCode).toBe(200);
    expectError(await post(key.value, conversationId, 'after'), 401, 'Unauthorized');
    // The other keys of the bot keep working.
    expect((await post(t.botKey, conversationId, 'other key')).statusCode).toBe(201);
  });

  it("records a key's use, again once a minute has passed", async () => {
    const key = await newKey('used');
    const conversationId = await conversation();
    expect(await lastUsedAt(key.id)).toBeNull();
    const first = clock.now().toISOString();
    expect((await post(key.value, conversationId, 'first')).statusCode).toBe(201);
    expect(await lastUsedAt(key.id)).toBe(first);
    clock.advance(30_000);
    expect((await post(key.value, conversationId, 'within the minute')).statusCode).toBe(201);
    expect(await lastUsedAt(key.id)).toBe(first);
    clock.advance(31_000);
    const later = clock.now().toISOString();
    expect((await post(key.value, conversationId, 'a minute later')).statusCode).toBe(201);
    expect(await lastUsedAt(key.id)).toBe(later);
  });

  it("authors every message as the bot's chat user, in every conversation", async () => {
    const ids: string[] = [];
    for (const text of ['a', 'b']) {
      const conversationId = await conversation();
      const res = await post(t.botKey, conversationId, text);
      expect(res.statusCode, res.body).toBe(201);
      const { message } = res.json() as {
        message: { userId: string; isBot: boolean; conversationId: string };
      };
      expect(message).toMatchObject({ isBot: true, conversationId });
      ids.push(message.userId);
    }
    expect(ids[0]).toBe(ids[1]);
    const user = await t.app.inject({
      method: 'GET',
      url: `/v1/chat/${t.botId}/users/me`,
      headers: { authorization: `Bearer ${t.botKey}` },
    });
    expect(user.statusCode, user.body).toBe(200);
    expect((user.json() as { user: { id: string } }).user.id).toBe(ids[0]);
  });

  it('answers 404 for a conversation that does not exist, storing nothing', async () => {
    const conversationId = await conversation();
    expectError(await post(t.botKey, 'conv_missing', 'lost'), 404, 'ResourceNotFound');
    const listed = await t.app.inject({
      method: 'GET',
      url: `/v1/chat/${t.botId}/conversations/${conversationId}/messages`,
      headers: { authorization: `Bearer ${t.botKey}` },
    });
    expect(listed.statusCode).toBe(200);
    expect((listed.json() as { messages: unknown[] }).messages).toEqual([]);
  });
});
