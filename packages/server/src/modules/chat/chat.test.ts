import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../testkit/src/server/admin-calls.js';
import { chatClient, type TestChatUser } from '../../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An HS256 JWT signed by hand with node:crypto, as docs/chat-api.md shows a site backend doing it. */
function handSigned(
  secret: string,
  payload: unknown,
  header: unknown = { alg: 'HS256', typ: 'JWT' },
): string {
  const head = `${b64(header)}.${b64(payload)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

describe('Chat API', () => {
  const t = useTestApp();
  let chat: ReturnType<typeof chatClient>;
  let alice: TestChatUser;
  let bob: TestChatUser;
  let conversationId: string;
  let secret: string;

  /** Calls the Chat API (the arguments of `chat.call`) and expects the error `status` `type`. */
  const expectRefusal = async (status: number, type: string, ...call: Parameters<typeof chat.call>) =>
    expectError(await chat.call(...call), status, type);

  beforeAll(async () => {
    chat = chatClient(t);
    alice = await chat.user({ name: 'Alice', data: { plan: 'pro' } });
    bob = await chat.user({ name: 'Bob' });
    conversationId = await chat.conversation(alice);
    const res = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/chat`);
    expect(res.statusCode).toBe(200);
    secret = (res.json() as { chat: { userKeySecret: string } }).chat.userKeySecret;
  });

  describe('users', () => {
    it('creates a user and answers 201 with its key', async () => {
      const res = await chat.call('POST', '/users', {
        body: { name: 'Carol', pictureUrl: 'https://x.test/c.png' },
      });
      expect(res.statusCode).toBe(201);
      const body = res.json() as { user: Record<string, unknown>; key: string };
      expect(body.user).toMatchObject({ name: 'Carol', pictureUrl: 'https://x.test/c.png' });
      expect(body.user.id).toMatch(/^cuser_/);
      expect(body.key.split('.')).toHaveLength(3);
    });

    it('creates a user from a bare POST without a body', async () => {
      const res = await t.app.inject({ method: 'POST', url: `${chat.base}/users` });
      expect(res.statusCode).toBe(201);
    });

    it('reads, updates and clears fields of the caller', async () => {
      const me = await chat.call('GET', '/users/me', { key: alice.key });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ user: { id: alice.id, name: 'Alice', data: { plan: 'pro' } } });
      const put = await chat.call('PUT', '/users/me', {
        key: alice.key,
        body: { name: 'Alice B', data: null },
      });
      expect(put.statusCode).toBe(200);
      const user = (put.json() as { user: Record<string, unknown> }).user;
      expect(user.name).toBe('Alice B');
      expect(user).not.toHaveProperty('data');
    });

    it('rejects a bad user field with 400', async () => {
      const res = await chat.call('PUT', '/users/me', { key: alice.key, body: { data: 'not an object' } });
      expectError(res, 400, 'InvalidPayload');
    });

    it('answers 401 without a key, saying how to get one', async () => {
      const res = await chat.call('GET', '/users/me');
      const body = expectError(res, 401, 'Unauthorized');
      expect(body.message).toContain('x-user-key');
      expect(body.message).toContain('POST /users');
    });

    it('answers 401 for a malformed key, a forged key, alg none and a key of another secret', async () => {
      const forged = `${alice.key.slice(0, -4)}AAAA`;
      const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ id: alice.id })}.`;
      const hs512 = await new SignJWT({ id: alice.id })
        .setProtectedHeader({ alg: 'HS512' })
        .sign(new TextEncoder().encode(secret));
      const otherSecret = handSigned('cks_not-the-secret', { id: alice.id });
      for (const key of ['garbage', forged, none, hs512, otherSecret]) {
        const res = await chat.call('GET', '/users/me', { key });
        expectError(res, 401, 'Unauthorized');
      }
    });

    it('accepts a key a site backend signed by hand with node:crypto for an existing user', async () => {
      const res = await chat.call('GET', '/users/me', { key: handSigned(secret, { id: alice.id }) });
      expect(res.statusCode).toBe(200);
    });

    it('get-or-create: creates a verified user on first use (201), finds it after (200)', async () => {
      const key = handSigned(secret, { id: 'site-user-42' });
      const first = await chat.call('POST', '/users/get-or-create', { key, body: { name: 'Site user' } });
      expect(first.statusCode).toBe(201);
      expect(first.json()).toMatchObject({ user: { id: 'site-user-42', name: 'Site user' } });
      const again = await chat.call('POST', '/users/get-or-create', { key, body: { name: 'Ignored' } });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ user: { id: 'site-user-42', name: 'Site user' } });
      const me = await chat.call('GET', '/users/me', { key });
      expect(me.statusCode).toBe(200);
    });

    it('get-or-create refuses keys it did not sign and ids that are not user ids', async () => {
      await expectRefusal(401, 'Unauthorized', 'POST', '/users/get-or-create', { body: {} });
      const forged = handSigned('cks_wrong', { id: 'site-user-43' });
      await expectRefusal(401, 'Unauthorized', 'POST', '/users/get-or-create', { key: forged, body: {} });
      const badId = handSigned(secret, { id: 'has spaces' });
      await expectRefusal(401, 'Unauthorized', 'POST', '/users/get-or-create', { key: badId, body: {} });
      const botId = handSigned(secret, { id: `bot_${t.botId}` });
      await expectRefusal(403, 'Forbidden', 'POST', '/users/get-or-create', { key: botId, body: {} });
    });

    it('deletes the caller with its messages; its key stops working', async () => {
      const dave = await chat.user({ name: 'Dave' });
      const conv = await chat.conversation(dave);
      const message = await chat.message(dave, conv, 'bye');
      // Alice joins Dave's conversation, so it survives Dave.
      const shared = await chat.conversation(dave);
      expect(
        (
          await chat.call('POST', `/conversations/${shared}/participants`, {
            key: dave.key,
            body: { userId: alice.id },
          })
        ).statusCode,
      ).toBe(201);
      const del = await chat.call('DELETE', '/users/me', { key: dave.key });
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual({});
      await expectRefusal(401, 'Unauthorized', 'GET', '/users/me', { key: dave.key });
      await expectRefusal(404, 'ResourceNotFound', 'GET', `/messages/${message.id}`, { bot: true });
      await expectRefusal(404, 'ResourceNotFound', 'GET', `/conversations/${conv}`, { bot: true });
      expect((await chat.call('GET', `/conversations/${shared}`, { key: alice.key })).statusCode).toBe(200);
    });
  });

  describe('bots', () => {
    it('answers 404 for an unknown bot and 403 for a disabled one', async () => {
      const unknown = await t.app.inject({ method: 'POST', url: '/v1/chat/no-such-bot/users', payload: {} });
      expectError(unknown, 404, 'ResourceNotFound');
      const created = await t.asOwner('POST', '/v1/admin/bots', { name: 'Off' });
      const offId = (created.json() as { bot: { id: string } }).bot.id;
      expect((await t.asOwner('PUT', `/v1/admin/bots/${offId}`, { status: 'disabled' })).statusCode).toBe(
        200,
      );
      const res = await t.app.inject({ method: 'POST', url: `/v1/chat/${offId}/users`, payload: {} });
      expectError(res, 403, 'Forbidden');
    });

    it("refuses another bot's key, and a user key of another bot", async () => {
      const other = await t.otherTenant();
      const otherChat = chatClient(t, other.botId);
      const res = await otherChat.call('GET', '/conversations', { bot: true });
      expectError(res, 403, 'Forbidden');
      expectError(await otherChat.call('GET', '/users/me', { key: alice.key }), 401, 'Unauthorized');
    });

    it("answers 404 for another bot's conversation id, even to its own participant", async () => {
      const other = await t.otherTenant();
      const otherChat = chatClient(t, other.botId);
      const stranger = await otherChat.user();
      const conv = await otherChat.conversation(stranger);
      await expectRefusal(404, 'ResourceNotFound', 'GET', `/conversations/${conv}`, { key: alice.key });
      await expectRefusal(404, 'ResourceNotFound', 'GET', `/conversations/${conv}`, { bot: true });
    });

    it("answers the bot's errors before the key's, whatever key is sent (the key is looked up meanwhile)", async () => {
      const post = (botId: string, authorization: string, headers: Record<string, string> = {}) =>
        t.app.inject({
          method: 'GET',
          url: `/v1/chat/${botId}/conversations`,
          headers: { authorization, ...headers },
        });
      for (const key of [
        `Bearer ${t.botKey}`,
        'Bearer bak_unknown',
        'Basic abc',
        `Bearer ${t.owner.token}`,
      ]) {
        expectError(await post('no-such-bot', key), 404, 'ResourceNotFound');
        expectError(await post(t.botId, key, { 'x-admin-key': 'not-the-admin-key' }), 403, 'Forbidden');
      }
      const created = await t.asOwner('POST', '/v1/admin/bots', { name: 'Off with a key' });
      const offId = (created.json() as { bot: { id: string } }).bot.id;
      const key = await t.asOwner('POST', `/v1/admin/bots/${offId}/access-keys`, {});
      const offKey = (key.json() as { key: { value: string } }).key.value;
      expect((await t.asOwner('PUT', `/v1/admin/bots/${offId}`, { status: 'disabled' })).statusCode).toBe(
        200,
      );
      const disabled = expectError(await post(offId, `Bearer ${offKey}`), 403, 'Forbidden');
      expect(disabled.message).toContain('is disabled');
      // On a bot that answers, the key's own errors.
      expectError(await post(t.botId, 'Basic abc'), 401, 'Unauthorized');
      expectError(await post(t.botId, 'Bearer bak_unknown'), 401, 'Unauthorized');
      expectError(await post(t.botId, `Bearer ${offKey}`), 403, 'Forbidden');
      expect((await post(t.botId, `Bearer ${t.botKey}`)).statusCode).toBe(200);
    });

    it('refuses a personal access token on the Chat API', async () => {
      const res = await chat.call('GET', '/conversations', {
        headers: { authorization: `Bearer ${t.owner.token}` },
      });
      expectError(res, 403, 'Forbidden');
      const bad = await chat.call('GET', '/conversations', { headers: { authorization: 'Bearer bak_nope' } });
      expectError(bad, 401, 'Unauthorized');
    });
  });

  describe('conversations', () => {
    it('creates (201), gets and lists only the caller’s conversations, paginated', async () => {
      const erin = await chat.user();
      const ids = [
        await chat.conversation(erin),
        await chat.conversation(erin),
        await chat.conversation(erin),
      ];
      const page1 = await chat.call('GET', '/conversations?pageSize=2', { key: erin.key });
      expect(page1.statusCode).toBe(200);
      const body1 = page1.json() as { conversations: Array<{ id: string }>; meta: { nextToken?: string } };
      expect(body1.conversations).toHaveLength(2);
      expect(body1.meta.nextToken).toBeDefined();
      const page2 = await chat.call('GET', `/conversations?pageSize=2&nextToken=${body1.meta.nextToken}`, {
        key: erin.key,
      });
      const body2 = page2.json() as { conversations: Array<{ id: string }>; meta: { nextToken?: string } };
      expect(body2.meta.nextToken).toBeUndefined();
      expect([...body1.conversations, ...body2.conversations].map((c) => c.id).sort()).toEqual(ids.sort());
      const get = await chat.call('GET', `/conversations/${ids[0]}`, { key: erin.key });
      expect(get.json()).toMatchObject({ conversation: { id: ids[0] } });
    });

    it('lets the bot list every conversation of its bot', async () => {
      const res = await chat.call('GET', '/conversations?pageSize=100', { bot: true });
      expect(res.statusCode).toBe(200);
      const ids = (res.json() as { conversations: Array<{ id: string }> }).conversations.map((c) => c.id);
      expect(ids).toContain(conversationId);
    });

    it('creates with a chosen id; a taken id answers 409; get-or-create finds it', async () => {
      expect(await chat.conversation(alice, 'my-chosen-id')).toBe('my-chosen-id');
      await expectRefusal(409, 'AlreadyExists', 'POST', '/conversations', {
        key: alice.key,
        body: { id: 'my-chosen-id' },
      });
      const found = await chat.call('POST', '/conversations/get-or-create', {
        key: alice.key,
        body: { id: 'my-chosen-id' },
      });
      expect(found.statusCode).toBe(200);
      const fresh = await chat.call('POST', '/conversations/get-or-create', {
        key: alice.key,
        body: { id: 'new-one' },
      });
      expect(fresh.statusCode).toBe(201);
      await expectRefusal(403, 'Forbidden', 'POST', '/conversations/get-or-create', {
        key: bob.key,
        body: { id: 'my-chosen-id' },
      });
      await expectRefusal(400, 'InvalidPayload', 'POST', '/conversations', {
        key: alice.key,
        body: { id: 'bad id!' },
      });
    });

    it('answers 403 to a non-participant on every conversation route', async () => {
      const routes: Array<['GET' | 'POST' | 'DELETE', string, unknown?]> = [
        ['GET', `/conversations/${conversationId}`],
        ['DELETE', `/conversations/${conversationId}`],
        ['GET', `/conversations/${conversationId}/messages`],
        ['GET', `/conversations/${conversationId}/participants`],
        ['POST', `/conversations/${conversationId}/participants`, { userId: bob.id }],
        ['GET', `/conversations/${conversationId}/participants/${alice.id}`],
        ['POST', '/messages', { conversationId, payload: { type: 'text', text: 'hi' } }],
        ['POST', '/events', { conversationId, payload: { x: 1 } }],
      ];
      for (const [method, path, body] of routes) {
        const res = await chat.call(method, path, { key: bob.key, ...(body ? { body } : {}) });
        expectError(res, 403, 'Forbidden');
      }
      await expectRefusal(404, 'ResourceNotFound', 'GET', '/conversations/nope', { key: bob.key });
    });

    it('deletes a conversation with its messages', async () => {
      const conv = await chat.conversation(alice);
      const message = await chat.message(alice, conv, 'to be deleted');
      expect((await chat.call('DELETE', `/conversations/${conv}`, { key: alice.key })).statusCode).toBe(200);
      await expectRefusal(404, 'ResourceNotFound', 'GET', `/conversations/${conv}`, { key: alice.key });
      await expectRefusal(404, 'ResourceNotFound', 'GET', `/messages/${message.id}`, { key: alice.key });
    });
  });

  describe('participants', () => {
    it('adds, lists, gets and removes participants', async () => {
      const conv = await chat.conversation(alice);
      const add = await chat.call('POST', `/conversations/${conv}/participants`, {
        key: alice.key,
        body: { userId: bob.id },
      });
      expect(add.statusCode).toBe(201);
      expect(add.json()).toMatchObject({ participant: { id: bob.id, name: 'Bob' } });
      const list = await chat.call('GET', `/conversations/${conv}/participants`, { key: bob.key });
      expect((list.json() as { participants: Array<{ id: string }> }).participants.map((p) => p.id)).toEqual([
        alice.id,
        bob.id,
      ]);
      const one = await chat.call('GET', `/conversations/${conv}/participants/${bob.id}`, { key: alice.key });
      expect(one.json()).toMatchObject({ participant: { id: bob.id } });
      await expectRefusal(403, 'Forbidden', 'DELETE', `/conversations/${conv}/participants/${alice.id}`, {
        key: bob.key,
      });
      const removed = await chat.call('DELETE', `/conversations/${conv}/participants/${bob.id}`, {
        key: alice.key,
      });
      expect(removed.statusCode).toBe(200);
      await expectRefusal(404, 'ResourceNotFound', 'GET', `/conversations/${conv}/participants/${bob.id}`, {
        key: alice.key,
      });
      await expectRefusal(404, 'ResourceNotFound', 'POST', `/conversations/${conv}/participants`, {
        key: alice.key,
        body: { userId: 'ghost' },
      });
    });
  });

  describe('messages', () => {
    it('refuses links a browser would run (javascript:, data:) in file, image and card payloads with 400, storing nothing', async () => {
      const conv = await chat.conversation(alice);
      const post = (payload: Record<string, unknown>) =>
        chat.call('POST', '/messages', { bot: true, body: { conversationId: conv, payload } });
      const card = (value: string) => ({
        title: 'Offer',
        actions: [{ action: 'url', label: 'Open', value }],
      });
      for (const payload of [
        { type: 'file', fileUrl: 'javascript:alert(document.cookie)' },
        { type: 'file', fileUrl: 'JaVaScRiPt:alert(1)' },
        { type: 'image', imageUrl: 'data:image/svg+xml,<svg onload=alert(1)>' },
        { type: 'video', videoUrl: 'javascript:alert(1)' },
        { type: 'card', ...card('javascript:alert(1)') },
        { type: 'carousel', items: [card('data:text/html,<script>alert(1)</script>')] },
      ]) {
        const res = await post(payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toMatchObject({ code: 400, type: 'InvalidPayload' });
      }
      const listed = await chat.call('GET', `/conversations/${conv}/messages`, { key: alice.key });
      expect((listed.json() as { messages: unknown[] }).messages).toEqual([]);
      for (const payload of [
        { type: 'file', fileUrl: 'https://files.example.com/a.pdf', title: 'A' },
        { type: 'card', ...card('mailto:help@example.com') },
        { type: 'card', ...card('tel:+15550100') },
        {
          type: 'card',
          title: 'Pick',
          actions: [{ action: 'postback', label: 'Yes', value: 'javascript is a word here' }],
        },
      ]) {
        const res = await post(payload);
        expect(res.statusCode, `${JSON.stringify(payload)} ${res.body}`).toBe(201);
      }
    });

    it('posts (201), gets and lists messages newest first, paginated', async () => {
      const conv = await chat.conversation(alice);
      const first = await chat.message(alice, conv, 'one');
      const second = await chat.message(alice, conv, 'two');
      const third = await chat.message(alice, conv, 'three');
      const get = await chat.call('GET', `/messages/${second.id}`, { key: alice.key });
      expect(get.json()).toMatchObject({
        message: {
          id: second.id,
          conversationId: conv,
          userId: alice.id,
          isBot: false,
          payload: { type: 'text', text: 'two' },
        },
      });
      const page = await chat.call('GET', `/conversations/${conv}/messages?pageSize=2`, { key: alice.key });
      const body = page.json() as { messages: Array<{ id: string }>; meta: { nextToken?: string } };
      expect(body.messages.map((m) => m.id)).toEqual([third.id, second.id]);
      const rest = await chat.call(
        'GET',
        `/conversations/${conv}/messages?pageSize=2&nextToken=${body.meta.nextToken}`,
        {
          key: alice.key,
        },
      );
      expect((rest.json() as { messages: Array<{ id: string }> }).messages.map((m) => m.id)).toEqual([
        first.id,
      ]);
    });

    it('answers a posted message exactly as it is stored, for a user and for the bot (JSON edge cases)', async () => {
      const conv = await chat.conversation(alice);
      const payload = { type: 'text', text: 'é\u2028 "quoted" \\ tab\t ✓ 𝄞' };
      const metadata = {
        nested: { list: [1, -0, 1e21, 0.1, null, true, 'x'], empty: {}, none: [] },
        unicode: 'ünï\u0000',
        big: 123456789012345680000,
      };
      for (const as of [{ key: alice.key }, { bot: true }] as const) {
        const posted = await chat.call('POST', '/messages', {
          ...as,
          body: { conversationId: conv, payload, metadata },
        });
        expect(posted.statusCode, posted.body).toBe(201);
        const { message } = posted.json() as { message: { id: string } };
        expect(message).toMatchObject({ payload, metadata: JSON.parse(JSON.stringify(metadata)) });
        const read = await chat.call('GET', `/messages/${message.id}`, { key: alice.key });
        expect(read.body).toBe(posted.body);
      }
      const listed = await chat.call('GET', `/conversations/${conv}/messages`, { key: alice.key });
      const messages = (listed.json() as { messages: unknown[] }).messages;
      expect(messages).toHaveLength(2);
      for (const m of messages)
        expect(m).toMatchObject({ payload, metadata: JSON.parse(JSON.stringify(metadata)) });
    });

    it('answers 413 naming the metadata over 128 KB, for a user and for the bot, storing nothing', async () => {
      const conv = await chat.conversation(alice);
      const metadata = { note: 'x'.repeat(130 * 1024) };
      for (const as of [{ key: alice.key }, { bot: true }] as const) {
        const res = await chat.call('POST', '/messages', {
          ...as,
          body: { conversationId: conv, payload: { type: 'text', text: 'hi' }, metadata },
        });
        const body = expectError(res, 413, 'PayloadTooLarge');
        expect(body.message).toContain('message metadata');
        expect(body.message).toContain('131072');
      }
      const listed = await chat.call('GET', `/conversations/${conv}/messages`, { key: alice.key });
      expect((listed.json() as { messages: unknown[] }).messages).toEqual([]);
    });

    it('accepts every payload type', async () => {
      const conv = await chat.conversation(alice);
      const card = { title: 'T', actions: [{ action: 'url', label: 'Go', value: 'https://x.test' }] };
      const payloads = [
        { type: 'markdown', markdown: '**hi**' },
        { type: 'image', imageUrl: 'https://x.test/a.png' },
        { type: 'audio', audioUrl: 'https://x.test/a.mp3' },
        { type: 'video', videoUrl: 'https://x.test/a.mp4' },
        { type: 'file', fileUrl: 'https://x.test/a.pdf', title: 'A' },
        { type: 'location', latitude: 1, longitude: 2 },
        { type: 'card', ...card },
        { type: 'carousel', items: [card] },
        { type: 'choice', text: 'Pick', options: [{ label: 'A', value: 'a' }] },
        { type: 'dropdown', text: 'Pick', options: [{ label: 'A', value: 'a' }] },
        { type: 'bloc', items: [{ type: 'text', text: 'x' }] },
      ];
      for (const payload of payloads) {
        const res = await chat.call('POST', '/messages', {
          key: alice.key,
          body: { conversationId: conv, payload },
        });
        expect(res.statusCode, `${payload.type}: ${res.body}`).toBe(201);
      }
    });

    it('answers 400 for a bad payload type and 415 for a non-JSON body', async () => {
      const res = await chat.call('POST', '/messages', {
        key: alice.key,
        body: { conversationId, payload: { type: 'hologram', text: 'x' } },
      });
      expectError(res, 400, 'InvalidPayload');
      const text = await t.app.inject({
        method: 'POST',
        url: `${chat.base}/messages`,
        headers: { 'x-user-key': alice.key, 'content-type': 'text/plain' },
        payload: 'hello',
      });
      expectError(text, 415, 'UnsupportedMediaType');
    });

    it('answers 413 naming the limit for a payload over 128 KB, and for a body over 1 MB', async () => {
      const res = await chat.call('POST', '/messages', {
        key: alice.key,
        body: { conversationId, payload: { type: 'text', text: 'x'.repeat(130 * 1024) } },
      });
      const body = expectError(res, 413, 'PayloadTooLarge');
      expect(body.message).toContain('131072');
      const huge = await chat.call('POST', '/messages', {
        key: alice.key,
        body: { conversationId, payload: { type: 'text', text: 'x'.repeat(1100 * 1024) } },
      });
      expectError(huge, 413, 'PayloadTooLarge');
    });

    it('lets only the author or the bot delete a message', async () => {
      const conv = await chat.conversation(alice);
      await chat.call('POST', `/conversations/${conv}/participants`, {
        key: alice.key,
        body: { userId: bob.id },
      });
      const message = await chat.message(alice, conv, 'mine');
      await expectRefusal(403, 'Forbidden', 'DELETE', `/messages/${message.id}`, { key: bob.key });
      expect((await chat.call('DELETE', `/messages/${message.id}`, { key: alice.key })).statusCode).toBe(200);
      await expectRefusal(404, 'ResourceNotFound', 'GET', `/messages/${message.id}`, { key: alice.key });
      const other = await chat.message(alice, conv, 'bot removes this');
      expect((await chat.call('DELETE', `/messages/${other.id}`, { bot: true })).statusCode).toBe(200);
    });

    it('lets the bot post into any conversation of its bot, as isBot', async () => {
      const res = await chat.call('POST', '/messages', {
        bot: true,
        body: { conversationId, payload: { type: 'text', text: 'Hello from the bot' } },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ message: { isBot: true, userId: `bot_${t.botId}` } });
    });

    it('answers 404 to the bot posting into a conversation its bot does not have, storing nothing', async () => {
      const count = async () =>
        Number(
          (
            await t.db.kysely
              .selectFrom('chat_messages')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      const res = await chat.call('POST', '/messages', {
        bot: true,
        body: { conversationId: 'conv_nope', payload: { type: 'text', text: 'lost' } },
      });
      expectError(res, 404, 'ResourceNotFound');
      expect(res.json()).toMatchObject({ message: expect.stringContaining('conv_nope') });
      expect(await count()).toBe(before);
    });
  });

  describe('feedback', () => {
    it('answers 403 while feedback is disabled, then records it on bot messages only', async () => {
      const conv = await chat.conversation(alice);
      const botMessage = await chat.call('POST', '/messages', {
        bot: true,
        body: { conversationId: conv, payload: { type: 'text', text: 'Rate me' } },
      });
      const botMessageId = (botMessage.json() as { message: { id: string } }).message.id;
      const disabled = await chat.call('PUT', `/messages/${botMessageId}/feedback`, {
        key: alice.key,
        body: { value: 'positive' },
      });
      expect(expectError(disabled, 403, 'Forbidden').message).toContain('feedbackEnabled');
      expect(
        (
          await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, {
            configuration: { feedbackEnabled: true },
          })
        ).statusCode,
      ).toBe(200);
      const ok = await chat.call('PUT', `/messages/${botMessageId}/feedback`, {
        key: alice.key,
        body: { value: 'negative', comment: 'Wrong answer' },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({
        message: { id: botMessageId, feedback: { value: 'negative', comment: 'Wrong answer' } },
      });
      const own = await chat.message(alice, conv, 'mine');
      await expectRefusal(403, 'Forbidden', 'PUT', `/messages/${own.id}/feedback`, {
        key: alice.key,
        body: { value: 'positive' },
      });
      await expectRefusal(400, 'InvalidPayload', 'PUT', `/messages/${botMessageId}/feedback`, {
        key: alice.key,
        body: { value: 'meh' },
      });
      await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, { configuration: {} });
    });
  });

  describe('events', () => {
    it('creates (201) and gets an event', async () => {
      const res = await chat.call('POST', '/events', {
        key: alice.key,
        body: { conversationId, payload: { kind: 'page_view', path: '/pricing' } },
      });
      expect(res.statusCode).toBe(201);
      const event = (res.json() as { event: { id: string } }).event;
      const get = await chat.call('GET', `/events/${event.id}`, { key: alice.key });
      expect(get.json()).toMatchObject({
        event: { id: event.id, conversationId, userId: alice.id, payload: { kind: 'page_view' } },
      });
      await expectRefusal(403, 'Forbidden', 'GET', `/events/${event.id}`, { key: bob.key });
      await expectRefusal(404, 'ResourceNotFound', 'GET', '/events/evt_nope', { key: alice.key });
    });
  });

  describe('files', () => {
    it('answers 403 while upload is disabled; then creates a public file the client uploads to', async () => {
      const body = { name: 'photo.png', size: 5, contentType: 'image/png', conversationId };
      const disabled = await chat.call('POST', '/files', { key: alice.key, body });
      expect(expectError(disabled, 403, 'Forbidden').message).toContain('allowFileUpload');
      await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, {
        configuration: { allowFileUpload: true },
      });
      const res = await chat.call('POST', '/files', { key: alice.key, body });
      expect(res.statusCode).toBe(201);
      const file = (
        res.json() as { file: { id: string; key: string; uploadUrl: string; url: string; size: number } }
      ).file;
      expect(file).toMatchObject({ size: 5, contentType: 'image/png' });
      expect(file.key).toMatch(new RegExp(`^webchat/${conversationId}/.+/photo\\.png$`));
      const upload = await t.app.inject({
        method: 'PUT',
        url: file.uploadUrl.replace(t.config.publicUrl, ''),
        headers: { 'content-type': 'image/png' },
        payload: Buffer.from('hello'),
      });
      expect(upload.statusCode, upload.body).toBeLessThan(300);
      const download = await t.app.inject({ method: 'GET', url: file.url.replace(t.config.publicUrl, '') });
      expect(download.statusCode).toBe(200);
      expect(download.body).toBe('hello');
      const meta = await t.app.inject({
        method: 'GET',
        url: `/v1/files/${file.id}`,
        headers: { authorization: `Bearer ${t.botKey}`, 'x-bot-id': t.botId },
      });
      expect(meta.json()).toMatchObject({
        file: {
          tags: { source: 'webchat', conversationId, userId: alice.id },
          accessPolicies: ['public_content'],
          owner: { type: 'user', id: alice.id },
        },
      });
      await expectRefusal(403, 'Forbidden', 'POST', '/files', { key: bob.key, body });
      await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, { configuration: {} });
    });
  });

  describe('adminKey', () => {
    it('lets a session with the right adminKey read any conversation; a wrong key answers 403', async () => {
      await expectRefusal(403, 'Forbidden', 'GET', `/conversations/${conversationId}`, {
        key: bob.key,
        headers: { 'x-admin-key': 'anything' },
      });
      await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, {
        configuration: { adminKey: 'support-secret' },
      });
      const ok = await chat.call('GET', `/conversations/${conversationId}/messages`, {
        key: bob.key,
        headers: { 'x-admin-key': 'support-secret' },
      });
      expect(ok.statusCode).toBe(200);
      const wrong = await chat.call('GET', `/conversations/${conversationId}`, {
        key: bob.key,
        headers: { 'x-admin-key': 'support-secreT' },
      });
      expect(expectError(wrong, 403, 'Forbidden').message).toContain('adminKey');
      // Reading, not writing: the admin key does not make bob a participant.
      await expectRefusal(403, 'Forbidden', 'POST', '/messages', {
        key: bob.key,
        headers: { 'x-admin-key': 'support-secret' },
        body: { conversationId, payload: { type: 'text', text: 'x' } },
      });
      await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, { configuration: {} });
    });
  });

  describe('secrets', () => {
    it('reveals secrets to developers, not viewers; rotating invalidates old keys', async () => {
      const viewer = await t.addMember('viewer');
      const res = await caller(t, viewer.token)('GET', `/v1/admin/bots/${t.botId}/chat`);
      expectError(res, 403, 'Forbidden');
      const developer = await t.addMember('developer');
      const dev = await caller(t, developer.token)('GET', `/v1/admin/bots/${t.botId}/chat`);
      expect(dev.statusCode).toBe(200);
      expect(dev.json()).toMatchObject({
        chat: { userKeySecret: secret, webhookSecret: expect.stringMatching(/^whsec_/) },
      });
      expectError(await t.asOwner('GET', '/v1/admin/bots/nope/chat'), 404, 'ResourceNotFound');
      // Another workspace's bot is not found: its secrets are neither revealed nor rotated from here.
      const other = await t.otherTenant();
      expectError(await t.asOwner('GET', `/v1/admin/bots/${other.botId}/chat`), 404, 'ResourceNotFound');
      expectError(
        await t.asOwner('POST', `/v1/admin/bots/${other.botId}/chat/rotate-secrets`),
        404,
        'ResourceNotFound',
      );

      const frank = await chat.user();
      const rotated = await caller(t, developer.token)(
        'POST',
        `/v1/admin/bots/${t.botId}/chat/rotate-secrets`,
      );
      expect(rotated.statusCode).toBe(200);
      const fresh = (rotated.json() as { chat: { userKeySecret: string } }).chat.userKeySecret;
      expect(fresh).not.toBe(secret);
      await expectRefusal(401, 'Unauthorized', 'GET', '/users/me', { key: frank.key });
      const resigned = handSigned(fresh, { id: frank.id });
      expect((await chat.call('GET', '/users/me', { key: resigned })).statusCode).toBe(200);
      secret = fresh;
      alice = { ...alice, key: handSigned(fresh, { id: alice.id }) };
      bob = { ...bob, key: handSigned(fresh, { id: bob.id }) };
    });
  });

  it('answers CORS preflights', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: `${chat.base}/messages` });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-headers']).toContain('x-user-key');
  });
});
