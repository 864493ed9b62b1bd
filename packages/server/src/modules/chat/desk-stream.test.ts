import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { chatClient, openSse, type SseFrame } from '../../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { postgresTestUrl } from '../../../../testkit/src/server/harness.js';
import { secondProcess } from '../../../../testkit/src/server/second-process.js';
import { signalBus } from './bus.js';
import { DeskStreams, deskChange, serveDeskStream } from './desk-stream.js';

const pgUrl = postgresTestUrl();

/** The `conversation_changed` frames of a conversation. */
const changesOf = (frames: SseFrame[], conv: string) =>
  frames.filter((f) => f.data?.type === 'conversation_changed' && f.data.data.conversationId === conv);

describe('the inbox desk live stream', () => {
  const t = useTestApp();

  it('tells the desk of a new waiting conversation, its messages and its owner changes, without their contents', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `${address}/v1/admin/bots/${t.botId}/conversations/live`;
    const desk = await openSse(url, {
      authorization: `Bearer ${t.owner.token}`,
      'x-workspace-id': t.workspaceId,
    });
    expect(desk.res.status).toBe(200);
    expect(desk.res.headers.get('content-type')).toContain('text/event-stream');
    await desk.until((f) => f.some((x) => x.data?.type === 'counts'));
    expect(desk.frames.find((f) => f.data?.type === 'counts')?.data?.data).toEqual({
      waiting: 0,
      mine: 0,
      all: 0,
      resolved: 0,
    });

    const chat = chatClient(t);
    const visitor = await chat.user({ name: 'Vera' });
    const conv = await chat.conversation(visitor);
    await chat.message(visitor, conv, 'secret words of the visitor');
    await desk.until((f) => changesOf(f, conv).length > 0);
    // The conversation's first signals may come as a bare note (its rows read by the streams that want them).
    expect(changesOf(desk.frames, conv)[0]?.data?.data).toMatchObject({ conversationId: conv });

    const base = `/v1/admin/bots/${t.botId}/conversations/${conv}`;
    expect((await t.asOwner('POST', `${base}/handoff`, { action: 'request' })).statusCode).toBe(200);
    await desk.until((f) => changesOf(f, conv).some((x) => x.data?.data.handoff !== undefined));
    expect(changesOf(desk.frames, conv).at(-1)?.data?.data).toEqual({
      conversationId: conv,
      signals: ['message_created', 'handoff_changed'],
      handoff: { state: 'pending' },
    });
    expect((await t.asOwner('POST', `${base}/handoff`, { action: 'take' })).statusCode).toBe(200);
    await desk.until((f) =>
      changesOf(f, conv).some((x) => (x.data?.data.handoff as { state?: string })?.state === 'assigned'),
    );
    // A note wakes the desk too; the visitor's own stream hears nothing of it.
    const visitorStream = await openSse(`${address}/v1/chat/${t.botId}/conversations/${conv}/listen`, {
      'x-user-key': visitor.key,
    });
    expect(visitorStream.res.status).toBe(200);
    const heard = changesOf(desk.frames, conv).length;
    const noted = await t.asOwner('POST', `${base}/notes`, { text: 'secret note of the team' });
    expect(noted.statusCode, noted.body).toBe(201);
    await desk.until((f) => changesOf(f, conv).length > heard);
    await chat.message(visitor, conv, 'still there?');
    await visitorStream.until((f) => f.some((x) => JSON.stringify(x.data ?? {}).includes('still there?')));
    expect(JSON.stringify(visitorStream.frames)).not.toContain('secret note');
    await visitorStream.close();
    // The frames name conversations and states: what was said is read through the Admin API.
    expect(JSON.stringify(desk.frames)).not.toContain('secret words');
    expect(JSON.stringify(desk.frames)).not.toContain('secret note');
    await desk.close();
  });

  it('answers 401 without credentials, 403 to a bot key and 404 for another workspace before streaming', async () => {
    const url = (botId: string) => `/v1/admin/bots/${botId}/conversations/live`;
    expect((await t.call({ method: 'GET', url: url(t.botId) })).statusCode).toBe(401);
    const asBot = await t.call({
      method: 'GET',
      url: url(t.botId),
      token: t.botKey,
      workspaceId: t.workspaceId,
    });
    expect(asBot.statusCode).toBe(403);
    const other = await t.otherTenant();
    expect((await t.asOwner('GET', url(other.botId))).statusCode).toBe(404);
  });

  it('leaves out what the desk does not show: typing, stream deltas and debug signals', () => {
    const row = (type: string, adminOnly = false) => ({ cursor: 1, type, data: '{}', adminOnly });
    const note = (rows: ReturnType<typeof row>[]) => ({
      botId: 'b',
      conversationId: 'c',
      cursor: 1,
      stored: { previous: 0, rows },
    });
    expect(deskChange(note([row('typing_started'), row('message_stream_delta')]))).toBeUndefined();
    expect(deskChange(note([row('message_created', true)]))).toBeUndefined();
    // A note too large to carry its rows says only which conversation changed.
    expect(deskChange({ botId: 'b', conversationId: 'c', cursor: 9 })).toEqual({ conversationId: 'c' });
  });
});

describe('the desk streams of a process', () => {
  it('admits a bounded number per bot, ends a stream at its age, and frees its slot', async () => {
    const streams = new DeskStreams({ perBot: 1, maxAgeMs: 300, bufferBytes: 64 * 1024 });
    const bus = signalBus({ onError: (error) => expect.fail(String(error)) });
    const counts = { waiting: 2, mine: 0, all: 3, resolved: 1 };
    const server = createServer((_req, res) => {
      const release = streams.admit('bot_1');
      if (!release) {
        res.writeHead(429).end();
        return;
      }
      void serveDeskStream({
        res,
        headers: {},
        bus,
        botId: 'bot_1',
        counts,
        pingMs: 60_000,
        streams,
        release,
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const first = await openSse(url, {});
      await first.until((f) => f.some((x) => x.data?.type === 'counts'));
      expect(first.frames.find((f) => f.data?.type === 'counts')?.data?.data).toEqual(counts);
      // The bot's one slot is taken: a second stream is refused while the first is open.
      expect((await fetch(url)).status).toBe(429);
      // A change of one of the bot's conversations reaches it; another bot's does not.
      bus.publish({ botId: 'bot_2', conversationId: 'conv_x', cursor: 1 });
      bus.publish({ botId: 'bot_1', conversationId: 'conv_1', cursor: 1 });
      await first.until((f) => f.some((x) => x.data?.type === 'conversation_changed'));
      expect(
        first.frames.filter((f) => f.data?.type === 'conversation_changed').map((f) => f.data?.data),
      ).toEqual([{ conversationId: 'conv_1' }]);
      // It ends at its age (its client reconnects), and its slot is free again.
      await first.done;
      expect(first.ended).toBe(true);
      const again = await openSse(url, {});
      expect(again.res.status).toBe(200);
      await again.close();
    } finally {
      streams.closeAll();
      server.close();
      await bus.close();
    }
  });
});

describe.skipIf(!pgUrl)('the inbox desk live stream across processes (PostgreSQL)', () => {
  const t = useTestApp({ ...(pgUrl ? { databaseUrl: pgUrl } : {}) });

  it('hears a handoff request made on another process', async () => {
    const other = await secondProcess(t, pgUrl as string);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const desk = await openSse(`${address}/v1/admin/bots/${t.botId}/conversations/live`, {
      authorization: `Bearer ${t.owner.token}`,
      'x-workspace-id': t.workspaceId,
    });
    await desk.until((f) => f.some((x) => x.data?.type === 'counts'));
    const chat = chatClient(t);
    const visitor = await chat.user();
    const conv = await chat.conversation(visitor);
    await chat.message(visitor, conv, 'hello');
    const res = await other.app.inject({
      method: 'POST',
      url: `/v1/admin/bots/${t.botId}/conversations/${conv}/handoff`,
      headers: { authorization: `Bearer ${t.owner.token}`, 'x-workspace-id': t.workspaceId },
      payload: { action: 'request' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await desk.until((f) =>
      changesOf(f, conv).some((x) => (x.data?.data.handoff as { state?: string })?.state === 'pending'),
    );
    await desk.close();
    await other.close();
  });
});
