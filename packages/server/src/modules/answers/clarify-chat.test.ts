import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatClient, type TestChatUser } from '../../test-support/chat.js';
import { uploadIndexed } from '../../test-support/files-indexing.js';
import { createTestApp, postgresTestUrl, type TestApp } from '../../test-support/harness.js';
import { CLARIFY_TEXT } from './clarify.js';
import { INTRO_TEXT, NOT_FOUND_TEXT } from './format.js';

/**
 * "Did you mean…?" and the bot's own words, through the whole chat (issue #33, items 4 and 5): a visitor asks
 * through the Chat API, the chat reply job answers (words alone: the test app has no embedder, so the band is
 * the best quote's coverage between 0.3 and the 0.42 of an answer); picking a choice posts its value as the
 * webchat does, and the answer comes from the picked passage.
 */

interface Message {
  id: string;
  isBot: boolean;
  payload: {
    type: string;
    markdown?: string;
    text?: string;
    options?: Array<{ label: string; value: string }>;
  };
  metadata?: {
    sources?: Array<{ fileId: string; key: string }>;
    answer?: { mode: string; choices?: Array<{ label: string; value: string; key: string }> };
  };
}

const RETURNS = `# Returns and refunds

## Returning an item

You can return any unused item within 30 days of delivery, without giving a reason.

## Refunds

Refunds reach your card within 5 working days once the parcel is back with us.
`;
const WARRANTY = `# Warranty

## Warranty period

Every grinder has a warranty of 2 years from delivery, which covers motors and burrs.
`;
const DELIVERY = `# Delivery

## Delivery times

Parcels arrive within 3 working days; orders placed before noon leave the same day.
`;

/** A question halfway between the documents' words: unsure, not empty-handed. */
const AMBIGUOUS = 'delivery of my grinder, what about payment and coffee';
const UNRELATED = 'Which bus goes to the zoo on public holidays?';
const CLEAR = 'How many days do I have to return an unused item?';

const pgUrl = postgresTestUrl();
const databases = [
  { name: 'SQLite', url: undefined as string | undefined },
  ...(pgUrl ? [{ name: 'PostgreSQL', url: pgUrl }] : []),
];

describe.each(databases)('did you mean, and the bot’s own replies ($name)', ({ url: databaseUrl }) => {
  let t: TestApp;
  let chat: ReturnType<typeof chatClient>;
  let user: TestChatUser;
  const fileIds: Record<string, string> = {};

  /** Posts a payload in the conversation and answers the bot's reply to it. */
  async function send(conversation: string, payload: Record<string, unknown>): Promise<Message> {
    const posted = await chat.call('POST', '/messages', {
      key: user.key,
      body: { conversationId: conversation, payload },
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const id = (posted.json() as { message: { id: string } }).message.id;
    const until = Date.now() + 20_000;
    for (;;) {
      const res = await chat.call('GET', `/conversations/${conversation}/messages`, { key: user.key });
      const messages = (res.json() as { messages: Message[] }).messages;
      // Newest first: the bot's reply is the newest message once it is there.
      const mine = messages.findIndex((m) => m.id === id);
      const reply =
        mine > 0
          ? messages
              .slice(0, mine)
              .reverse()
              .find((m) => m.isBot)
          : undefined;
      if (reply) return reply;
      if (Date.now() > until) throw new Error(`no reply to ${JSON.stringify(payload)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  const ask = async (text: string) => {
    const conversation = await chat.conversation(user);
    return { conversation, reply: await send(conversation, { type: 'text', text }) };
  };
  const setReplies = async (replies: Record<string, string>) => {
    const res = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}`, { replies });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp({ workers: true, ...(databaseUrl ? { databaseUrl } : {}) });
    for (const [key, text] of [
      ['returns.md', RETURNS],
      ['warranty.md', WARRANTY],
      ['delivery.md', DELIVERY],
    ] as const)
      fileIds[key] = await uploadIndexed(t, key, text);
    chat = chatClient(t);
    user = await chat.user();
  }, 60_000);
  afterAll(() => t?.close());

  it('asks back with choices named after the candidates’ headings, and answers a pick from its passage', async () => {
    const { conversation, reply } = await ask(AMBIGUOUS);
    expect(reply.payload.type, JSON.stringify(reply.payload)).toBe('choice');
    expect(reply.payload.text).toBe(CLARIFY_TEXT);
    const options = reply.payload.options ?? [];
    expect(options.length).toBeGreaterThanOrEqual(2);
    expect(options.length).toBeLessThanOrEqual(3);
    const labels = options.map((o) => o.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const label of labels)
      expect(['Returning an item', 'Refunds', 'Warranty period', 'Delivery times']).toContain(label);
    expect(reply.metadata?.answer?.mode).toBe('clarify');
    expect(reply.metadata?.answer?.choices?.map((c) => c.label)).toEqual(labels);
    expect(reply.metadata?.sources).toEqual([]);

    // The inbox transcript shows the question and its choices as text, marked as a clarification.
    const transcript = await t.asOwner(
      'GET',
      `/v1/admin/bots/${t.botId}/conversations/${conversation}/messages`,
    );
    const shown = (
      transcript.json() as { messages: Array<{ text: string; answer?: string; author: string }> }
    ).messages;
    const asked = shown.find((m) => m.author === 'bot');
    expect(asked?.answer).toBe('clarify');
    for (const label of labels) expect(asked?.text).toContain(label);

    // Picking one as the webchat does: the label as text, the value as value.
    const picked =
      options.find((o) => o.label === 'Warranty period') ?? (options[0] as { label: string; value: string });
    const answer = await send(conversation, { type: 'text', text: picked.label, value: picked.value });
    expect(answer.payload.type).toBe('markdown');
    const key = reply.metadata?.answer?.choices?.find((c) => c.value === picked.value)?.key;
    expect(answer.metadata?.sources?.[0]?.key).toBe(key);
    expect(answer.metadata?.sources).toHaveLength(1);
    const passage = { 'returns.md': RETURNS, 'warranty.md': WARRANTY, 'delivery.md': DELIVERY }[
      key as string
    ];
    const quoted = /\n> (.+)/.exec(answer.payload.markdown ?? '')?.[1];
    expect(quoted && passage?.includes(quoted), answer.payload.markdown).toBe(true);
  });

  it('answers a pick of a passage that is not the bot’s (or is gone) with its "not found" reply', async () => {
    const { conversation } = await ask(UNRELATED);
    const reply = await send(conversation, {
      type: 'text',
      text: 'Secret',
      value: 'pick:file_01J0000000000000000000GONE:0:Secret',
    });
    expect(reply.payload).toEqual({ type: 'text', text: NOT_FOUND_TEXT });
    expect(reply.metadata?.sources).toEqual([]);
  });

  it('says the bot’s own words for not found, the intro and the question asked back; the defaults again once cleared', async () => {
    await setReplies({
      notFound: 'Nothing on that here. Write to [support](mailto:help@example.com).',
      intro: 'Straight from our docs:',
      clarify: 'Which of these do you mean?',
    });
    const notFound = (await ask(UNRELATED)).reply;
    expect(notFound.payload).toEqual({
      type: 'markdown',
      markdown: 'Nothing on that here. Write to [support](mailto:help@example.com).',
    });
    const clear = (await ask(CLEAR)).reply;
    expect(clear.payload.markdown?.startsWith('Straight from our docs:\n\n')).toBe(true);
    expect(clear.payload.markdown).toContain('30 days');
    const asked = (await ask(AMBIGUOUS)).reply;
    expect(asked.payload).toMatchObject({ type: 'choice', text: 'Which of these do you mean?' });

    await setReplies({});
    expect((await ask(UNRELATED)).reply.payload).toEqual({ type: 'text', text: NOT_FOUND_TEXT });
    expect((await ask(CLEAR)).reply.payload.markdown?.startsWith(`${INTRO_TEXT}\n\n`)).toBe(true);
    expect((await ask(AMBIGUOUS)).reply.payload).toMatchObject({ type: 'choice', text: CLARIFY_TEXT });
  });
});
