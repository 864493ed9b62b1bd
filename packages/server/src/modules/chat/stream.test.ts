import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  chatClient,
  type LiveStream,
  liveConversation,
  liveStreams,
  type SseFrame,
  type TestChatUser,
} from '../../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { createTestApp, type TestApp } from '../../../../testkit/src/server/harness.js';
import { eventually } from '../../../../testkit/src/shared/eventually.js';
import { frameOf, writeFrame } from './stream-frames.js';

describe('Chat API live stream (SSE over real HTTP)', () => {
  const t = useTestApp({ env: { PARLEY_CHAT_PING_INTERVAL_MS: '100' } });
  let chat: ReturnType<typeof chatClient>;
  let sse: Awaited<ReturnType<typeof liveStreams>>;
  let alice: TestChatUser;
  let bob: TestChatUser;

  beforeAll(async () => {
    chat = chatClient(t);
    sse = await liveStreams(t);
    alice = await chat.user({ name: 'Alice' });
    bob = await chat.user({ name: 'Bob' });
  });

  /** Alice adds a participant to a conversation of hers. */
  const addParticipant = (conversationId: string, user: TestChatUser) =>
    chat.call('POST', `/conversations/${conversationId}/participants`, {
      key: alice.key,
      body: { userId: user.id },
    });

  /** Opens Alice's stream of a new conversation of hers for `body`, and closes it after. */
  const withAliceStream = async (body: (conv: string, stream: LiveStream) => Promise<void>) => {
    const conv = await chat.conversation(alice);
    const stream = await sse.listen(conv, { 'x-user-key': alice.key });
    try {
      await body(conv, stream);
    } finally {
      await stream.close();
    }
  };

  it('streams the sender its own message, with event, id and data frames, and CORS headers', () =>
    withAliceStream(async (conv, stream) => {
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get('content-type')).toContain('text/event-stream');
      expect(stream.res.headers.get('access-control-allow-origin')).toBe('*');
      const sent = await chat.message(alice, conv, 'hello');
      await stream.until((f) => f.some((x) => x.data?.type === 'message_created'));
      const frame = stream.frames.find((x) => x.data?.type === 'message_created');
      expect(frame?.event).toBe('message');
      expect(frame?.id).toMatch(/^\d+$/);
      expect(frame?.data?.data).toMatchObject({
        id: sent.id,
        isBot: false,
        payload: { type: 'text', text: 'hello' },
      });
    }));

  it('pings at the configured interval, without an id', () =>
    withAliceStream(async (_conv, stream) => {
      await stream.until((f) => f.filter((x) => x.data?.type === 'ping').length >= 2, 3000);
      const ping = stream.frames.find((x) => x.data?.type === 'ping');
      expect(ping).toEqual({ event: 'message', data: { type: 'ping', data: {} } });
    }));

  it('streams participants, events, deletions and the bot’s messages to every participant', () =>
    withAliceStream(async (conv, stream) => {
      await addParticipant(conv, bob);
      const bobStream = await sse.listen(conv, { 'x-user-key': bob.key });
      const message = await chat.message(bob, conv, 'from bob');
      await chat.call('POST', '/events', { key: bob.key, body: { conversationId: conv, payload: { k: 1 } } });
      await chat.call('POST', '/messages', {
        bot: true,
        body: { conversationId: conv, payload: { type: 'text', text: 'from the bot' } },
      });
      await chat.call('DELETE', `/messages/${message.id}`, { key: bob.key });
      const expected = [
        'participant_added',
        'message_created',
        'event_created',
        'message_created',
        'message_deleted',
      ];
      await stream.until((f) => f.filter((x) => x.data && x.data.type !== 'ping').length >= expected.length);
      expect(stream.signals().map((x) => x.data?.type)).toEqual(expected);
      expect(stream.signals()[3]?.data?.data).toMatchObject({ isBot: true, userId: `bot_${t.botId}` });
      await bobStream.until((f) => f.filter((x) => x.data && x.data.type !== 'ping').length >= 4);
      expect(bobStream.signals().map((x) => x.data?.type)).toEqual(expected.slice(1));
      await bobStream.close();
    }));

  it('resumes after a disconnect with Last-Event-ID: exactly the missed signals, in order, then live ones', async () => {
    const conv = await chat.conversation(alice);
    const first = await sse.listen(conv, { 'x-user-key': alice.key });
    await chat.message(alice, conv, 'm0');
    await first.until((f) => f.some((x) => x.data?.type === 'message_created'));
    const lastId = first.signals().at(-1)?.id as string;
    await first.close();

    const missed = [];
    for (let i = 1; i <= 5; i++) missed.push((await chat.message(alice, conv, `m${i}`)).id);

    const second = await sse.listen(conv, { 'x-user-key': alice.key, 'last-event-id': lastId });
    let expected: string[] = [];
    try {
      await second.until((f) => f.filter((x) => x.data?.type === 'message_created').length >= 5);
      const live = await chat.message(alice, conv, 'live');
      // A last message marks the end: the stream is in order, so a signal repeated by the replay comes before it.
      const marker = await chat.message(alice, conv, 'marker');
      await second.until((f) =>
        f.some((x) => (x.data?.data as { id: string } | undefined)?.id === marker.id),
      );
      const ids = second.signals().map((x) => (x.data?.data as { id: string } | undefined)?.id);
      expected = [...missed, live.id, marker.id];
      expect(ids).toEqual(expected);
      const cursors = second.signals().map((x) => Number(x.id));
      expect(cursors.every((c, i) => i === 0 || c > (cursors[i - 1] as number))).toBe(true);
      expect(cursors[0]).toBeGreaterThan(Number(lastId));
    } finally {
      await second.close();
    }

    // The query parameter works the same (EventSource cannot set headers on its first request).
    const third = await sse.listen(conv, { 'x-user-key': alice.key }, `?lastEventId=${lastId}`);
    try {
      await third.until((f) => f.filter((x) => x.data?.type === 'message_created').length >= 7);
      const ids = third.signals().map((x) => (x.data?.data as { id: string } | undefined)?.id);
      expect(ids).toEqual(expected);
    } finally {
      await third.close();
    }
  });

  it('loses nothing and repeats nothing while messages arrive during the replay', async () => {
    const conv = await chat.conversation(alice);
    for (let i = 0; i < 30; i++) await chat.message(alice, conv, `before ${i}`);
    const during = Promise.all(
      Array.from({ length: 30 }, (_, i) => chat.message(alice, conv, `during ${i}`)),
    );
    const stream = await sse.listen(conv, { 'x-user-key': alice.key, 'last-event-id': '0' });
    try {
      await during;
      // A last message marks the end: the stream is in order, so a signal repeated by the replay comes before it.
      const marker = await chat.message(alice, conv, 'marker');
      await stream.until((f) =>
        f.some((x) => (x.data?.data as { id: string } | undefined)?.id === marker.id),
      );
      const created = stream.signals().filter((x) => x.data?.type === 'message_created');
      expect(created).toHaveLength(61);
      expect(new Set(created.map((x) => x.id)).size).toBe(61);
      expect((created.at(-1)?.data?.data as { id: string } | undefined)?.id).toBe(marker.id);
    } finally {
      await stream.close();
    }
  });

  it('sends debug signals only to streams opened with the right adminKey', async () => {
    await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, {
      configuration: { adminKey: 'support-key' },
    });
    const conv = await chat.conversation(alice);
    const plain = await sse.listen(conv, { 'x-user-key': alice.key });
    const admin = await sse.listen(conv, { 'x-user-key': bob.key, 'x-admin-key': 'support-key' });
    try {
      expect(admin.res.status).toBe(200);
      await t.app.services.chat.emit(t.botId, conv, [
        { signal: { type: 'debug', data: { conversationId: conv, query: 'q' } }, adminOnly: true },
      ]);
      await chat.message(alice, conv, 'after debug');
      await admin.until((f) => f.some((x) => x.data?.type === 'message_created'));
      await plain.until((f) => f.some((x) => x.data?.type === 'message_created'));
      expect(admin.signals().map((x) => x.data?.type)).toEqual(['debug', 'message_created']);
      expect(plain.signals().map((x) => x.data?.type)).toEqual(['message_created']);
      const wrong = await fetch(sse.url(conv), {
        headers: { 'x-user-key': bob.key, 'x-admin-key': 'nope' },
      });
      expect(wrong.status).toBe(403);
      expect(await wrong.json()).toMatchObject({ type: 'Forbidden' });
    } finally {
      await plain.close();
      await admin.close();
      await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, { configuration: {} });
    }
  });

  it('answers 401 without a key, 403 to a non-participant, 404 for an unknown conversation, 400 for a bad cursor', async () => {
    const conv = await chat.conversation(alice);
    const url = sse.url(conv);
    const noKey = await fetch(url);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ type: 'Unauthorized', code: 401 });
    const stranger = await fetch(url, { headers: { 'x-user-key': bob.key } });
    expect(stranger.status).toBe(403);
    await stranger.body?.cancel();
    const unknown = await fetch(sse.url('nope'), {
      headers: { 'x-user-key': alice.key },
    });
    expect(unknown.status).toBe(404);
    await unknown.body?.cancel();
    const bad = await fetch(url, { headers: { 'x-user-key': alice.key, 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
    await bad.body?.cancel();
  });

  it('lets the bot listen to any conversation of its bot', async () => {
    const conv = await chat.conversation(alice);
    const stream = await sse.listen(conv, { authorization: `Bearer ${t.botKey}` });
    try {
      expect(stream.res.status).toBe(200);
      await chat.message(alice, conv, 'to the bot');
      await stream.until((f) => f.some((x) => x.data?.type === 'message_created'));
    } finally {
      await stream.close();
    }
  });

  it('ends every open stream of a deleted conversation after a conversation_deleted signal, and keeps none of its signals', async () => {
    const conv = await chat.conversation(alice);
    await addParticipant(conv, bob);
    await chat.message(alice, conv, 'secret words');
    const aliceStream = await sse.listen(conv, { 'x-user-key': alice.key });
    const botStream = await sse.listen(conv, { authorization: `Bearer ${t.botKey}` });
    const deleted = await chat.call('DELETE', `/conversations/${conv}`, { key: alice.key });
    expect(deleted.statusCode).toBe(200);
    for (const stream of [aliceStream, botStream]) {
      await stream.done;
      expect(stream.ended).toBe(true);
      expect(stream.signals().map((f) => f.data)).toEqual([
        { type: 'conversation_deleted', data: { conversationId: conv } },
      ]);
    }
    // Resuming from the very start finds the conversation gone, not its old messages.
    const again = await sse.listen(conv, { 'x-user-key': bob.key }, '?lastEventId=0');
    expect(again.res.status).toBe(404);
    await again.close();
    const rows = await t.db.kysely
      .selectFrom('chat_signals')
      .select('type')
      .where('conversation_id', '=', conv)
      .execute();
    expect(rows.map((r) => r.type)).toEqual(['conversation_deleted']);
  });

  it('keeps no stored copy of a deleted message: a stream resuming from before it gets only message_deleted', async () => {
    const conv = await chat.conversation(alice);
    const kept = await chat.message(alice, conv, 'kept words');
    const secret = await chat.message(alice, conv, 'regretted words');
    const stored = async () =>
      (
        await t.db.kysely
          .selectFrom('chat_signals')
          .select(['type', 'data'])
          .where('conversation_id', '=', conv)
          .orderBy('cursor')
          .execute()
      ).map((r) => r.type);
    expect(await stored()).toEqual(['participant_added', 'message_created', 'message_created']);
    const deleted = await chat.call('DELETE', `/messages/${secret.id}`, { key: alice.key });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await stored()).toEqual(['participant_added', 'message_created', 'message_deleted']);
    const rows = await t.db.kysely
      .selectFrom('chat_signals')
      .select('data')
      .where('conversation_id', '=', conv)
      .execute();
    expect(rows.some((r) => r.data.includes('regretted words'))).toBe(false);

    const resumed = await sse.listen(conv, { 'x-user-key': alice.key }, '?lastEventId=0');
    try {
      await resumed.until((f) => f.some((x) => x.data?.type === 'message_deleted'));
      expect(resumed.signals().map((f) => [f.data?.type, f.data?.data.id])).toEqual([
        ['participant_added', undefined],
        ['message_created', kept.id],
        ['message_deleted', secret.id],
      ]);
    } finally {
      await resumed.close();
    }
  });

  it('tells the others when a user deletes itself: its messages go and it leaves, and its own conversations end', async () => {
    const carol = await chat.user({ name: 'Carol' });
    const shared = await chat.conversation(alice);
    await addParticipant(shared, carol);
    const said = await chat.message(carol, shared, 'carol was here');
    const own = await chat.conversation(carol);
    const aliceStream = await sse.listen(shared, { 'x-user-key': alice.key });
    const ownStream = await sse.listen(own, { authorization: `Bearer ${t.botKey}` });
    try {
      const deleted = await chat.call('DELETE', '/users/me', { key: carol.key });
      expect(deleted.statusCode, deleted.body).toBe(200);
      await aliceStream.until((f) => f.some((x) => x.data?.type === 'participant_removed'));
      expect(aliceStream.signals().map((f) => f.data)).toEqual([
        { type: 'message_deleted', data: { id: said.id, conversationId: shared } },
        { type: 'participant_removed', data: { conversationId: shared, participantId: carol.id } },
      ]);
      expect(aliceStream.ended).toBe(false);
      await ownStream.done;
      expect(ownStream.signals().map((f) => f.data?.type)).toEqual(['conversation_deleted']);
    } finally {
      await aliceStream.close();
      await ownStream.close();
    }
  });

  it('ends the stream of a participant who is removed, and only theirs', async () => {
    const conv = await chat.conversation(alice);
    await addParticipant(conv, bob);
    const aliceStream = await sse.listen(conv, { 'x-user-key': alice.key });
    const bobStream = await sse.listen(conv, { 'x-user-key': bob.key });
    try {
      const removed = await chat.call('DELETE', `/conversations/${conv}/participants/${bob.id}`, {
        key: alice.key,
      });
      expect(removed.statusCode).toBe(200);
      await bobStream.done;
      expect(bobStream.ended).toBe(true);
      expect(bobStream.signals().at(-1)?.data).toEqual({
        type: 'participant_removed',
        data: { conversationId: conv, participantId: bob.id },
      });
      await chat.message(alice, conv, 'still here');
      await aliceStream.until((f) =>
        f.some((x) => x.data?.type === 'message_created' && x.data.data.conversationId === conv),
      );
      expect(aliceStream.ended).toBe(false);
      expect(bobStream.signals().some((f) => f.data?.type === 'message_created')).toBe(false);
    } finally {
      await aliceStream.close();
      await bobStream.close();
    }
  });

  it('delivers every message exactly once, in cursor order, to each of many streams while messages are posted concurrently', async () => {
    const conv = await chat.conversation(alice);
    const streams = await Promise.all(
      Array.from({ length: 20 }, () => sse.listen(conv, { authorization: `Bearer ${t.botKey}` })),
    );
    try {
      const sent: string[] = [];
      for (let burst = 0; burst < 3; burst++) {
        const posted = await Promise.all(
          Array.from({ length: 10 }, (_, i) => chat.message(alice, conv, `burst ${burst} message ${i}`)),
        );
        sent.push(...posted.map((m) => m.id));
      }
      const created = (f: SseFrame[]) => f.filter((x) => x.data?.type === 'message_created');
      for (const stream of streams) {
        await stream.until((f) => created(f).length >= sent.length, 10_000);
        const frames = created(stream.frames);
        expect(new Set(frames.map((x) => x.data?.data.id))).toEqual(new Set(sent));
        expect(frames).toHaveLength(sent.length);
        const ids = frames.map((x) => Number(x.id));
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
      }
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
  });

  it('delivers bursts exactly once and in order to every stream, and nothing after its removal to a participant removed mid-burst', async () => {
    const conv = await chat.conversation(alice);
    expect((await addParticipant(conv, bob)).statusCode).toBe(201);
    const bots = await Promise.all(
      Array.from({ length: 8 }, () => sse.listen(conv, { authorization: `Bearer ${t.botKey}` })),
    );
    const aliceStream = await sse.listen(conv, { 'x-user-key': alice.key });
    const bobStream = await sse.listen(conv, { 'x-user-key': bob.key });
    const streams = [...bots, aliceStream, bobStream];
    try {
      // Posted at once (more than the notes whose frames may wait together), the removal in their midst.
      const burst = (n: number, name: string) =>
        Array.from({ length: n }, (_, i) => chat.message(alice, conv, `${name} ${i}`));
      const [before, removed, after] = await Promise.all([
        Promise.all(burst(20, 'before')),
        chat.call('DELETE', `/conversations/${conv}/participants/${bob.id}`, { key: alice.key }),
        Promise.all(burst(20, 'after')),
      ]);
      expect(removed.statusCode).toBe(200);
      const sent = [...before, ...after].map((m) => m.id);
      const created = (f: SseFrame[]) => f.filter((x) => x.data?.type === 'message_created');
      for (const stream of [...bots, aliceStream]) {
        await stream.until((f) => created(f).length >= sent.length, 10_000);
        const frames = stream.signals();
        expect(created(frames)).toHaveLength(sent.length);
        expect(new Set(created(frames).map((x) => x.data?.data.id))).toEqual(new Set(sent));
        const ids = frames.map((x) => Number(x.id));
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
      }
      // Every stream got the same frames; Bob exactly those up to his removal, which ended his stream.
      const reference = aliceStream.signals();
      for (const stream of bots) expect(stream.signals()).toEqual(reference);
      await bobStream.done;
      const cut = reference.findIndex((x) => x.data?.type === 'participant_removed');
      expect(cut).toBeGreaterThanOrEqual(0);
      expect(bobStream.signals()).toEqual(reference.slice(0, cut + 1));
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
  });

  it('sends the signals a transaction of this process stored to the streams at the cursor before them without reading them back, each only what it may see', async () => {
    await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, {
      configuration: { adminKey: 'support-key' },
    });
    const conv = await chat.conversation(alice);
    await addParticipant(conv, bob);
    const service = t.app.services.chat;
    const signalsAfter = service.signalsAfter;
    let reads = 0;
    service.signalsAfter = (...args) => {
      reads += 1;
      return signalsAfter(...args);
    };
    const plain = await Promise.all([alice, bob].map((u) => sse.listen(conv, { 'x-user-key': u.key })));
    const admin = await sse.listen(conv, { 'x-user-key': bob.key, 'x-admin-key': 'support-key' });
    const streams = [...plain, admin];
    const created = (f: SseFrame[]) => f.filter((x) => x.data?.type === 'message_created');
    try {
      // The first message after start may be read (on SQLite this process has no chain for it yet).
      await chat.message(alice, conv, 'first');
      for (const s of streams) await s.until((f) => created(f).length === 1);
      const before = reads;
      // One transaction, two signals: a debug one (adminKey streams only), then a typing one.
      await service.emit(t.botId, conv, [
        { signal: { type: 'debug', data: { conversationId: conv, query: 'q' } }, adminOnly: true },
        { signal: { type: 'typing_started', data: { conversationId: conv, userId: 'bot', isBot: true } } },
      ]);
      await chat.message(bob, conv, 'second');
      await chat.call('POST', '/messages', {
        bot: true,
        body: { conversationId: conv, payload: { type: 'text', text: 'third' } },
      });
      for (const s of streams) await s.until((f) => created(f).length === 3);
      const types = (s: LiveStream) => s.signals().map((x) => x.data?.type);
      for (const s of plain)
        expect(types(s)).toEqual(['message_created', 'typing_started', 'message_created', 'message_created']);
      expect(types(admin)).toEqual([
        'message_created',
        'debug',
        'typing_started',
        'message_created',
        'message_created',
      ]);
      for (const s of streams) {
        const ids = s.signals().map((x) => Number(x.id));
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        expect(
          created(s.frames).map((x) => (x.data?.data.payload as { text: string } | undefined)?.text),
        ).toEqual(['first', 'second', 'third']);
      }
      // Every stream was at the cursor before each transaction's signals: none read any back.
      expect(reads).toBe(before);
    } finally {
      service.signalsAfter = signalsAfter;
      await Promise.all(streams.map((s) => s.close()));
      await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, { configuration: {} });
    }
  });

  it('never sends a signal of a transaction that rolled back, and sends the next one', () =>
    withAliceStream(async (conv, stream) => {
      await chat.message(alice, conv, 'before');
      await stream.until((f) => f.some((x) => x.data?.type === 'message_created'));
      // The second signal cannot be stored (JSON has no BigInt): the first, inserted already, goes with it.
      await expect(
        t.app.services.chat.emit(t.botId, conv, [
          { signal: { type: 'typing_started', data: { conversationId: conv, userId: 'bot', isBot: true } } },
          {
            signal: {
              type: 'typing_stopped',
              data: { conversationId: conv, userId: 'bot', isBot: 1n } as never,
            },
          },
        ]),
      ).rejects.toThrow(TypeError);
      await chat.message(alice, conv, 'after');
      await stream.until((f) => f.filter((x) => x.data?.type === 'message_created').length === 2);
      expect(stream.signals().map((x) => x.data?.type)).toEqual(['message_created', 'message_created']);
      const ids = stream.signals().map((x) => Number(x.id));
      expect(ids[1]).toBeGreaterThan(ids[0] as number);
    }));

  it('ends open streams when the app closes', async () => {
    const other = await createTestApp();
    const stream = await (await liveConversation(other)).listen();
    expect(stream.res.status).toBe(200);
    const closing = other.close();
    await stream.done;
    expect(stream.ended).toBe(true);
    await closing;
  });
});

/** A raw HTTP/1.1 GET whose response the test reads only when it chooses (a reader that does not read). */
/**
 * Posts 120 KB messages to a conversation, as the bot, past what `reader`'s connection takes: until the server
 * has `dropped` the stream (its end of the connection closed), or, for `stopped`, until 20 posts in a row found
 * the server waiting for the reader to drain its socket; then 20 more for `dropped`. So the stream is stuck
 * behind its reader whatever the kernel buffers (loopback may take ~36 MB; at most 560 messages, ~67 MB).
 * Answers the message ids in order.
 */
async function postPastSocketBuffers(
  chat: ReturnType<typeof chatClient>,
  conversationId: string,
  reader: ServerEnd,
  until: 'stopped' | 'dropped',
): Promise<string[]> {
  const text = 'x'.repeat(120_000);
  const sent: string[] = [];
  let past = 0;
  for (let i = 0; i < 560 && past < 20; i++) {
    const res = await chat.call('POST', '/messages', {
      bot: true,
      body: { conversationId, payload: { type: 'text', text: `${i} ${text}` } },
    });
    expect(res.statusCode, res.body).toBe(201);
    sent.push((res.json() as { message: { id: string } }).message.id);
    if (until === 'dropped') past = reader.socket.destroyed ? past + 1 : 0;
    else past = reader.socket.writableNeedDrain ? past + 1 : 0;
  }
  expect(past, `the server's end of the reader's connection was never ${until}`).toBe(20);
  return sent;
}

/** The server's end of a raw reader's connection. */
interface ServerEnd {
  socket: Socket;
}

/**
 * Watches the test app's connections; `of(reader)` is the server's end of a raw reader's (opened) connection.
 * Call before the reader connects.
 */
function serverEnds(t: TestApp) {
  const sockets: Socket[] = [];
  const onConnection = (socket: Socket) => sockets.push(socket);
  t.app.server.on('connection', onConnection);
  return {
    of(reader: Socket): ServerEnd {
      t.app.server.off('connection', onConnection);
      const socket = sockets.find((s) => s.remotePort === reader.localPort);
      if (!socket) throw new Error("the reader's connection did not reach the app");
      return { socket };
    },
  };
}

/** A frame as a raw reader sees it: its id, its signal's type, and the message id of a message signal. */
interface RawFrame {
  id: number;
  type: string;
  messageId?: string;
}

/**
 * The whole SSE frames of what a raw socket read (the answer's headers and chunk sizes between them are
 * skipped: each frame is one line-start `id:` block ending in a blank line; the connection may end mid-frame).
 */
function wholeFrames(text: string): RawFrame[] {
  const blocks = text.split('\n\n');
  blocks.pop();
  const frames: RawFrame[] = [];
  for (const block of blocks) {
    const match = /^id: (\d+)\nevent: message\ndata: \{"type":"([a-z_]+)","data":(?:\{"id":"([^"]+)")?/m.exec(
      block,
    );
    if (match)
      frames.push({
        id: Number(match[1]),
        type: String(match[2]),
        ...(match[3] ? { messageId: match[3] } : {}),
      });
  }
  return frames;
}

function rawListen(url: string, headers: Record<string, string>) {
  const target = new URL(url);
  const socket: Socket = connect({ host: target.hostname, port: Number(target.port) });
  socket.pause();
  socket.on('error', () => undefined);
  const request = [
    `GET ${target.pathname}${target.search} HTTP/1.1`,
    `host: ${target.host}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
  socket.write(request);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // The answer's first bytes (its headers): the stream is open. They stay in the socket for the reads below.
  const opened = new Promise<void>((resolve) => socket.once('readable', () => resolve()));
  const chunks: Buffer[] = [];
  const read = () => wholeFrames(Buffer.concat(chunks).toString('utf8'));
  let reading = false;
  const startReading = () => {
    if (reading) return;
    reading = true;
    socket.removeAllListeners('readable');
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  };
  return {
    socket,
    closed,
    opened,
    /** Reads until `done` holds for the whole frames received so far (the stream stays open); answers them. */
    async readUntil(done: (frames: RawFrame[]) => boolean, timeoutMs = 30_000): Promise<RawFrame[]> {
      startReading();
      socket.resume();
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const frames = read();
        if (done(frames)) return frames;
        // The next bytes the server sends (the listener above has stored them when this one runs).
        try {
          await once(socket, 'data', { signal: AbortSignal.timeout(Math.max(0, deadline - Date.now())) });
        } catch {
          throw new Error(`the frames awaited did not arrive in ${timeoutMs} ms`);
        }
      }
    },
    /** Reads everything until the server ends the connection; answers the SSE frames received. */
    async readToEnd(): Promise<RawFrame[]> {
      startReading();
      socket.resume();
      await closed;
      return read();
    },
  };
}

describe('Chat API live stream bounds (a caller may not exhaust the server)', () => {
  const t = useTestApp({
    env: {
      PARLEY_CHAT_MAX_STREAMS_PER_USER: '2',
      PARLEY_CHAT_MAX_STREAMS_PER_BOT: '4',
      PARLEY_CHAT_STREAM_BUFFER_BYTES: '65536',
      PARLEY_CHAT_STREAM_STALL_MS: '400',
    },
  });
  let chat: ReturnType<typeof chatClient>;
  let sse: Awaited<ReturnType<typeof liveStreams>>;

  beforeAll(async () => {
    chat = chatClient(t);
    sse = await liveStreams(t);
  });

  it('drops a reader that does not read instead of buffering what it is sent, and a resume loses nothing', async () => {
    const user = await chat.user();
    const conv = await chat.conversation(user);
    const ends = serverEnds(t);
    const slow = rawListen(sse.url(conv), { 'x-user-key': user.key });
    await slow.opened;
    // A reader that keeps up, on the same conversation: the stalled one must not hold it back.
    const reader = await sse.listen(conv, { authorization: `Bearer ${t.botKey}` });
    // Without backpressure the server holds what the socket buffers do not take for the reader; with it, the
    // stream stops, then is dropped.
    const sent = await postPastSocketBuffers(chat, conv, ends.of(slow.socket), 'dropped');
    const created = (f: SseFrame[]) => f.filter((x) => x.data?.type === 'message_created');
    try {
      await reader.until((f) => created(f).length >= sent.length, 20_000);
      expect(created(reader.frames).map((f) => String(f.data?.data.id))).toEqual(sent);
    } finally {
      await reader.close();
    }
    // The server ends the stream of the reader that stalled past PARLEY_CHAT_STREAM_STALL_MS.
    const received = await slow.readToEnd();
    const messages = received.filter((f) => f.type === 'message_created');
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.length).toBeLessThan(sent.length);

    // Its client resumes after the last frame it got: every later message arrives once, in order. A resumed
    // stream whose reader pauses past this suite's 400 ms (a busy test machine) is dropped too: its client
    // resumes again from its last frame, as EventSource does.
    const rest = sent.slice(messages.length);
    const ids: string[] = [];
    let after = String(received[received.length - 1]?.id ?? 0);
    const deadline = Date.now() + 40_000;
    while (ids.length < rest.length && Date.now() < deadline) {
      const resumed = await sse.listen(conv, { 'x-user-key': user.key, 'last-event-id': after });
      try {
        const wanted = rest.length - ids.length;
        await Promise.race([
          resumed.until((f) => created(f).length >= wanted, 20_000).catch(() => undefined),
          resumed.done,
        ]);
      } finally {
        await resumed.close();
      }
      ids.push(...created(resumed.frames).map((f) => String(f.data?.data.id)));
      after = resumed.frames.findLast((f) => f.id !== undefined)?.id ?? after;
    }
    expect(ids).toEqual(rest);
  }, 90_000);

  it('answers 429 RateLimited past the open streams allowed to a chat user, and frees the slot when one ends', async () => {
    const user = await chat.user();
    const conv = await chat.conversation(user);
    const url = sse.url(conv);
    const first = await sse.listen(conv, { 'x-user-key': user.key });
    const second = await sse.listen(conv, { 'x-user-key': user.key });
    try {
      expect([first.res.status, second.res.status]).toEqual([200, 200]);
      const third = await fetch(url, { headers: { 'x-user-key': user.key } });
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
      const body = (await third.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ code: 429, type: 'RateLimited' });
      expect(String(body.message)).toContain('2 live streams');
      await first.close();
      // The server notices the closed connection and releases its slot.
      let again: Response | undefined;
      await eventually(
        async () => {
          again = await fetch(url, { headers: { 'x-user-key': user.key } });
          if (again.status === 200) return true;
          await again.body?.cancel();
          return false;
        },
        10_000,
        50,
        'the closed stream to release its slot',
      );
      expect(again?.status).toBe(200);
      await again?.body?.cancel();
    } finally {
      await second.close();
    }
  });

  it('answers 429 past the open streams allowed to a bot, whoever asks, bot key included', async () => {
    const users = await Promise.all([chat.user(), chat.user(), chat.user()]);
    const convs = await Promise.all(users.map((u) => chat.conversation(u)));
    const open = await Promise.all(
      users.map((u, i) => sse.listen(convs[i] as string, { 'x-user-key': u.key })),
    );
    const byBot = await sse.listen(convs[0] as string, {
      authorization: `Bearer ${t.botKey}`,
    });
    try {
      expect([...open, byBot].map((s) => s.res.status)).toEqual([200, 200, 200, 200]);
      const fresh = await chat.user();
      const conv = await chat.conversation(fresh);
      const refused = await fetch(sse.url(conv), {
        headers: { 'x-user-key': fresh.key },
      });
      expect(refused.status).toBe(429);
      expect(String(((await refused.json()) as { message: string }).message)).toContain(
        'This bot already has 4',
      );
      const asBot = await fetch(sse.url(conv), {
        headers: { authorization: `Bearer ${t.botKey}` },
      });
      expect(asBot.status).toBe(429);
      await asBot.body?.cancel();
    } finally {
      await Promise.all([...open, byBot].map((s) => s.close()));
    }
  });
});

describe('Chat API live stream of a reader that falls behind and catches up', () => {
  const t = useTestApp({
    env: { PARLEY_CHAT_STREAM_BUFFER_BYTES: '65536', PARLEY_CHAT_STREAM_STALL_MS: '60000' },
  });

  it('stops sending while the reader is behind, then sends the rest, in order and once, when it reads again', async () => {
    const chat = chatClient(t);
    const sse = await liveStreams(t);
    const user = await chat.user();
    const conv = await chat.conversation(user);
    const ends = serverEnds(t);
    const behind = rawListen(sse.url(conv), { 'x-user-key': user.key });
    await behind.opened;
    // More than the loopback socket buffers take (see the bounds test above): the stream stops at 64 KB
    // waiting in its socket, and goes on only once the socket says its reader drained it.
    const sent = await postPastSocketBuffers(chat, conv, ends.of(behind.socket), 'stopped');
    // The reader catches up (well within the 60 s stall limit) and gets everything; its stream stays open.
    const frames = await behind.readUntil(
      (f) => f.filter((x) => x.type === 'message_created').length >= sent.length,
    );
    const created = frames.filter((f) => f.type === 'message_created');
    expect(created.map((f) => f.messageId)).toEqual(sent);
    const ids = frames.map((f) => f.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    const after = await chat.call('POST', '/messages', {
      bot: true,
      body: { conversationId: conv, payload: { type: 'text', text: 'after' } },
    });
    expect(after.statusCode).toBe(201);
    const afterId = (after.json() as { message: { id: string } }).message.id;
    const later = await behind.readUntil((f) => f.some((x) => x.messageId === afterId));
    expect(later.filter((f) => f.type === 'message_created').map((f) => f.messageId)).toEqual([
      ...sent,
      afterId,
    ]);
    behind.socket.destroy();
  }, 60_000);
});

describe('Chat API live streams end when their credentials are revoked', () => {
  const t = useTestApp();
  let chat: ReturnType<typeof chatClient>;
  let sse: Awaited<ReturnType<typeof liveStreams>>;

  beforeAll(async () => {
    chat = chatClient(t);
    sse = await liveStreams(t);
  });

  const ended = (stream: Awaited<ReturnType<typeof sse.listen>>) =>
    Promise.race([
      stream.done.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 3000)),
    ]);

  it('ends adminKey streams when the adminKey changes, and keeps the others', async () => {
    await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, { configuration: { adminKey: 'first-key' } });
    const alice = await chat.user();
    const conv = await chat.conversation(alice);
    const plain = await sse.listen(conv, { 'x-user-key': alice.key });
    const admin = await sse.listen(conv, { 'x-user-key': alice.key, 'x-admin-key': 'first-key' });
    try {
      expect(admin.res.status).toBe(200);
      const put = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, {
        configuration: { adminKey: 'second-key' },
      });
      expect(put.statusCode).toBe(200);
      expect(await ended(admin)).toBe(true);
      // The stream opened without the adminKey goes on and still receives messages.
      await chat.message(alice, conv, 'still here');
      await plain.until((f) => f.some((x) => x.data?.type === 'message_created'));
      expect(plain.ended).toBe(false);
      // The old key no longer opens a stream; the new one does.
      const old = await fetch(sse.url(conv), {
        headers: { 'x-user-key': alice.key, 'x-admin-key': 'first-key' },
      });
      expect(old.status).toBe(403);
      await old.body?.cancel();
    } finally {
      await plain.close();
      await admin.close();
    }
  });

  it('ends the streams of a revoked bot access key', async () => {
    const created = await t.asOwner('POST', `/v1/admin/bots/${t.botId}/access-keys`, { note: 'temporary' });
    expect(created.statusCode).toBe(201);
    const { key } = created.json() as { key: { id: string; value: string } };
    const alice = await chat.user();
    const conv = await chat.conversation(alice);
    const byKey = await sse.listen(conv, { authorization: `Bearer ${key.value}` });
    const byUser = await sse.listen(conv, { 'x-user-key': alice.key });
    try {
      expect(byKey.res.status).toBe(200);
      const revoked = await t.asOwner('DELETE', `/v1/admin/bots/${t.botId}/access-keys/${key.id}`);
      expect(revoked.statusCode).toBe(200);
      expect(await ended(byKey)).toBe(true);
      expect(byUser.ended).toBe(false);
    } finally {
      await byKey.close();
      await byUser.close();
    }
  });

  it('ends user-key streams when the chat secrets rotate (old user keys stop working)', async () => {
    const alice = await chat.user();
    const conv = await chat.conversation(alice);
    const stream = await sse.listen(conv, { 'x-user-key': alice.key });
    const asBot = await sse.listen(conv, { authorization: `Bearer ${t.botKey}` });
    try {
      expect(stream.res.status).toBe(200);
      const rotated = await t.asOwner('POST', `/v1/admin/bots/${t.botId}/chat/rotate-secrets`);
      expect(rotated.statusCode).toBe(200);
      expect(await ended(stream)).toBe(true);
      // The bot's own stream (its key did not change) goes on.
      expect(asBot.ended).toBe(false);
      const again = await fetch(sse.url(conv), {
        headers: { 'x-user-key': alice.key },
      });
      expect(again.status).toBe(401);
      await again.body?.cancel();
    } finally {
      await stream.close();
      await asBot.close();
    }
  });
});

describe('SSE frames of signal rows', () => {
  it('encodes a row once, as id, event and data lines, and hands every stream of that read the same bytes', () => {
    const row = { cursor: 7, type: 'message_created', data: '{"id":"m1","text":"h\u00e9llo \ud83d\udc4b"}' };
    const frame = frameOf(row);
    expect(frame.toString('utf8')).toBe(
      'id: 7\nevent: message\ndata: {"type":"message_created","data":{"id":"m1","text":"h\u00e9llo \ud83d\udc4b"}}\n\n',
    );
    expect(frameOf(row)).toBe(frame);
    // Another read's row (e.g. an adminKey stream's) gets its own frame, equal in bytes.
    const again = frameOf({ ...row });
    expect(again).not.toBe(frame);
    expect(again.equals(frame)).toBe(true);
  });
});

describe('writeFrame: SSE frames straight to the socket as HTTP/1.1 chunks', () => {
  const frame = (n: number) =>
    frameOf({ cursor: n, type: 'message_created', data: `{"id":"m${n}","text":"h\u00e9llo"}` });

  /** A server answering one SSE response written by `write`; answers the raw bytes a client read, to the end. */
  async function rawAnswer(requestLine: string, write: (res: ServerResponse) => void): Promise<string> {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      res.write('retry: 3000\n: connected\n\n');
      write(res);
      res.end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as { port: number };
      const socket = connect({ host: '127.0.0.1', port });
      socket.write(`${requestLine}\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`);
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      await once(socket, 'close');
      return Buffer.concat(chunks).toString('utf8');
    } finally {
      server.close();
    }
  }

  /** The body of a chunked answer, its chunks joined; throws on a malformed chunk. */
  function dechunk(answer: string): { chunks: string[]; body: string } {
    let rest = answer.slice(answer.indexOf('\r\n\r\n') + 4);
    const chunks: string[] = [];
    for (;;) {
      const line = rest.indexOf('\r\n');
      const size = Number.parseInt(rest.slice(0, line), 16);
      if (!Number.isInteger(size)) throw new Error(`not a chunk size: ${rest.slice(0, 20)}`);
      const bytes = Buffer.from(rest.slice(line + 2), 'utf8');
      const chunk = bytes.subarray(0, size).toString('utf8');
      if (size === 0) return { chunks, body: chunks.join('') };
      chunks.push(chunk);
      rest = bytes.subarray(size).toString('utf8');
      if (!rest.startsWith('\r\n')) throw new Error(`chunk of ${size} bytes not followed by CRLF`);
      rest = rest.slice(2);
    }
  }

  it('writes each frame as one chunk, in order with what the response itself writes, and a valid chunked body', async () => {
    const answer = await rawAnswer('GET / HTTP/1.1', (res) => {
      writeFrame(res, frame(1));
      writeFrame(res, frame(2));
      // Bytes held by the response itself (corked): the next frame must not overtake them.
      res.cork();
      res.write(': held\n\n');
      writeFrame(res, frame(3));
      res.uncork();
      writeFrame(res, frame(4));
      writeFrame(res, frame(1));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer.toLowerCase()).toContain('transfer-encoding: chunked');
    const { chunks, body } = dechunk(answer);
    const text = (n: number) => frame(n).toString('utf8');
    expect(body).toBe(
      `retry: 3000\n: connected\n\n${text(1)}${text(2)}: held\n\n${text(3)}${text(4)}${text(1)}`,
    );
    // Straight to the socket, a frame is one chunk of its own.
    expect(chunks).toContain(text(1));
    expect(chunks).toContain(text(2));
    expect(chunks).toContain(text(4));
  });

  it('writes the frames as they are to an HTTP/1.0 reader, whose body is not chunked', async () => {
    const answer = await rawAnswer('GET / HTTP/1.0', (res) => {
      writeFrame(res, frame(1));
      writeFrame(res, frame(2));
    });
    expect(answer.toLowerCase()).not.toContain('transfer-encoding');
    const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
    expect(body).toBe(`retry: 3000\n: connected\n\n${frame(1).toString('utf8')}${frame(2).toString('utf8')}`);
  });
});
