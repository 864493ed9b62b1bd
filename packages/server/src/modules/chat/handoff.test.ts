import type { ChatMessage, ConversationHandoff, InboxMessage } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { chatClient, type TestChatUser } from '../../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { type TestApp, testDatabases } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import { eventually } from '../../../../testkit/src/shared/eventually.js';
import { jobQueueDepth } from '../../jobs/queue.js';
import { HANDOFF_PENDING_TEXT } from './handoff.js';
import type { KnowledgeResponder } from './reply-port.js';

/** Checks every 25 ms until `check` holds, failing after `timeoutMs`. */
const waitFor = (check: () => boolean | Promise<boolean>, timeoutMs = 20_000) =>
  eventually(async () => check(), timeoutMs, 25);

/** A responder that answers "Bot: <question>" once `open` is called (at once when it was). */
function gatedResponder() {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const asked: string[] = [];
  let gated = false;
  const responder: KnowledgeResponder = {
    async answer(request) {
      const text = request.message.payload.type === 'text' ? request.message.payload.text : '?';
      asked.push(text);
      if (gated) await gate;
      return { messages: [{ payload: { type: 'text', text: `Bot: ${text}` } }] };
    },
  };
  return {
    responder,
    asked,
    close: () => {
      gated = true;
    },
    open: () => release(),
  };
}

const databases = testDatabases();

/** Admin API helpers of one conversation's handoff. */
function handoffApi(t: TestApp) {
  const base = (conv: string, botId = t.botId) => `/v1/admin/bots/${botId}/conversations/${conv}`;
  return {
    base,
    get: (conv: string) => t.asOwner('GET', `${base(conv)}/handoff`),
    post: (conv: string, body: Record<string, unknown>, token = t.owner.token) =>
      t.call({ method: 'POST', url: `${base(conv)}/handoff`, token, workspaceId: t.workspaceId, body }),
    say: (conv: string, text: string, token = t.owner.token) =>
      t.call({
        method: 'POST',
        url: `${base(conv)}/messages`,
        token,
        workspaceId: t.workspaceId,
        body: { payload: { type: 'text', text } },
      }),
    async transcript(conv: string): Promise<InboxMessage[]> {
      const res = await t.asOwner('GET', `${base(conv)}/messages?pageSize=100`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { messages: InboxMessage[] }).messages;
    },
  };
}

/** The bot's replies to visitors in a conversation (not its handoff notices). */
const replies = (messages: InboxMessage[]) =>
  messages.filter((m) => m.author === 'bot' && m.answer !== 'handoff');

describe.each(databases)('human handoff on $name', ({ url: databaseUrl }) => {
  const gate = gatedResponder();
  const t = useTestApp({ workers: true, responder: gate.responder, ...(databaseUrl ? { databaseUrl } : {}) });
  let chat: ReturnType<typeof chatClient>;
  let visitor: TestChatUser;

  async function conversation(): Promise<string> {
    chat = chatClient(t);
    visitor = await chat.user({ name: 'Vera' });
    return chat.conversation(visitor);
  }

  /** Waits until every chat job queued so far has ended. */
  const jobsSettled = () =>
    waitFor(async () => !(await jobQueueDepth(t.db.kysely)).some((d) => d.kind === 'chat_reply'));

  it('moves bot → pending → assigned → bot → … → resolved, telling the visitor, refusing what does not apply (409)', async () => {
    const api = handoffApi(t);
    const conv = await conversation();
    await chat.message(visitor, conv, 'hello');
    await jobsSettled();
    expect((await api.get(conv)).json()).toEqual({ handoff: { conversationId: conv, state: 'bot' } });
    expectError(await api.post(conv, { action: 'hand_back' }), 409, 'ResourceLockedConflict');
    expectError(await api.post(conv, { action: 'resolve' }), 409, 'ResourceLockedConflict');

    const requested = await api.post(conv, { action: 'request' });
    expect(requested.statusCode, requested.body).toBe(200);
    const pending = (requested.json() as { handoff: ConversationHandoff }).handoff;
    expect(pending).toMatchObject({ state: 'pending', waitingSince: expect.any(String) });
    expectError(await api.post(conv, { action: 'request' }), 409, 'ResourceLockedConflict');

    const taken = await api.post(conv, { action: 'take' });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toMatchObject({
      handoff: { state: 'assigned', assignedTo: { accountId: t.owner.accountId, name: expect.any(String) } },
    });
    expectError(await api.post(conv, { action: 'take' }), 409, 'ResourceLockedConflict');
    const ownerName = (taken.json() as { handoff: ConversationHandoff }).handoff.assignedTo?.name ?? '';

    const developer = await t.addMember('developer', 'dana@example.com');
    const assigned = await api.post(conv, { action: 'assign', memberId: developer.memberId });
    expect(assigned.json()).toMatchObject({
      handoff: { state: 'assigned', assignedTo: { accountId: developer.accountId, name: 'dana' } },
    });
    expectError(
      await api.post(conv, { action: 'assign', memberId: developer.memberId }),
      409,
      'ResourceLockedConflict',
    );

    const back = await api.post(conv, { action: 'hand_back' });
    expect(back.json()).toEqual({ handoff: { conversationId: conv, state: 'bot' } });
    await api.post(conv, { action: 'take' });
    const resolved = await api.post(conv, { action: 'resolve' });
    expect(resolved.json()).toMatchObject({ handoff: { state: 'resolved', resolvedAt: expect.any(String) } });
    expectError(await api.post(conv, { action: 'resolve' }), 409, 'ResourceLockedConflict');

    // The visitor read each change as the bot's message, in order.
    const notices = (await api.transcript(conv)).filter((m) => m.answer === 'handoff').map((m) => m.text);
    expect(notices).toEqual([
      HANDOFF_PENDING_TEXT,
      `You're now talking to ${ownerName}.`,
      "You're now talking to dana.",
      'dana left; the bot is back.',
      `You're now talking to ${ownerName}.`,
      `${ownerName} left; the bot is back.`,
    ]);
    // Every change of owner is in the audit trail, by whom.
    const audit = await t.asOwner(
      'GET',
      `/v1/admin/workspaces/${t.workspaceId}/audit-records?action=UPDATE_CONVERSATION_HANDOFF&pageSize=50`,
    );
    const records = (audit.json() as { records: Array<{ resourceId: string; value: unknown }> }).records;
    expect(records.filter((r) => r.resourceId === conv)).toHaveLength(6);
  });

  it('answers 400 to a bad action or assignee, 404 to an unknown or foreign conversation, 403 to a viewer', async () => {
    const api = handoffApi(t);
    const conv = await conversation();
    expectError(await api.post(conv, { action: 'steal' }), 400, 'InvalidPayload');
    expectError(await api.post(conv, { action: 'assign' }), 400, 'InvalidPayload');
    const viewer = await t.addMember('viewer');
    expectError(await api.post(conv, { action: 'assign', memberId: viewer.memberId }), 400, 'InvalidPayload');
    expectError(await api.post(conv, { action: 'assign', memberId: 'member_nope' }), 404, 'ResourceNotFound');
    expectError(await api.post('conv_nope', { action: 'take' }), 404, 'ResourceNotFound');
    expectError(await api.get('conv_nope'), 404, 'ResourceNotFound');
    expectError(await api.say('conv_nope', 'hi'), 404, 'ResourceNotFound');
    // Another workspace's bot and conversation are not found, whatever the caller's role there.
    const other = await t.otherTenant();
    const otherChat = chatClient(t, other.botId);
    const stranger = await otherChat.user();
    const foreign = await otherChat.conversation(stranger);
    for (const url of [`${api.base(foreign, other.botId)}/handoff`, `${api.base(foreign)}/handoff`])
      expectError(await t.asOwner('POST', url, { action: 'take' }), 404, 'ResourceNotFound');
    expectError(
      await t.asOwner('POST', `${api.base(foreign, other.botId)}/messages`, {
        payload: { type: 'text', text: 'x' },
      }),
      404,
      'ResourceNotFound',
    );
    // A viewer reads who answers but changes nothing and cannot reply.
    const asViewer = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      t.call({ method, url, token: viewer.token, workspaceId: t.workspaceId, body });
    expect((await asViewer('GET', `${api.base(conv)}/handoff`)).statusCode).toBe(200);
    expectError(await asViewer('POST', `${api.base(conv)}/handoff`, { action: 'take' }), 403, 'Forbidden');
    expectError(await api.say(conv, 'hi', viewer.token), 403, 'Forbidden');
    expect((await api.get(conv)).json()).toMatchObject({ handoff: { state: 'bot' } });
    expect(await api.transcript(conv)).toEqual([]);
  });

  it('keeps the bot silent once a person took over, lets the person reply under their name, and the bot answers again after hand back', async () => {
    const api = handoffApi(t);
    const conv = await conversation();
    const dev = await t.addMember('developer', `sam-${Math.random().toString(36).slice(2, 6)}@example.com`);
    await chat.message(visitor, conv, 'first');
    await waitFor(async () => replies(await api.transcript(conv)).length === 1);

    // The person's reply takes the conversation (the visitor is told) and is theirs, by name.
    const said = await api.say(conv, 'Hi, Sam here', dev.token);
    expect(said.statusCode, said.body).toBe(201);
    expect(said.json()).toMatchObject({
      message: { author: 'agent', text: 'Hi, Sam here', userName: expect.stringMatching(/^sam-/) },
    });
    expect((await api.get(conv)).json()).toMatchObject({
      handoff: {
        state: 'assigned',
        assignedTo: { accountId: dev.accountId },
        firstHumanReplyAt: expect.any(String),
      },
    });
    // Someone else cannot reply over them.
    expectError(await api.say(conv, 'me too'), 409, 'ResourceLockedConflict');

    for (const text of ['second', 'third', 'fourth']) await chat.message(visitor, conv, text);
    await jobsSettled();
    const during = await api.transcript(conv);
    expect(replies(during)).toHaveLength(1);
    expect(during.map((m) => [m.author, m.text]).slice(-5)).toEqual([
      ['bot', `You're now talking to ${dev.email.split('@')[0]}.`],
      ['agent', 'Hi, Sam here'],
      ['visitor', 'second'],
      ['visitor', 'third'],
      ['visitor', 'fourth'],
    ]);
    // The visitor's side: the person's message with their name, and the conversation's owner.
    const visible = await chat.call('GET', `/conversations/${conv}/messages`, { key: visitor.key });
    const agentMessage = (visible.json() as { messages: ChatMessage[] }).messages.find(
      (m) => m.payload.type === 'text' && m.payload.text === 'Hi, Sam here',
    );
    expect(agentMessage).toMatchObject({
      isBot: true,
      metadata: { agent: { name: expect.stringMatching(/^sam-/) } },
    });
    const seen = await chat.call('GET', `/conversations/${conv}`, { key: visitor.key });
    expect(seen.json()).toMatchObject({
      conversation: { handoff: { state: 'assigned', agentName: expect.stringMatching(/^sam-/) } },
    });
    // A bot key may not post over the person either.
    const botPost = await chat.call('POST', '/messages', {
      bot: true,
      body: { conversationId: conv, payload: { type: 'text', text: 'bot here' } },
    });
    expectError(botPost, 409, 'ResourceLockedConflict');

    expect((await api.post(conv, { action: 'hand_back' }, dev.token)).statusCode).toBe(200);
    await chat.message(visitor, conv, 'fifth');
    await waitFor(async () => replies(await api.transcript(conv)).length === 2);
    expect(replies(await api.transcript(conv)).at(-1)?.text).toBe('Bot: fifth');
  });

  it('turns a visitor asking for a person (their words, or the button) into a wait, with no bot reply', async () => {
    const api = handoffApi(t);
    const conv = await conversation();
    await chat.message(visitor, conv, 'Can I talk to a REAL person, please?');
    await jobsSettled();
    expect((await api.get(conv)).json()).toMatchObject({ handoff: { state: 'pending' } });
    const messages = await api.transcript(conv);
    expect(messages.map((m) => [m.author, m.text])).toEqual([
      ['visitor', 'Can I talk to a REAL person, please?'],
      ['bot', HANDOFF_PENDING_TEXT],
    ]);
    const seen = await chat.call('GET', `/conversations/${conv}`, { key: visitor.key });
    expect(seen.json()).toMatchObject({ conversation: { handoff: { state: 'pending' } } });

    // The bot's own words replace the defaults; "human" no longer asks, "manager" does; so does the button.
    const set = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, {
      configuration: { handoffKeywords: ['manager'] },
    });
    expect(set.statusCode, set.body).toBe(200);
    const plain = await conversation();
    await chat.message(visitor, plain, 'are you human?');
    await waitFor(async () => replies(await api.transcript(plain)).length === 1);
    expect((await api.get(plain)).json()).toMatchObject({ handoff: { state: 'bot' } });
    await chat.message(visitor, plain, 'get me the Manager');
    await waitFor(async () => (await api.transcript(plain)).at(-1)?.answer === 'handoff');
    const button = await conversation();
    await chat.message(visitor, button, 'Talk to a person', { handoff: 'request' });
    expect((await api.get(button)).json()).toMatchObject({ handoff: { state: 'pending' } });
    const bad = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, {
      configuration: { handoffKeywords: ['  '] },
    });
    expectError(bad, 400, 'InvalidPayload');
    await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, { configuration: {} });
  });

  it('posts no bot reply after the take-over commits, even for replies already being made (the gate is in the posting transaction)', async () => {
    const api = handoffApi(t);
    const conv = await conversation();
    gate.close();
    const before = gate.asked.length;
    const count = 30;
    await Promise.all(Array.from({ length: count }, (_, i) => chat.message(visitor, conv, `question ${i}`)));
    // Replies are being made (the responder holds them) when the person takes over.
    await waitFor(() => gate.asked.length > before);
    const taken = await api.post(conv, { action: 'take' });
    expect(taken.statusCode, taken.body).toBe(200);
    gate.open();
    await jobsSettled();
    expect(gate.asked.length).toBeGreaterThan(before);
    expect(replies(await api.transcript(conv))).toEqual([]);
    // The replies that were under way ended their typing indicator.
    const signals = await t.db.kysely
      .selectFrom('chat_signals')
      .select(['type'])
      .where('conversation_id', '=', conv)
      .execute();
    const started = signals.filter((s) => s.type === 'typing_started').length;
    expect(signals.filter((s) => s.type === 'typing_stopped').length).toBe(started);
  });

  it('lets no reply commit after a take-over racing many visitor messages', async () => {
    const api = handoffApi(t);
    const conv = await conversation();
    const count = 60;
    const sent = Promise.all(
      Array.from({ length: count }, (_, i) => chat.message(visitor, conv, `question ${i}`)),
    );
    await waitFor(async () => replies(await api.transcript(conv)).length >= 1);
    const taken = await api.post(conv, { action: 'take' });
    expect(taken.statusCode, taken.body).toBe(200);
    await sent;
    await jobsSettled();
    // Commit order is the signals' cursor order: every bot reply's comes before the take-over's notice.
    const created = await t.db.kysely
      .selectFrom('chat_signals')
      .select(['cursor', 'data'])
      .where('conversation_id', '=', conv)
      .where('type', '=', 'message_created')
      .orderBy('cursor')
      .execute();
    const posted = created.map((s) => ({
      cursor: Number(s.cursor),
      message: JSON.parse(s.data) as ChatMessage & { metadata?: { handoff?: unknown } },
    }));
    const notice = posted.find((p) => p.message.metadata?.handoff !== undefined);
    expect(notice).toBeDefined();
    const botReplies = posted.filter((p) => p.message.isBot && p.message.metadata?.handoff === undefined);
    expect(botReplies.length).toBeGreaterThanOrEqual(1);
    expect(botReplies.filter((p) => p.cursor > (notice?.cursor ?? 0))).toEqual([]);
  });
});
