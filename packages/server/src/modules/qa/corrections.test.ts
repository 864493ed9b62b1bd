import type { InboxConversation } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { botReplyTo, chatClient, type TestChatUser } from '../../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { postgresTestUrl, type TestApp } from '../../../../testkit/src/server/harness.js';

type Listed = InboxConversation & { answeredByEntry?: { entryId: string; since: string; question: string } };

/**
 * The inbox's corrections (issue 34, item 4): a conversation whose unanswered (or thumbs-down) question an entry
 * saved since answers is marked `answeredByEntry`, in the list and in the conversation; a question no entry
 * answers, an entry switched off, or a conversation that went well are not.
 */
function correctionsSuite(databaseUrl?: string) {
  const t: TestApp = useTestApp({ workers: true, ...(databaseUrl ? { databaseUrl } : {}) });
  let chat: ReturnType<typeof chatClient>;
  let visitor: TestChatUser;
  const conv = { parcel: '', gift: '', unrelated: '', disliked: '' };

  const list = async (query = ''): Promise<Listed[]> => {
    const res = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/conversations${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { conversations: Listed[] }).conversations;
  };
  const one = async (id: string): Promise<Listed> => {
    const res = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/conversations/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { conversation: Listed }).conversation;
  };
  const marks = async () =>
    Object.fromEntries(
      (await list()).map((c) => [c.id, c.answeredByEntry ? c.answeredByEntry.question : undefined]),
    );
  const addEntry = async (body: Record<string, unknown>) => {
    const res = await t.asOwner('POST', `/v1/admin/bots/${t.botId}/qa`, body);
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { entry: { id: string; updatedAt: string } }).entry;
  };
  const ask = async (conversation: string, text: string) =>
    botReplyTo(chat, visitor, conversation, { type: 'text', text });

  beforeAll(async () => {
    await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, { configuration: { feedbackEnabled: true } });
    chat = chatClient(t);
    visitor = await chat.user();
    for (const name of Object.keys(conv) as Array<keyof typeof conv>)
      conv[name] = await chat.conversation(visitor);
    // The bot holds no document: every question gets "not found".
    await ask(conv.parcel, 'Where is my parcel?');
    await ask(conv.gift, 'Do you sell gift cards?');
    await ask(conv.unrelated, 'Who designed your logo?');
    // A thumbs down on a reply is a question to correct too.
    const reply = await ask(conv.disliked, 'Can I pay by invoice?');
    const feedback = await chat.call('PUT', `/messages/${reply.id}/feedback`, {
      key: visitor.key,
      body: { value: 'negative' },
    });
    expect(feedback.statusCode, feedback.body).toBe(200);
  }, 120_000);

  it('marks no conversation while no entry answers its questions', async () => {
    expect(await marks()).toEqual({
      [conv.parcel]: undefined,
      [conv.gift]: undefined,
      [conv.unrelated]: undefined,
      [conv.disliked]: undefined,
    });
  });

  it('marks a conversation whose question an entry saved since answers, in the list and the conversation', async () => {
    const entry = await addEntry({ questions: ['where is my parcel now'], answer: 'Track it on our site.' });
    const invoice = await addEntry({ questions: ['pay by invoice'], answer: 'Yes, for companies.' });
    expect(await marks()).toEqual({
      [conv.parcel]: 'Where is my parcel?',
      [conv.gift]: undefined,
      [conv.unrelated]: undefined,
      [conv.disliked]: 'Can I pay by invoice?',
    });
    expect((await one(conv.parcel)).answeredByEntry).toEqual({
      entryId: entry.id,
      since: entry.updatedAt,
      question: 'Where is my parcel?',
    });
    expect((await one(conv.disliked)).answeredByEntry?.entryId).toBe(invoice.id);
    expect((await one(conv.unrelated)).answeredByEntry).toBeUndefined();
    // The filters keep the mark.
    expect((await list('?unanswered=true')).find((c) => c.id === conv.parcel)?.answeredByEntry?.entryId).toBe(
      entry.id,
    );
  });

  it('drops the mark of an entry switched off, and marks again from when it is switched on', async () => {
    const entry = await addEntry({
      questions: ['gift cards for sale'],
      answer: 'Yes, from 10 EUR.',
      enabled: false,
    });
    expect((await one(conv.gift)).answeredByEntry).toBeUndefined();
    const on = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/qa/${entry.id}`, {
      questions: ['gift cards for sale'],
      answer: 'Yes, from 10 EUR.',
      enabled: true,
    });
    expect(on.statusCode, on.body).toBe(200);
    const since = (on.json() as { entry: { updatedAt: string } }).entry.updatedAt;
    expect((await one(conv.gift)).answeredByEntry).toEqual({
      entryId: entry.id,
      since,
      question: 'Do you sell gift cards?',
    });
  });

  it('does not mark a question asked after the entry that answers it was saved (the entry answered it)', async () => {
    const later = await chat.conversation(visitor);
    const reply = await ask(later, 'where is my parcel');
    expect(reply.metadata?.answer?.mode).toBe('qa');
    const listed = (await list()).find((c) => c.id === later);
    expect(listed).toMatchObject({ unanswered: false });
    expect(listed?.answeredByEntry).toBeUndefined();
  });
}

describe('Inbox corrections by Q&A entries (SQLite)', () => correctionsSuite());
const pgUrl = postgresTestUrl();
describe.skipIf(!pgUrl)('Inbox corrections by Q&A entries (PostgreSQL)', () => correctionsSuite(pgUrl));
