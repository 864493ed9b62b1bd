import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatWebhookEvent } from '@parley/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatClient, liveConversation } from '../../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { flood } from '../../../../testkit/src/server/flood.js';
import { createTestApp, type TestApp } from '../../../../testkit/src/server/harness.js';
import { eventually } from '../../../../testkit/src/shared/eventually.js';
import { NOT_FOUND_TEXT } from '../answers/index.js';
import type { KnowledgeResponder, ReplyRequest } from './reply-port.js';
import { NO_ANSWER_ENGINE_TEXT } from './reply-port.js';

/** Checks every 25 ms until `check` holds, failing after `timeoutMs`. */
const waitFor = (check: () => boolean | Promise<boolean>, timeoutMs = 8000) =>
  eventually(async () => check(), timeoutMs, 25);

describe('knowledge replies (chat_reply job)', () => {
  const requests: ReplyRequest[] = [];
  const responder: KnowledgeResponder = {
    async answer(request, stream) {
      requests.push(request);
      const text = request.message.payload.type === 'text' ? request.message.payload.text : '?';
      stream?.delta('You asked: ');
      stream?.delta(text);
      return {
        messages: [{ payload: { type: 'markdown', markdown: `You asked: **${text}**` } }],
        debug: { query: text, passages: [{ fileId: 'file_1', score: 0.9 }] },
      };
    },
  };

  const t = useTestApp({ workers: true, responder });
  beforeAll(async () => {
    await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, { configuration: { adminKey: 'support' } });
  });

  it('signals typing, streams the answer, posts it as the bot and sends debug to adminKey sessions only', async () => {
    const { chat, user, conv, listen } = await liveConversation(t);
    const plain = await listen();
    const admin = await listen({ 'x-admin-key': 'support' });
    try {
      const asked = await chat.message(user, conv, 'what is parley?');
      const done = (f: { data?: { type: string } }[]) => f.some((x) => x.data?.type === 'typing_stopped');
      await plain.until(done, 10_000);
      await admin.until(done, 10_000);
      const answered = [
        'message_created',
        'typing_started',
        'message_stream_delta',
        'message_stream_delta',
        'message_created',
        'message_stream_complete',
      ];
      expect(plain.signals().map((x) => x.data?.type)).toEqual([...answered, 'typing_stopped']);
      expect(admin.signals().map((x) => x.data?.type)).toEqual([...answered, 'debug', 'typing_stopped']);
      const signals = plain.signals();
      const reply = signals[4]?.data?.data as { id: string; isBot: boolean; payload: unknown };
      expect(reply).toMatchObject({
        isBot: true,
        payload: { type: 'markdown', markdown: 'You asked: **what is parley?**' },
      });
      expect(signals[2]?.data?.data).toMatchObject({ id: reply.id, delta: 'You asked: ' });
      expect(signals[1]?.data?.data).toMatchObject({ conversationId: conv, isBot: true });
      const debug = admin.signals().find((x) => x.data?.type === 'debug')?.data?.data;
      expect(debug).toMatchObject({
        conversationId: conv,
        messageId: asked.id,
        replyId: reply.id,
        query: 'what is parley?',
      });
      expect(requests.at(-1)).toMatchObject({
        botId: t.botId,
        workspaceId: t.workspaceId,
        conversationId: conv,
        message: { id: asked.id },
        // The id the reply is posted with, chosen before asking so the reply can link to itself.
        messageId: reply.id,
      });
      expect(requests.at(-1)?.history.map((m) => m.id)).toEqual([asked.id]);
      const list = await chat.call('GET', `/conversations/${conv}/messages`, { key: user.key });
      expect((list.json() as { messages: Array<{ isBot: boolean }> }).messages.map((m) => m.isBot)).toEqual([
        true,
        false,
      ]);
    } finally {
      await plain.close();
      await admin.close();
    }
  });

  it("does not answer the bot's own messages", async () => {
    const chat = chatClient(t);
    const user = await chat.user();
    const conv = await chat.conversation(user);
    const before = requests.length;
    const posted = await chat.call('POST', '/messages', {
      bot: true,
      body: { conversationId: conv, payload: { type: 'text', text: 'hi' } },
    });
    expect(posted.statusCode, posted.body).toBe(201);
    // A reply is a chat_reply job queued in the message's own transaction: none names the bot's message.
    const id = (posted.json() as { message: { id: string } }).message.id;
    const jobs = await t.db.kysely
      .selectFrom('jobs')
      .select('payload')
      .where('kind', '=', 'chat_reply')
      .execute();
    expect(jobs.filter((j) => (JSON.parse(j.payload) as { messageId: string }).messageId === id)).toEqual([]);
    expect(requests.length).toBe(before);
  });
});

describe('knowledge mode without an answer engine', () => {
  it('posts a plain notice that no answer engine is configured', async () => {
    const t = await createTestApp({ workers: true, responder: null });
    try {
      const chat = chatClient(t);
      const user = await chat.user();
      const conv = await chat.conversation(user);
      await chat.message(user, conv, 'hello?');
      let messages: Array<{ isBot: boolean; payload: { text?: string } }> = [];
      await waitFor(async () => {
        const res = await chat.call('GET', `/conversations/${conv}/messages`, { key: user.key });
        messages = (res.json() as { messages: typeof messages }).messages;
        return messages.length === 2;
      });
      expect(messages[0]).toMatchObject({
        isBot: true,
        payload: { type: 'text', text: NO_ANSWER_ENGINE_TEXT },
      });
    } finally {
      await t.close();
    }
  });
});

describe('knowledge mode with the built-in answers (the default responder)', () => {
  it("answers from the bot's knowledge, here honestly that nothing was found", async () => {
    const t = await createTestApp({ workers: true });
    try {
      const chat = chatClient(t);
      const user = await chat.user();
      const conv = await chat.conversation(user);
      await chat.message(user, conv, 'What is the refund policy?');
      let messages: Array<{ isBot: boolean; payload: { type: string; text?: string; markdown?: string } }> =
        [];
      await waitFor(async () => {
        const res = await chat.call('GET', `/conversations/${conv}/messages`, { key: user.key });
        messages = (res.json() as { messages: typeof messages }).messages;
        return messages.length === 2;
      });
      const reply = messages[0];
      expect(reply?.isBot).toBe(true);
      expect(JSON.stringify(reply?.payload)).toContain(NOT_FOUND_TEXT.slice(0, 20));
    } finally {
      await t.close();
    }
  });
});

describe('webhook mode (chat_webhook job)', () => {
  let t: TestApp;
  let server: Server;
  let hookUrl: string;
  let webhookSecret: string;
  const received: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
  let failNext = 0;

  beforeAll(async () => {
    t = await createTestApp({ workers: true });
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString('utf8');
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        if (failNext > 0) {
          failNext--;
          res.writeHead(503).end('busy');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const bot = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}`, {
      replyMode: 'webhook',
      webhookUrl: hookUrl,
    });
    expect(bot.statusCode).toBe(200);
    const secrets = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/chat`);
    webhookSecret = (secrets.json() as { chat: { webhookSecret: string } }).chat.webhookSecret;
  });
  afterEach(() => {
    received.length = 0;
    failNext = 0;
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** Checks `x-parley-signature` the way a bot's server would. */
  function verify(headers: IncomingMessage['headers'], body: string): boolean {
    const header = String(headers['x-parley-signature'] ?? '');
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
    if (!match) return false;
    const expected = createHmac('sha256', webhookSecret).update(`${match[1]}.${body}`).digest();
    return timingSafeEqual(expected, Buffer.from(match[2] as string, 'hex'));
  }

  const events = () => received.map((r) => JSON.parse(r.body) as ChatWebhookEvent);

  it('POSTs signed conversation_created and message_created events; the bot replies with its key', async () => {
    const { chat, user, conv, listen } = await liveConversation(t);
    const stream = await listen();
    try {
      const sent = await chat.message(user, conv, 'hello webhook');
      await waitFor(() => events().some((e) => e.type === 'message_created'));
      for (const r of received) {
        expect(verify(r.headers, r.body)).toBe(true);
        expect(r.headers['content-type']).toBe('application/json');
      }
      const created = events().find((e) => e.type === 'message_created');
      expect(created).toMatchObject({
        botId: t.botId,
        conversationId: conv,
        userId: user.id,
        message: { id: sent.id, payload: { type: 'text', text: 'hello webhook' } },
      });
      expect(events().some((e) => e.type === 'conversation_created' && e.conversationId === conv)).toBe(true);
      expect(received[0]?.headers['x-parley-event-id']).toMatch(/^whevt_/);

      // A tampered body no longer verifies.
      const first = received[0];
      if (first) expect(verify(first.headers, first.body.replace('"', "'"))).toBe(false);

      const reply = await chat.call('POST', '/messages', {
        bot: true,
        body: {
          conversationId: created?.conversationId,
          payload: { type: 'text', text: 'Hi from the webhook bot' },
        },
      });
      expect(reply.statusCode).toBe(201);
      await stream.until((f) =>
        f.some((x) => (x.data?.data as { isBot?: boolean } | undefined)?.isBot === true),
      );
      expect(events().filter((e) => e.type === 'message_created')).toHaveLength(1);

      const logs = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/logs`);
      const lines = (logs.json() as { logs: Array<{ operationId: string | null; statusCode: number }> }).logs;
      expect(lines.some((l) => l.operationId === 'chat.webhook' && l.statusCode === 200)).toBe(true);
    } finally {
      await stream.close();
    }
  });

  it('retries a delivery that failed with a 5xx, and sends event_created', async () => {
    const chat = chatClient(t);
    const user = await chat.user();
    const conv = await chat.conversation(user);
    await waitFor(() => events().some((e) => e.type === 'conversation_created'));
    received.length = 0;
    failNext = 1;
    await chat.call('POST', '/events', {
      key: user.key,
      body: { conversationId: conv, payload: { clicked: 'pricing' } },
    });
    await waitFor(() => received.length >= 2, 10_000);
    const [failed, retried] = events();
    expect(failed?.id).toBe(retried?.id);
    expect(retried).toMatchObject({ type: 'event_created', event: { payload: { clicked: 'pricing' } } });
  });
});

describe('webhook mode with PARLEY_WEBHOOK_BLOCK_PRIVATE_ADDRESSES', () => {
  let t: TestApp;
  let server: Server;
  let port: number;
  let hits = 0;

  beforeAll(async () => {
    t = await createTestApp({ workers: true, env: { PARLEY_WEBHOOK_BLOCK_PRIVATE_ADDRESSES: 'true' } });
    server = createServer((_req, res) => {
      hits++;
      res.writeHead(200).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const webhookLines = async () => {
    const logs = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/logs`);
    return (
      logs.json() as { logs: Array<{ operationId: string | null; statusCode: number; message: string }> }
    ).logs.filter((l) => l.operationId === 'chat.webhook');
  };

  for (const host of ['127.0.0.1', 'localhost']) {
    it(`refuses to POST to ${host}, once and for good, and says why in the bot's log`, async () => {
      const bot = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}`, {
        replyMode: 'webhook',
        webhookUrl: `http://${host}:${port}/hook`,
      });
      expect(bot.statusCode, bot.body).toBe(200);
      const before = (await webhookLines()).length;
      const chat = chatClient(t);
      const user = await chat.user();
      await chat.conversation(user);
      await waitFor(async () => (await webhookLines()).length > before + 1);
      // Both jobs end failed for good: none is queued again for a retry.
      const webhookJobs = () =>
        t.db.kysely
          .selectFrom('jobs')
          .select(['status'])
          .where('kind', '=', 'chat_webhook')
          .orderBy('created_at')
          .orderBy('id')
          .execute();
      await waitFor(async () =>
        (await webhookJobs()).every((j) => j.status === 'done' || j.status === 'failed'),
      );
      expect((await webhookJobs()).slice(-2).map((j) => j.status)).toEqual(['failed', 'failed']);
      const lines = (await webhookLines()).slice(0, -before || undefined);
      expect(lines.length).toBe(2); // user_created and conversation_created, one attempt each
      for (const line of lines) {
        expect(line.statusCode).toBe(403);
        expect(line.message).toMatch(/private address/);
      }
      expect(hits).toBe(0);
    });
  }
});

describe('webhook mode against a webhook that answers without end', () => {
  let t: TestApp;
  let server: Server;
  const floods: Array<Promise<number>> = [];

  beforeAll(async () => {
    t = await createTestApp({ workers: true, env: { PARLEY_CHAT_WEBHOOK_TIMEOUT_MS: '30000' } });
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        floods.push(flood(res, '{"ok":"', 'x'.repeat(64 * 1024)));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const bot = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}`, {
      replyMode: 'webhook',
      webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    });
    expect(bot.statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers at once, without reading the answer: the connection is closed after its headers', async () => {
    const chat = chatClient(t);
    await chat.user();
    const lines = async () =>
      (
        (await t.asOwner('GET', `/v1/admin/bots/${t.botId}/logs`)).json() as {
          logs: Array<{ operationId: string | null; statusCode: number }>;
        }
      ).logs.filter((l) => l.operationId === 'chat.webhook');
    await waitFor(async () => (await lines()).length >= 1, 25_000);
    // A 200, not the 504 of the 30 s time bound cutting a reading that never ends.
    expect((await lines())[0]?.statusCode).toBe(200);
    // Each connection was closed (a connection left open hangs here, caught by the test's own time), with
    // no more of the answer read than the sockets buffer: a reading to the end would take the 4 GiB the
    // flood sends at most.
    const sent = await Promise.all(floods);
    expect(sent.length).toBeGreaterThan(0);
    for (const bytes of sent) expect(bytes).toBeLessThan(256 * 1024 * 1024);
  });
});
