import type { ServerResponse } from 'node:http';
import type { ChatMessage } from '@parley/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  failure,
  json,
  type Parley,
  startFakeServer,
  startParley,
  wireError,
} from '../../testkit/src/client/servers.js';
import { ChatClient, type ListenOptions, signUserKey } from './chat.js';
import type { ChatStreamSignal } from './chat-types.js';
import type { Client } from './client.js';
import {
  ForbiddenError,
  InvalidPayloadError,
  InvalidQueryError,
  ResourceNotFoundError,
  UnauthorizedError,
} from './errors.js';

/** Collects signals of a live stream in the background until `stop()`. */
function collect(stream: AsyncIterable<ChatStreamSignal>) {
  const signals: ChatStreamSignal[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const done = (async () => {
    for await (const s of stream) {
      signals.push(s);
      for (const w of [...waiters]) if (signals.length >= w.n) w.resolve();
    }
  })();
  return {
    signals,
    done,
    until: (n: number, ms = 5000) =>
      new Promise<void>((resolve, reject) => {
        if (signals.length >= n) return resolve();
        const timer = setTimeout(() => reject(new Error(`only ${signals.length} of ${n} signals`)), ms);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      }),
  };
}

const text = (message: ChatMessage) => (message.payload.type === 'text' ? message.payload.text : undefined);

describe('ChatClient against the real server', () => {
  let p: Parley;
  let admin: Client;
  let anon: ChatClient;

  beforeAll(async () => {
    p = await startParley();
    admin = p.client();
    anon = new ChatClient({ botId: p.botId, apiUrl: p.apiUrl, retry: { attempts: 1 } });
  });
  afterAll(() => p.close());

  it('creates a user, reads and updates it, and deletes it', async () => {
    const { user, key } = await anon.createUser({ name: 'Ana', data: { plan: 'pro' } });
    expect(user).toMatchObject({ name: 'Ana', data: { plan: 'pro' } });
    const ana = anon.with({ userKey: key });
    expect(ana.userKey).toBe(key);
    expect((await ana.getUser()).user.id).toBe(user.id);
    expect((await ana.updateUser({ name: 'Ana B.', data: null })).user).toMatchObject({ name: 'Ana B.' });
    expect((await ana.getUser()).user).not.toHaveProperty('data');
    expect(await ana.deleteUser()).toEqual({});
    expect(await failure(ana.getUser())).toBeInstanceOf(UnauthorizedError);
    expect(await failure(anon.getUser())).toBeInstanceOf(UnauthorizedError);
  });

  it('gets or creates a user of verified identity with a key signed from the bot secret', async () => {
    const { chat } = await admin.getBotChat({ id: p.botId });
    expect(chat.userKeySecret).toMatch(/^cks_/);
    const userKey = await signUserKey(chat.userKeySecret, 'customer-42', { expiresInSeconds: 600 });
    const customer = anon.with({ userKey });
    const first = await customer.getOrCreateUser({ name: 'Customer' });
    expect(first.user).toMatchObject({ id: 'customer-42', name: 'Customer' });
    const again = await customer.getOrCreateUser({ name: 'Ignored' });
    expect(again.user).toMatchObject({ id: 'customer-42', name: 'Customer' });

    const forged = anon.with({ userKey: await signUserKey('cks_wrong', 'customer-42') });
    expect(await failure(forged.getUser())).toBeInstanceOf(UnauthorizedError);
    const rotated = await admin.rotateBotChatSecrets({ id: p.botId });
    expect(rotated.chat.userKeySecret).not.toBe(chat.userKeySecret);
    expect(await failure(customer.getUser())).toBeInstanceOf(UnauthorizedError);
  });

  it('creates, gets, lists (paged) and deletes conversations, with messages, events and participants', async () => {
    const ana = anon.with({ userKey: (await anon.createUser({ name: 'Ana' })).key });
    const { user: bo, key: boKey } = await anon.createUser({ name: 'Bo' });
    const { conversation } = await ana.createConversation();
    const { conversation: chosen } = await ana.getOrCreateConversation({ id: 'support-ana-1' });
    expect(chosen.id).toBe('support-ana-1');
    expect((await ana.getOrCreateConversation({ id: 'support-ana-1' })).conversation.createdAt).toBe(
      chosen.createdAt,
    );
    expect((await ana.getConversation({ id: conversation.id })).conversation.id).toBe(conversation.id);
    const mine = await ana.listConversations({ pageSize: 1 });
    expect(mine.conversations).toHaveLength(1);
    expect((await ana.listConversations({ pageSize: 1 }).collect()).map((c) => c.id).sort()).toEqual(
      [conversation.id, 'support-ana-1'].sort(),
    );

    for (const t of ['one', 'two', 'three']) {
      await ana.createMessage({ conversationId: conversation.id, payload: { type: 'text', text: t } });
    }
    const page = await ana.listMessages({ conversationId: conversation.id, pageSize: 2 });
    expect(page.messages.map(text)).toEqual(['three', 'two']);
    const all: string[] = [];
    for await (const m of ana.listMessages({ conversationId: conversation.id, pageSize: 2 })) {
      expectTypeOf(m).toEqualTypeOf<ChatMessage>();
      all.push(text(m) ?? '');
    }
    expect(all).toEqual(['three', 'two', 'one']);
    const { message } = await ana.createMessage({
      conversationId: conversation.id,
      payload: { type: 'markdown', markdown: '**bold**' },
      metadata: { source: 'test' },
    });
    expect((await ana.getMessage({ id: message.id })).message).toMatchObject({
      isBot: false,
      metadata: { source: 'test' },
    });
    expect(await ana.deleteMessage({ id: message.id })).toEqual({});
    expect(await failure(ana.getMessage({ id: message.id }))).toBeInstanceOf(ResourceNotFoundError);

    const { event } = await ana.createEvent({
      conversationId: conversation.id,
      payload: { page: '/pricing' },
    });
    expect((await ana.getEvent({ id: event.id })).event.payload).toEqual({ page: '/pricing' });

    const { participant } = await ana.addParticipant({ conversationId: conversation.id, userId: bo.id });
    expect(participant.id).toBe(bo.id);
    const people = await ana.listParticipants({ conversationId: conversation.id }).collect();
    expect(people.map((u) => u.name)).toEqual(['Ana', 'Bo']);
    expect(
      (await ana.getParticipant({ conversationId: conversation.id, userId: bo.id })).participant.name,
    ).toBe('Bo');
    const boChat = anon.with({ userKey: boKey });
    expect((await boChat.listMessages({ conversationId: conversation.id })).messages).toHaveLength(3);
    expect(await ana.removeParticipant({ conversationId: conversation.id, userId: bo.id })).toEqual({});
    expect(await failure(boChat.listMessages({ conversationId: conversation.id }))).toBeInstanceOf(
      ForbiddenError,
    );

    // The bot, with its access key, sees every conversation and may answer.
    const bot = new ChatClient({ botId: p.botId, apiUrl: p.apiUrl, token: p.botKey });
    const ids = (await bot.listConversations().collect()).map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([conversation.id, 'support-ana-1']));
    const { message: reply } = await bot.createMessage({
      conversationId: conversation.id,
      payload: { type: 'text', text: 'Hello from the bot' },
    });
    expect(reply.isBot).toBe(true);

    // Feedback on a bot message needs feedbackEnabled in the webchat configuration.
    expect(await failure(ana.setMessageFeedback({ id: reply.id, value: 'positive' }))).toBeInstanceOf(
      ForbiddenError,
    );
    await admin.updateBotWebchat({ id: p.botId, configuration: { feedbackEnabled: true } });
    const rated = await ana.setMessageFeedback({ id: reply.id, value: 'negative', comment: 'too short' });
    expect(rated.message.feedback).toEqual({ value: 'negative', comment: 'too short' });

    expect(await ana.deleteConversation({ id: conversation.id })).toEqual({});
    expect(await failure(ana.getConversation({ id: conversation.id }))).toBeInstanceOf(ResourceNotFoundError);
  });

  it('uploads a chat file and sends it as a message', async () => {
    const ana = anon.with({ userKey: (await anon.createUser()).key });
    const { conversation } = await ana.createConversation();
    await admin.updateBotWebchat({ id: p.botId, configuration: { allowFileUpload: true } });
    const progress: number[] = [];
    const { file } = await ana.uploadFile({
      conversationId: conversation.id,
      name: 'receipt.txt',
      content: 'paid 10 EUR',
      onProgress: (x) => progress.push(x.loaded),
    });
    expect(file).toMatchObject({ size: 11, contentType: 'text/plain' });
    expect(progress.at(-1)).toBe(11);
    expect(await (await fetch(file.url)).text()).toBe('paid 10 EUR');
    const { message } = await ana.createMessage({
      conversationId: conversation.id,
      payload: { type: 'file', fileUrl: file.url, title: 'receipt.txt' },
    });
    expect(message.payload).toMatchObject({ type: 'file', fileUrl: file.url });
  });

  it('answers the error classes of the Chat API', async () => {
    const ana = anon.with({ userKey: (await anon.createUser()).key });
    const { conversation } = await ana.createConversation();
    const big = await failure(
      ana.createMessage({
        conversationId: conversation.id,
        payload: { type: 'text', text: 'x'.repeat(200_000) },
      }),
    );
    expect(big.name).toMatch(/PayloadTooLarge|InvalidPayload/);
    expect(
      await failure(
        ana.createMessage({ conversationId: conversation.id, payload: { type: 'nope' } as never }),
      ),
    ).toBeInstanceOf(InvalidPayloadError);
    expect(await failure(ana.getConversation({ id: 'nope' }))).toBeInstanceOf(ResourceNotFoundError);
    expect(() => new ChatClient({ apiUrl: p.apiUrl, botId: '' })).toThrow(/botId/);
  });

  it('listens to a conversation: live signals, then a resume after the last seen frame', async () => {
    const ana = anon.with({ userKey: (await anon.createUser({ name: 'Ana' })).key });
    const { conversation } = await ana.createConversation();
    const controller = new AbortController();
    const live = collect(ana.listen(conversation.id, { signal: controller.signal }));
    // The stream is open once a first signal made it through; send until one does.
    await ana.createMessage({ conversationId: conversation.id, payload: { type: 'text', text: 'first' } });
    await live.until(1);
    await ana.createMessage({ conversationId: conversation.id, payload: { type: 'text', text: 'second' } });
    await ana.createEvent({ conversationId: conversation.id, payload: { clicked: 'buy' } });
    await live.until(3);
    controller.abort();
    await live.done; // the loop ends without an error
    const [first, second, third] = live.signals;
    expect(first).toMatchObject({ type: 'message_created', eventId: expect.any(String) });
    expect(first?.type === 'message_created' && text(first.data)).toBe('first');
    expect(second?.type === 'message_created' && text(second.data)).toBe('second');
    expect(third).toMatchObject({ type: 'event_created', data: { payload: { clicked: 'buy' } } });

    // Resume after the first frame: the next two come again, in order, then what was sent meanwhile.
    await ana.createMessage({
      conversationId: conversation.id,
      payload: { type: 'text', text: 'while away' },
    });
    const again = new AbortController();
    const resumed = collect(
      ana.listen(conversation.id, { signal: again.signal, lastEventId: first?.eventId }),
    );
    await resumed.until(3);
    again.abort();
    await resumed.done;
    expect(resumed.signals.map((s) => s.eventId)).toEqual([
      second?.eventId,
      third?.eventId,
      expect.any(String),
    ]);
    const last = resumed.signals[2];
    expect(last?.type === 'message_created' && text(last.data)).toBe('while away');
  });

  it('throws what the server answers when the stream cannot open', async () => {
    const ana = anon.with({ userKey: (await anon.createUser()).key });
    const stream = ana.listen('no-such-conversation');
    expect(await failure(stream.next())).toBeInstanceOf(ResourceNotFoundError);
    const badCursor = anon
      .with({ userKey: (await anon.createUser()).key })
      .listen((await ana.createConversation()).conversation.id, { lastEventId: 'abc' });
    expect(await failure(badCursor.next())).toBeInstanceOf(InvalidQueryError);
    expect(
      await failure(new ChatClient({ botId: p.botId, apiUrl: p.apiUrl }).listen('x').next()),
    ).toBeInstanceOf(UnauthorizedError);
  });
});

describe('ChatClient.listen over a scripted SSE server', () => {
  type Fake = Awaited<ReturnType<typeof startFakeServer>>;
  let fake: Fake | undefined;
  /** Listens to conversation `c` of the fake server, reconnecting after 10 ms; `stop` ends the loop. */
  const listenTo = (options: ListenOptions) => {
    const controller = new AbortController();
    const chat = new ChatClient({ botId: 'bot_1', apiUrl: fake?.url, retry: { attempts: 1 } });
    const got = collect(chat.listen('c', { signal: controller.signal, reconnectDelayMs: 10, ...options }));
    const stop = async () => {
      controller.abort();
      await got.done;
    };
    return { got, stop };
  };
  /** Answers the opening as a restarting server does: 503. */
  const unavailable = (res: ServerResponse) => json(res, 503, wireError(503, 'Unknown', 'restarting'));
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('reconnects when the stream ends or breaks, sending Last-Event-ID, and skips pings', async () => {
    const frame = (id: number, text: string) =>
      `id: ${id}\nevent: message\ndata: ${JSON.stringify({ type: 'message_created', data: { id: `m${id}`, payload: { type: 'text', text } } })}\n\n`;
    fake = await startFakeServer((_req, res, index) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (index === 0) {
        res.write(': connected\n\n');
        res.write('event: message\ndata: {"type":"ping","data":{}}\n\n');
        res.end(frame(1, 'a') + frame(2, 'b')); // the server ends the stream
      } else if (index === 1) {
        res.write(frame(3, 'c'));
        setTimeout(() => res.socket?.destroy(), 20); // the connection breaks
      } else {
        res.write(frame(4, 'd'));
      }
    });
    const controller = new AbortController();
    const chat = new ChatClient({ botId: 'bot_1', apiUrl: fake.url, userKey: 'k' });
    const got = collect(chat.listen('conv_1', { signal: controller.signal, reconnectDelayMs: 10 }));
    await got.until(4);
    controller.abort();
    await got.done;
    expect(got.signals.map((s) => s.eventId)).toEqual(['1', '2', '3', '4']);
    const [first, second, third] = fake.received;
    expect(first?.url).toBe('/v1/chat/bot_1/conversations/conv_1/listen');
    expect(first?.headers).toMatchObject({ accept: 'text/event-stream', 'x-user-key': 'k' });
    expect(first?.headers).not.toHaveProperty('last-event-id');
    expect(second?.headers['last-event-id']).toBe('2');
    expect(third?.headers['last-event-id']).toBe('3');
  });

  it('reconnects a stream gone silent, and retries an open that failed with a 503', async () => {
    fake = await startFakeServer((_req, res, index) => {
      if (index === 0) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('id: 7\nevent: message\ndata: {"type":"typing_started","data":{}}\n\n'); // then silence
      } else if (index === 1) {
        unavailable(res);
      } else {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('id: 8\nevent: message\ndata: {"type":"typing_stopped","data":{}}\n\n');
      }
    });
    const { got, stop } = listenTo({ idleTimeoutMs: 150, includePings: true });
    await got.until(2);
    await stop();
    expect(got.signals.map((s) => s.type)).toEqual(['typing_started', 'typing_stopped']);
    expect(fake.received.map((r) => r.headers['last-event-id'])).toEqual([undefined, '7', '7']);
  });

  it('ends the stream at a frame that is not JSON, or skips it and tells onBadFrame', async () => {
    const typing = (id: number) => `id: ${id}\nevent: message\ndata: {"type":"typing_started","data":{}}\n\n`;
    fake = await startFakeServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`${typing(1)}event: message\ndata: not json\n\n${typing(2)}`);
    });
    const strict = listenTo({});
    await expect(strict.got.done).rejects.toThrow('The live stream sent a frame that is not JSON: not json');

    const skipped: string[] = [];
    const lenient = listenTo({ onBadFrame: (data) => skipped.push(data) });
    await lenient.got.until(2);
    await lenient.stop();
    expect(lenient.got.signals.map((s) => s.eventId)).toEqual(['1', '2']);
    expect(skipped).toEqual(['not json']);
  });

  it('tells each opening (onOpen) and each failed try (onRetry)', async () => {
    fake = await startFakeServer((_req, res, index) => {
      if (index === 1) return unavailable(res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const frame = `id: ${index + 1}\nevent: message\ndata: {"type":"typing_started","data":{}}\n\n`;
      if (index === 0) res.end(frame);
      else res.write(frame); // then silence (no silence check with idleTimeoutMs: Infinity)
    });
    const opens: boolean[] = [];
    const retries: Array<[number | undefined, number]> = [];
    const { got, stop } = listenTo({
      idleTimeoutMs: Number.POSITIVE_INFINITY,
      onOpen: (reconnected) => opens.push(reconnected),
      onRetry: (error, failures) =>
        retries.push([(error as { status?: number } | undefined)?.status, failures]),
    });
    await got.until(2);
    // A negative check, with no event to wait for: the open stream stays silent, and no other try is made (a
    // try would come 10 ms after the last, its backoff doubling: several of them fit in this time).
    const quietFor = 200;
    await new Promise((resolve) => setTimeout(resolve, quietFor));
    await stop();
    expect(opens).toEqual([false, true]);
    expect(retries).toEqual([
      [undefined, 1],
      [503, 2],
    ]);
    expect(fake.received).toHaveLength(3);
  });
});
