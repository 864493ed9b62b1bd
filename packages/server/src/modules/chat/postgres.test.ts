import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatClient, openSse, type TestChatUser } from '../../../../testkit/src/server/chat.js';
import { createTestApp, postgresTestUrl, type TestApp } from '../../../../testkit/src/server/harness.js';
import { type SecondProcess, secondProcess } from '../../../../testkit/src/server/second-process.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import type { ParleyApp } from '../../app.js';

const url = postgresTestUrl();

describe.skipIf(!url)('Chat API on PostgreSQL, two processes sharing one database', () => {
  let a: TestApp;
  let second: SecondProcess;
  let b: ParleyApp;
  let baseA: string;
  let baseB: string;
  let chat: ReturnType<typeof chatClient>;
  let alice: TestChatUser;

  beforeAll(async () => {
    a = await createTestApp({ databaseUrl: url as string });
    // Process B: its own app and connection pool on the same database and schema.
    second = await secondProcess(a, url as string);
    b = second.app;
    baseA = `${await a.app.listen({ port: 0, host: '127.0.0.1' })}/v1/chat/${a.botId}`;
    baseB = `${await b.listen({ port: 0, host: '127.0.0.1' })}/v1/chat/${a.botId}`;
    chat = chatClient(a);
    alice = await chat.user({ name: 'Alice' });
  });
  afterAll(async () => {
    await second?.close();
    await a?.close();
  });

  it('serves the chat routes: users, conversations, messages with pages, events, participants, deletion', async () => {
    const bob = await chat.user({ name: 'Bob' });
    const conv = await chat.conversation(alice);
    expect(
      (await chat.call('POST', '/conversations', { key: alice.key, body: { id: conv } })).statusCode,
    ).toBe(409);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await chat.message(alice, conv, `m${i}`)).id);
    const page = await chat.call('GET', `/conversations/${conv}/messages?pageSize=2`, { key: alice.key });
    const body = page.json() as { messages: Array<{ id: string }>; meta: { nextToken?: string } };
    expect(body.messages.map((m) => m.id)).toEqual([ids[2], ids[1]]);
    const rest = await chat.call('GET', `/conversations/${conv}/messages?nextToken=${body.meta.nextToken}`, {
      key: alice.key,
    });
    expect((rest.json() as { messages: Array<{ id: string }> }).messages.map((m) => m.id)).toEqual([ids[0]]);
    // Deleting a message drops its stored signals' copy of it.
    expect((await chat.call('DELETE', `/messages/${ids[2]}`, { key: alice.key })).statusCode).toBe(200);
    const signals = await a.db.kysely
      .selectFrom('chat_signals')
      .select(['type', 'data'])
      .where('conversation_id', '=', conv)
      .execute();
    expect(signals.filter((r) => r.type === 'message_created')).toHaveLength(2);
    expect(signals.some((r) => r.data.includes('"m2"'))).toBe(false);
    expect(signals.some((r) => r.type === 'message_deleted')).toBe(true);
    expectError(await chat.call('GET', `/conversations/${conv}`, { key: bob.key }), 403, 'Forbidden');
    const added = await chat.call('POST', `/conversations/${conv}/participants`, {
      key: alice.key,
      body: { userId: bob.id },
    });
    expect(added.statusCode).toBe(201);
    const event = await chat.call('POST', '/events', {
      key: bob.key,
      body: { conversationId: conv, payload: { a: 1 } },
    });
    expect(event.statusCode).toBe(201);
    const verified = await chat.call('POST', '/users/get-or-create', {
      key: await signedKey(a, 'pg-site-user'),
      body: { name: 'Site' },
    });
    expect(verified.statusCode).toBe(201);
    expect((await chat.call('DELETE', '/users/me', { key: bob.key })).statusCode).toBe(200);
    expect((await chat.call('DELETE', `/conversations/${conv}`, { key: alice.key })).statusCode).toBe(200);
    expectError(await chat.call('GET', `/messages/${ids[0]}`, { key: alice.key }), 404, 'ResourceNotFound');
  });

  it('delivers a message posted on process A to a listener on process B', async () => {
    const conv = await chat.conversation(alice);
    const stream = await openSse(`${baseB}/conversations/${conv}/listen`, { 'x-user-key': alice.key });
    try {
      expect(stream.res.status).toBe(200);
      const sent = await postOver(baseA, alice, conv, 'from A');
      await stream.until((f) => f.some((x) => x.data?.type === 'message_created'), 5000);
      expect(stream.signals()[0]?.data?.data).toMatchObject({ id: sent, payload: { text: 'from A' } });
    } finally {
      await stream.close();
    }
  });

  it('keeps order and loses nothing when both processes post at once, and resumes on the other process', async () => {
    const conv = await chat.conversation(alice);
    const stream = await openSse(`${baseB}/conversations/${conv}/listen`, { 'x-user-key': alice.key });
    let lastId = '';
    try {
      const posts = [];
      for (let i = 0; i < 15; i++) {
        posts.push(postOver(baseA, alice, conv, `A${i}`));
        posts.push(postOver(baseB, alice, conv, `B${i}`));
      }
      const sent = await Promise.all(posts);
      // A last message marks the end: the stream is in order, so a signal repeated comes before it.
      const marker = await postOver(baseA, alice, conv, 'marker');
      await stream.until(
        (f) => f.some((x) => (x.data?.data as { id: string } | undefined)?.id === marker),
        10_000,
      );
      const frames = stream.signals();
      expect(frames).toHaveLength(31);
      expect(new Set(frames.map((f) => (f.data?.data as { id: string } | undefined)?.id))).toEqual(
        new Set([...sent, marker]),
      );
      const cursors = frames.map((f) => Number(f.id));
      expect([...cursors].sort((x, y) => x - y)).toEqual(cursors);
      lastId = frames[9]?.id as string;
    } finally {
      await stream.close();
    }
    // Resume on process A from the 10th signal B sent: exactly the 21 after it, then a live one (the end's mark).
    const resumed = await openSse(`${baseA}/conversations/${conv}/listen`, {
      'x-user-key': alice.key,
      'last-event-id': lastId,
    });
    try {
      const end = await postOver(baseB, alice, conv, 'end');
      await resumed.until(
        (f) => f.some((x) => (x.data?.data as { id: string } | undefined)?.id === end),
        5000,
      );
      expect(resumed.signals()).toHaveLength(22);
      expect(Number(resumed.signals()[0]?.id)).toBeGreaterThan(Number(lastId));
    } finally {
      await resumed.close();
    }
  });

  it("follows a change of the bot's settings made on process A on process B's very next request", async () => {
    const conv = await chat.conversation(alice);
    const onB = (adminKey: string) =>
      b.inject({
        method: 'GET',
        url: `/v1/chat/${a.botId}/conversations/${conv}`,
        headers: { 'x-user-key': alice.key, 'x-admin-key': adminKey },
      });
    const setOnA = async (configuration: Record<string, unknown>) =>
      expect(
        (await a.asOwner('PUT', `/v1/admin/bots/${a.botId}/webchat`, { configuration })).statusCode,
      ).toBe(200);
    try {
      await setOnA({ adminKey: 'first-key' });
      expect((await onB('first-key')).statusCode).toBe(200);
      await setOnA({ adminKey: 'second-key' });
      expectError(await onB('first-key'), 403, 'Forbidden');
      expect((await onB('second-key')).statusCode).toBe(200);
      // Back to a configuration B has seen before: still the one stored now, not one B kept.
      await setOnA({ adminKey: 'first-key' });
      expectError(await onB('second-key'), 403, 'Forbidden');
      expect((await onB('first-key')).statusCode).toBe(200);
      // Disabled on A: B refuses the bot's Chat API at once; enabled again, B serves it.
      expect((await a.asOwner('PUT', `/v1/admin/bots/${a.botId}`, { status: 'disabled' })).statusCode).toBe(
        200,
      );
      expectError(await onB('first-key'), 403, 'Forbidden');
      expect((await a.asOwner('PUT', `/v1/admin/bots/${a.botId}`, { status: 'active' })).statusCode).toBe(
        200,
      );
      expect((await onB('first-key')).statusCode).toBe(200);
    } finally {
      await setOnA({});
    }
  });

  it('delivers messages too large for a NOTIFY (read back) among small ones (carried in it) in order, once, on both processes', async () => {
    const conv = await chat.conversation(alice);
    const streams = await Promise.all(
      [baseA, baseB].map((base) =>
        openSse(`${base}/conversations/${conv}/listen`, { 'x-user-key': alice.key }),
      ),
    );
    try {
      const large = 'x'.repeat(12_000);
      const posts = [];
      for (let i = 0; i < 8; i++) {
        posts.push(postOver(baseA, alice, conv, i % 2 ? `A${i} ${large}` : `A${i}`));
        posts.push(postOver(baseB, alice, conv, i % 3 ? `B${i}` : `B${i} ${large}`));
      }
      const sent = await Promise.all(posts);
      // A last message marks the end: the stream is in order, so a signal repeated comes before it.
      const marker = await postOver(baseA, alice, conv, 'marker');
      for (const stream of streams) {
        await stream.until(
          (f) => f.some((x) => (x.data?.data as { id: string } | undefined)?.id === marker),
          10_000,
        );
        const frames = stream.signals();
        expect(frames).toHaveLength(17);
        const ids = frames.map((f) => (f.data?.data as { id: string } | undefined)?.id);
        expect(new Set(ids)).toEqual(new Set([...sent, marker]));
        const cursors = frames.map((f) => Number(f.id));
        expect([...cursors].sort((x, y) => x - y)).toEqual(cursors);
      }
      // Both processes sent the same frames, byte for byte in what they carry.
      expect(streams[0]?.signals()).toEqual(streams[1]?.signals());
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
  });
});

async function postOver(
  base: string,
  user: TestChatUser,
  conversationId: string,
  text: string,
): Promise<string> {
  const res = await fetch(`${base}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user-key': user.key },
    body: JSON.stringify({ conversationId, payload: { type: 'text', text } }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { message: { id: string } }).message.id;
}

async function signedKey(t: TestApp, userId: string): Promise<string> {
  const res = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/chat`);
  const secret = (res.json() as { chat: { userKeySecret: string } }).chat.userKeySecret;
  const { signUserKey } = await import('./keys.js');
  return signUserKey(secret, userId);
}
