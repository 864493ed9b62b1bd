import type { InboxConversation, InboxMessage } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatClient, type TestChatUser } from '../../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { type TestMember, testDatabases } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import { eventually } from '../../../../testkit/src/shared/eventually.js';
import type { KnowledgeResponder } from './reply-port.js';

/** Answers "unknown…" questions with nothing found, the others from one source, like the built-in answers. */
const responder: KnowledgeResponder = {
  async answer(request) {
    const text = request.message.payload.type === 'text' ? request.message.payload.text : '';
    if (text.startsWith('unknown'))
      return {
        messages: [{ payload: { type: 'text', text: 'Nothing found.' }, metadata: { sources: [] } }],
        debug: { mode: 'not_found', query: text, passages: [] },
      };
    return {
      messages: [
        {
          payload: { type: 'markdown', markdown: `About ${text} [1]` },
          metadata: { sources: [{ fileId: 'file_1', key: 'guide.pdf', pageNumber: 3, score: 0.8 }] },
        },
      ],
      debug: { mode: 'generated', query: text, passages: [{ fileId: 'file_1', score: 0.8, used: true }] },
    };
  },
};

/** Checks every 25 ms until `check` holds, failing after `timeoutMs`. */
const waitFor = (check: () => boolean | Promise<boolean>, timeoutMs = 10_000) =>
  eventually(async () => check(), timeoutMs, 25);

describe.each(testDatabases())('conversations inbox (Admin API) on $name', ({ url: databaseUrl }) => {
  const t = useTestApp({ workers: true, responder, ...(databaseUrl ? { databaseUrl } : {}) });
  const inbox = (query = '') => `/v1/admin/bots/${t.botId}/conversations${query}`;
  const list = async (query = '') => {
    const res = await t.asOwner('GET', inbox(query));
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { conversations: InboxConversation[]; meta: { nextToken?: string } };
  };
  const transcript = async (id: string) => {
    const res = await t.asOwner('GET', inbox(`/${id}/messages`));
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { messages: InboxMessage[] }).messages;
  };
  let chat: ReturnType<typeof chatClient>;
  let visitor: TestChatUser;
  const conv: Record<'answered' | 'unanswered' | 'quiet', string> = {
    answered: '',
    unanswered: '',
    quiet: '',
  };

  /** Asks a question and waits for the bot's reply. */
  async function ask(id: string, text: string) {
    await chat.message(visitor, id, text);
    await waitFor(async () => (await transcript(id)).at(-1)?.author === 'bot');
  }

  beforeAll(async () => {
    await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, { configuration: { feedbackEnabled: true } });
    chat = chatClient(t);
    visitor = await chat.user({ name: 'Visitor <b>' });
    conv.answered = await chat.conversation(visitor);
    conv.unanswered = await chat.conversation(visitor);
    conv.quiet = await chat.conversation(visitor);
    await ask(conv.answered, 'refunds');
    await ask(conv.unanswered, 'unknown thing');
    const reply = (await transcript(conv.answered)).at(-1) as InboxMessage;
    const feedback = await chat.call('PUT', `/messages/${reply.id}/feedback`, {
      key: visitor.key,
      body: { value: 'negative', comment: 'Wrong <i>page</i>' },
    });
    expect(feedback.statusCode, feedback.body).toBe(200);
  });

  it('lists the conversations by latest activity, with their last message, count and flags', async () => {
    const { conversations } = await list();
    // The quiet one (opened, nobody wrote: a webchat left unused, the designer's preview) is not listed.
    expect(conversations.map((c) => c.id)).toEqual([conv.unanswered, conv.answered]);
    const [unanswered, answered] = conversations;
    expect(unanswered).toMatchObject({
      messageCount: 2,
      lastMessage: { text: 'Nothing found.', isBot: true },
      lastQuestion: 'unknown thing',
      unanswered: true,
      negativeFeedback: false,
    });
    expect(answered).toMatchObject({
      messageCount: 2,
      lastMessage: { text: 'About refunds [1]', isBot: true },
      unanswered: false,
      negativeFeedback: true,
    });
    // Asked for by its id, it is there, empty.
    const one = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/conversations/${conv.quiet}`);
    expect(one.statusCode, one.body).toBe(200);
    const quiet = (one.json() as { conversation: Record<string, unknown> }).conversation;
    expect(quiet).toMatchObject({ messageCount: 0, unanswered: false, negativeFeedback: false });
    expect(quiet?.lastMessage).toBeUndefined();
    expect(quiet?.lastQuestion).toBeUndefined();
    // A new message brings its conversation to the top.
    await ask(conv.answered, 'shipping');
    expect((await list()).conversations[0]).toMatchObject({ id: conv.answered, messageCount: 4 });
  });

  it('filters by negative feedback and by questions the bot could not answer', async () => {
    expect((await list('?feedback=negative')).conversations.map((c) => c.id)).toEqual([conv.answered]);
    expect((await list('?unanswered=true')).conversations.map((c) => c.id)).toEqual([conv.unanswered]);
    expect((await list('?unanswered=true&feedback=negative')).conversations).toEqual([]);
    expect((await list('?unanswered=false')).conversations).toHaveLength(2);
  });

  it('pages with nextToken', async () => {
    const first = await list('?pageSize=1');
    expect(first.conversations).toHaveLength(1);
    expect(first.meta.nextToken).toEqual(expect.any(String));
    const rest = await list(`?pageSize=1&nextToken=${encodeURIComponent(first.meta.nextToken ?? '')}`);
    expect(rest.conversations.map((c) => c.id)).toEqual([conv.unanswered]);
    expect(rest.meta.nextToken).toBeUndefined();
  });

  it('shows a transcript in order: authors, texts, sources, answer modes, retrieval details and feedback', async () => {
    const messages = await transcript(conv.answered);
    expect(messages.map((m) => [m.author, m.text])).toEqual([
      ['visitor', 'refunds'],
      ['bot', 'About refunds [1]'],
      ['visitor', 'shipping'],
      ['bot', 'About shipping [1]'],
    ]);
    expect(messages[0]).toMatchObject({
      userName: 'Visitor <b>',
      payload: { type: 'text', text: 'refunds' },
    });
    expect(messages[0]?.sources).toBeUndefined();
    expect(messages[1]).toMatchObject({
      sources: [{ fileId: 'file_1', key: 'guide.pdf', pageNumber: 3, score: 0.8 }],
      answer: 'generated',
      details: { mode: 'generated', query: 'refunds', passages: [{ fileId: 'file_1', used: true }] },
      feedback: { value: 'negative', comment: 'Wrong <i>page</i>' },
    });
    const unanswered = await transcript(conv.unanswered);
    expect(unanswered[1]).toMatchObject({
      answer: 'not_found',
      sources: [],
      details: { query: 'unknown thing' },
    });
    const one = await t.asOwner('GET', inbox(`/${conv.unanswered}`));
    expect(one.json()).toMatchObject({ conversation: { id: conv.unanswered, unanswered: true } });
    const paged = await t.asOwner('GET', inbox(`/${conv.answered}/messages?pageSize=3`));
    expect((paged.json() as { messages: unknown[] }).messages).toHaveLength(3);
  });

  it('keeps retrieval details and answer modes out of the Chat API', async () => {
    const res = await chat.call('GET', `/conversations/${conv.unanswered}/messages`, { key: visitor.key });
    const [reply] = (res.json() as { messages: Array<Record<string, unknown>> }).messages;
    expect(reply).not.toHaveProperty('details');
    expect(reply).not.toHaveProperty('answer');
  });

  it('answers 404 for an unknown bot or conversation, 400 for a bad filter or token', async () => {
    expectError(await t.asOwner('GET', '/v1/admin/bots/bot_nope/conversations'), 404, 'ResourceNotFound');
    expectError(await t.asOwner('GET', inbox('/conv_nope')), 404, 'ResourceNotFound');
    expectError(await t.asOwner('GET', inbox('/conv_nope/messages')), 404, 'ResourceNotFound');
    const other = await t.otherTenant();
    expectError(
      await t.asOwner('GET', `/v1/admin/bots/${other.botId}/conversations`),
      404,
      'ResourceNotFound',
    );
    expectError(await t.asOwner('GET', inbox('?feedback=positive')), 400, 'InvalidQuery');
    expectError(await t.asOwner('GET', inbox('?unanswered=maybe')), 400, 'InvalidQuery');
    expectError(await t.asOwner('GET', inbox('?nextToken=garbage')), 400, 'InvalidQuery');
  });

  describe('who may read', () => {
    const as = (m: TestMember, path: string) =>
      t.call({ method: 'GET', url: path, token: m.token, workspaceId: t.workspaceId });

    it('answers 401 without credentials and 403 to billing and to a bot key', async () => {
      expectError(await t.call({ method: 'GET', url: inbox() }), 401, 'Unauthorized');
      const billing = await t.addMember('billing');
      expectError(await as(billing, inbox()), 403, 'Forbidden');
      expectError(await as(billing, inbox(`/${conv.answered}/messages`)), 403, 'Forbidden');
      const bot = await t.call({ method: 'GET', url: inbox(), token: t.botKey, workspaceId: t.workspaceId });
      expectError(bot, 403, 'Forbidden');
    });

    it('lets a viewer read conversations and transcripts', async () => {
      const viewer = await t.addMember('viewer');
      expect((await as(viewer, inbox())).statusCode).toBe(200);
      expect((await as(viewer, inbox(`/${conv.answered}/messages`))).statusCode).toBe(200);
    });
  });
});

describe('conversations inbox of a bot without an answer engine', () => {
  const t = useTestApp({ workers: true, responder: null });

  it("records the reply's answer mode as no_engine, with no retrieval details", async () => {
    const chat = chatClient(t);
    const visitor = await chat.user();
    const id = await chat.conversation(visitor);
    await chat.message(visitor, id, 'hello?');
    const url = `/v1/admin/bots/${t.botId}/conversations/${id}/messages`;
    let messages: InboxMessage[] = [];
    await waitFor(async () => {
      messages = ((await t.asOwner('GET', url)).json() as { messages: InboxMessage[] }).messages;
      return messages.length === 2;
    });
    expect(messages[1]).toMatchObject({ author: 'bot', answer: 'no_engine' });
    expect(messages[1]?.details).toBeUndefined();
  });
});
