import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ConversationHandoff, HANDOFF_CHOICE_VALUE, type InboxMessage } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatClient, type TestChatUser } from '../../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { type TestApp, testDatabases } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import { eventually } from '../../../../testkit/src/shared/eventually.js';
import { jobQueueDepth } from '../../jobs/queue.js';
import {
  HANDOFF_CLOSED_TEXT,
  HANDOFF_TIMEOUT_TEXT,
  TALK_TO_PERSON_LABEL,
  visitorEmailText,
} from './handoff-wait.js';
import type { KnowledgeResponder } from './reply-port.js';

/** Checks every 25 ms until `check` holds, failing after `timeoutMs`. */
const waitFor = (check: () => boolean | Promise<boolean>, timeoutMs = 20_000) =>
  eventually(async () => check(), timeoutMs, 25);

/** A responder that never finds anything: every reply is a "not found" one. */
const notFound: KnowledgeResponder = {
  async answer() {
    return {
      messages: [{ payload: { type: 'text', text: 'I found nothing on that.' } }],
      debug: { mode: 'not_found' },
    };
  },
};

/** A local HTTP server standing for a bot's handoff webhook: every request's headers and body. */
async function webhookReceiver() {
  const received: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/handoff`;
  return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const databases = testDatabases();

describe.each(databases)('handoff wait, e-mail, not-found offer and webhook on $name', ({ url }) => {
  const t: TestApp = useTestApp({
    workers: true,
    responder: notFound,
    ...(url ? { databaseUrl: url } : {}),
  });
  let hook: Awaited<ReturnType<typeof webhookReceiver>>;
  beforeAll(async () => {
    hook = await webhookReceiver();
  });
  afterAll(() => hook.close());

  const botUrl = () => `/v1/admin/bots/${t.botId}`;
  const setHandoff = (handoff: unknown) => t.asOwner('PUT', botUrl(), { handoff });
  const handoffOf = async (conv: string) =>
    (
      (await t.asOwner('GET', `${botUrl()}/conversations/${conv}/handoff`)).json() as {
        handoff: ConversationHandoff;
      }
    ).handoff;
  const transcript = async (conv: string): Promise<InboxMessage[]> => {
    const res = await t.asOwner('GET', `${botUrl()}/conversations/${conv}/messages?pageSize=100`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { messages: InboxMessage[] }).messages;
  };

  async function visitorConversation(): Promise<{
    chat: ReturnType<typeof chatClient>;
    visitor: TestChatUser;
    conv: string;
  }> {
    const chat = chatClient(t);
    const visitor = await chat.user({ name: 'Vera' });
    return { chat, visitor, conv: await chat.conversation(visitor) };
  }

  it('stores the handoff settings and refuses bad ones (400), a viewer (403) and another workspace (404)', async () => {
    const settings = {
      waitSeconds: 120,
      openingHours: { timezone: 'Europe/Paris', days: [{ day: 'mon', from: '09:00', to: '17:30' }] },
      offerAfterMisses: 2,
      webhookUrl: hook.url,
    };
    const saved = await setHandoff(settings);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await t.asOwner('GET', botUrl())).json()).toMatchObject({ bot: { handoff: settings } });

    const bad: Array<[unknown, string]> = [
      [{ waitSeconds: 0 }, '/handoff/waitSeconds'],
      [{ waitSeconds: 86_401 }, '/handoff/waitSeconds'],
      [{ offerAfterMisses: 3 }, '/handoff/offerAfterMisses'],
      [{ openingHours: { timezone: 'Mars/Olympus', days: [] } }, 'handoff.openingHours.timezone'],
      [
        { openingHours: { timezone: 'UTC', days: [{ day: 'mon', from: '18:00', to: '09:00' }] } },
        'handoff.openingHours.days.0',
      ],
      [
        { openingHours: { timezone: 'UTC', days: [{ day: 'mon', from: '9:00', to: '17:00' }] } },
        '/handoff/openingHours',
      ],
      [{ webhookUrl: 'ftp://example.com/x' }, 'handoff.webhookUrl'],
      [{ colour: 'red' }, '/handoff'],
    ];
    for (const [handoff, field] of bad) {
      const res = await setHandoff(handoff);
      expectError(res, 400, 'InvalidPayload');
      expect(JSON.stringify(res.json()), JSON.stringify(handoff)).toContain(field.split('/').pop() as string);
    }
    expect((await t.asOwner('GET', botUrl())).json()).toMatchObject({ bot: { handoff: settings } });

    const viewer = await t.addMember('viewer', `vic-${Math.random().toString(36).slice(2, 6)}@example.com`);
    const asViewer = await t.callWith(viewer.token, 'PUT', botUrl(), { handoff: { waitSeconds: 5 } });
    expectError(asViewer, 403, 'Forbidden');
    const other = await t.otherTenant();
    expectError(
      await t.asOwner('PUT', `/v1/admin/bots/${other.botId}`, { handoff: {} }),
      404,
      'ResourceNotFound',
    );
  });

  it('ends a wait nobody answered with the e-mail form (a job at the wait end), stores the address and posts the signed webhook', async () => {
    expect((await setHandoff({ waitSeconds: 1, webhookUrl: hook.url })).statusCode).toBe(200);
    const { chat, visitor, conv } = await visitorConversation();
    const before = hook.received.length;
    await chat.message(visitor, conv, 'Help', { handoff: 'request' });
    expect(await handoffOf(conv)).toMatchObject({ state: 'pending' });

    // The webhook: conversation.handoff_requested, signed with the bot's webhook secret.
    await waitFor(() => hook.received.length > before);
    const call = hook.received[before];
    const event = JSON.parse(call?.body ?? '{}');
    expect(event).toMatchObject({
      type: 'conversation.handoff_requested',
      botId: t.botId,
      conversationId: conv,
      handoff: { state: 'pending', waitingSince: expect.any(String) },
    });
    expect(call?.headers['x-parley-event-type']).toBe('conversation.handoff_requested');
    const secret = (
      (await t.asOwner('GET', `${botUrl()}/chat`)).json() as { chat: { webhookSecret: string } }
    ).chat.webhookSecret;
    const [tPart, v1Part] = String(call?.headers['x-parley-signature']).split(',');
    const ts = tPart?.slice(2);
    expect(v1Part?.slice(3)).toBe(createHmac('sha256', secret).update(`${ts}.${call?.body}`).digest('hex'));

    // Nobody came: the bot is back and asks for an e-mail address (the webchat shows its form).
    await waitFor(async () => (await handoffOf(conv)).state === 'bot');
    const notice = (await transcript(conv)).at(-1);
    expect(notice).toMatchObject({ author: 'bot', answer: 'handoff', text: HANDOFF_TIMEOUT_TEXT });
    const listed = await chat.call('GET', `/conversations/${conv}/messages`, { key: visitor.key });
    const latest = (listed.json() as { messages: Array<{ metadata?: Record<string, unknown> }> }).messages[0];
    expect(latest?.metadata).toMatchObject({ form: 'email', handoff: { state: 'bot' } });

    // Both changes of owner are in the audit trail, the end of the wait as the system's (no account).
    const audit = await t.asOwner(
      'GET',
      `/v1/admin/workspaces/${t.workspaceId}/audit-records?action=UPDATE_CONVERSATION_HANDOFF&pageSize=50`,
    );
    const records = (
      audit.json() as { records: Array<{ resourceId: string; value: unknown; accountId: unknown }> }
    ).records.filter((r) => r.resourceId === conv);
    expect(records.map((r) => JSON.parse(String(r.value))).reverse()).toEqual([
      { from: 'bot', to: 'pending' },
      { from: 'pending', to: 'bot' },
    ]);

    // A bad address is refused (nothing stored); a good one is kept with the conversation.
    const leave = (email: string) =>
      chat.call('POST', '/messages', {
        key: visitor.key,
        body: {
          conversationId: conv,
          payload: { type: 'text', text: email },
          metadata: { contactEmail: email },
        },
      });
    expectError(await leave('not an address'), 400, 'InvalidPayload');
    expect((await leave('vera@example.com')).statusCode).toBe(201);
    expect(await handoffOf(conv)).toMatchObject({ state: 'bot', visitorEmail: 'vera@example.com' });
    // The inbox shows it as the visitor's e-mail address.
    const inbox = await t.asOwner('GET', `${botUrl()}/conversations/${conv}`);
    expect(inbox.json()).toMatchObject({ conversation: { visitor: { email: 'vera@example.com' } } });
    expect((await transcript(conv)).at(-1)).toMatchObject({
      author: 'bot',
      text: visitorEmailText('vera@example.com'),
    });
    // The address is no question for the bot: no reply to it.
    expect((await transcript(conv)).filter((m) => m.answer === 'not_found')).toHaveLength(0);
  });

  it('says at once that nobody answers outside the opening hours', async () => {
    // Open one minute a week, at a time that is not now.
    const now = new Date();
    const day = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][(now.getUTCDay() + 3) % 7];
    const openingHours = { timezone: 'UTC', days: [{ day, from: '03:00', to: '03:01' }] };
    expect((await setHandoff({ waitSeconds: 3600, openingHours })).statusCode).toBe(200);
    const { chat, visitor, conv } = await visitorConversation();
    await chat.message(visitor, conv, 'Can I talk to a real person?');
    await waitFor(async () => (await transcript(conv)).some((m) => m.text === HANDOFF_CLOSED_TEXT));
    expect(await handoffOf(conv)).toMatchObject({ state: 'bot' });
  });

  it('does not end a wait a person took up', async () => {
    expect((await setHandoff({ waitSeconds: 1 })).statusCode).toBe(200);
    const { chat, visitor, conv } = await visitorConversation();
    await chat.message(visitor, conv, 'human please');
    const taken = await t.asOwner('POST', `${botUrl()}/conversations/${conv}/handoff`, { action: 'take' });
    expect(taken.statusCode, taken.body).toBe(200);
    await waitFor(
      async () => !(await jobQueueDepth(t.db.kysely)).some((d) => d.kind === 'chat_handoff_wait'),
    );
    expect(await handoffOf(conv)).toMatchObject({ state: 'assigned' });
    expect((await transcript(conv)).some((m) => m.text === HANDOFF_TIMEOUT_TEXT)).toBe(false);
  });

  it.each([
    [0, [false, false, false]],
    [1, [true, true, true]],
    [2, [false, true, true]],
  ])('offers a person with the not-found reply after %i misses (0: never)', async (after, offered) => {
    expect((await setHandoff({ offerAfterMisses: after })).statusCode).toBe(200);
    const { chat, visitor, conv } = await visitorConversation();
    const seen: boolean[] = [];
    for (const text of ['one', 'two', 'three']) {
      await chat.message(visitor, conv, text);
      await waitFor(
        async () => (await transcript(conv)).filter((m) => m.answer === 'not_found').length > seen.length,
      );
      const listed = await chat.call('GET', `/conversations/${conv}/messages`, { key: visitor.key });
      const reply = (listed.json() as { messages: Array<{ payload: Record<string, unknown> }> }).messages[0];
      seen.push(reply?.payload.type === 'choice');
      if (reply?.payload.type === 'choice')
        expect(reply.payload).toEqual({
          type: 'choice',
          text: 'I found nothing on that.',
          options: [{ label: TALK_TO_PERSON_LABEL, value: HANDOFF_CHOICE_VALUE }],
        });
    }
    expect(seen).toEqual(offered);
    if (after === 0) return;
    // Picking the option asks for a person.
    const picked = await chat.call('POST', '/messages', {
      key: visitor.key,
      body: {
        conversationId: conv,
        payload: { type: 'text', text: TALK_TO_PERSON_LABEL, value: HANDOFF_CHOICE_VALUE },
      },
    });
    expect(picked.statusCode, picked.body).toBe(201);
    expect(await handoffOf(conv)).toMatchObject({ state: 'pending' });
  });
});
