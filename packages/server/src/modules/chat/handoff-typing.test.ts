import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatClient, type LiveStream, liveStreams } from '../../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

/** The typing signals a visitor's live stream received: their type and data. */
const typings = (stream: LiveStream) =>
  stream
    .signals()
    .map((f) => f.data)
    .filter((d) => d?.type === 'typing_started' || d?.type === 'typing_stopped');

describe('a person typing in a conversation (POST …/conversations/{conversationId}/typing)', () => {
  const t = useTestApp();
  const opened: LiveStream[] = [];
  let streams: Awaited<ReturnType<typeof liveStreams>>;
  beforeAll(async () => {
    streams = await liveStreams(t);
  });
  afterAll(async () => {
    for (const s of opened) await s.close();
  });

  /** A visitor's new conversation and their live stream of it. */
  async function visitorListening() {
    const chat = chatClient(t);
    const user = await chat.user();
    const conv = await chat.conversation(user);
    const stream = await streams.listen(conv, { 'x-user-key': user.key });
    opened.push(stream);
    return { conv, stream };
  }

  const url = (conv: string, botId = t.botId) => `/v1/admin/bots/${botId}/conversations/${conv}/typing`;
  const take = async (conv: string, token = t.owner.token) => {
    const res = await t.callWith(token, 'POST', `/v1/admin/bots/${t.botId}/conversations/${conv}/handoff`, {
      action: 'take',
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  it("shows the visitor the typing person's name while they type, and that they stopped", async () => {
    const live = await visitorListening();
    const { stream } = live;
    const dev = await t.addMember('developer', `tess-${Math.random().toString(36).slice(2, 6)}@example.com`);
    await take(live.conv, dev.token);
    const name = dev.email.split('@')[0];

    const started = await t.callWith(dev.token, 'POST', url(live.conv), { typing: true });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toEqual({});
    await stream.until(() => typings(stream).length === 1);
    expect((await t.callWith(dev.token, 'POST', url(live.conv), { typing: false })).statusCode).toBe(200);
    await stream.until(() => typings(stream).length === 2);
    const data = { conversationId: live.conv, userId: `agent_${dev.accountId}`, isBot: true, name };
    expect(typings(stream)).toEqual([
      { type: 'typing_started', data },
      { type: 'typing_stopped', data },
    ]);
  });

  it('answers 409 unless the conversation is assigned to the caller, 403 to a viewer, 404 to an unknown or foreign one, 400 to a bad body', async () => {
    const live = await visitorListening();
    const { stream } = live;
    // The bot answers it: nobody types there yet.
    expectError(await t.asOwner('POST', url(live.conv), { typing: true }), 409, 'ResourceLockedConflict');
    const dev = await t.addMember('developer');
    await take(live.conv, dev.token);
    // Assigned to someone else.
    expectError(await t.asOwner('POST', url(live.conv), { typing: true }), 409, 'ResourceLockedConflict');
    const viewer = await t.addMember('viewer');
    expectError(await t.callWith(viewer.token, 'POST', url(live.conv), { typing: true }), 403, 'Forbidden');
    expectError(await t.asOwner('POST', url('conv_nope'), { typing: true }), 404, 'ResourceNotFound');
    const other = await t.otherTenant();
    expectError(
      await t.asOwner('POST', url(live.conv, other.botId), { typing: true }),
      404,
      'ResourceNotFound',
    );
    for (const body of [{}, { typing: 'yes' }, { typing: true, extra: 1 }])
      expectError(await t.callWith(dev.token, 'POST', url(live.conv), body), 400, 'InvalidPayload');
    // None of these reached the visitor: a signal the assignee sends does, after all of them.
    expect((await t.callWith(dev.token, 'POST', url(live.conv), { typing: true })).statusCode).toBe(200);
    await stream.until(() => typings(stream).length > 0);
    expect(typings(stream)).toHaveLength(1);
  });
});
