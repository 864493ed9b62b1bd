import { beforeAll, describe, expect, it } from 'vitest';
import { botReplyTo } from '../../../../testkit/src/server/chat.js';
import { useChatVisitor } from '../../../../testkit/src/server/chat-visitor.js';
import { uploadIndexed } from '../../../../testkit/src/server/files-indexing.js';
import { useFixture, useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { type TestApp, testDatabases } from '../../../../testkit/src/server/harness.js';
import { startChatServer } from '../../../../testkit/src/server/openai-chat-server.js';
import { CLARIFY_TEXT } from './clarify.js';
import { INTRO_TEXT, NOT_FOUND_TEXT } from './format.js';
import { NO_ANSWER, UNSURE_SYSTEM_PROMPT } from './prompt.js';

/**
 * "Did you mean…?" and the bot's own words, through the whole chat (issue #33, items 4 and 5): a visitor asks
 * through the Chat API, the chat reply job answers (words alone: the test app has no embedder, so the band is
 * the best quote's coverage between 0.3 and the 0.42 of an answer); picking a choice posts its value as the
 * webchat does, and the answer comes from the picked passage.
 */

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

/** Uploads the three documents and waits until they are indexed; answers their file ids by key. */
async function uploadDocuments(t: TestApp): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [key, text] of [
    ['returns.md', RETURNS],
    ['warranty.md', WARRANTY],
    ['delivery.md', DELIVERY],
  ] as const)
    ids[key] = await uploadIndexed(t, key, text);
  return ids;
}

/** A question halfway between the documents' words: unsure, not empty-handed. */
const AMBIGUOUS = 'delivery of my grinder, what about payment and coffee';
const UNRELATED = 'Which bus goes to the zoo on public holidays?';
const CLEAR = 'How many days do I have to return an unused item?';

describe.each(testDatabases())('did you mean, and the bot’s own replies ($name)', ({ url: databaseUrl }) => {
  const t = useTestApp({ workers: true, ...(databaseUrl ? { databaseUrl } : {}) });
  const { chat, user } = useChatVisitor(t);
  const fileIds: Record<string, string> = {};

  const send = (conversation: string, payload: Record<string, unknown>) =>
    botReplyTo(chat, user, conversation, payload);
  const ask = async (text: string) => {
    const conversation = await chat.conversation(user);
    return { conversation, reply: await send(conversation, { type: 'text', text }) };
  };
  const setReplies = async (replies: Record<string, string>) => {
    const res = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}`, { replies });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    Object.assign(fileIds, await uploadDocuments(t));
  }, 60_000);

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

/**
 * With a chat model configured (issue #33, item 6), a question the offline gate is unsure of goes to the model
 * with the best passages, through the whole chat; the local stand-in speaks the OpenAI protocol.
 */
describe('unsure questions with a chat model', () => {
  const model = useFixture('the model stand-in', startChatServer, (server) => server.close());
  const t = useTestApp(() => ({
    workers: true,
    env: {
      PARLEY_CHAT_MODEL_URL: model.url,
      PARLEY_CHAT_MODEL: 'tiny-llm',
      // Short enough for the time-out test, long enough for the stand-in's answers on a loaded machine.
      PARLEY_CHAT_MODEL_TIMEOUT_MS: '2000',
    },
  }));
  const { chat, user } = useChatVisitor(t);

  const ask = async (text: string) => {
    const conversation = await chat.conversation(user);
    return { conversation, reply: await botReplyTo(chat, user, conversation, { type: 'text', text }) };
  };
  /** The answer mode and retrieval details the bot's reply in a conversation recorded (Admin API transcript). */
  const recorded = async (conversation: string) => {
    const res = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/conversations/${conversation}/messages`);
    expect(res.statusCode, res.body).toBe(200);
    const messages = (
      res.json() as {
        messages: Array<{ author: string; answer?: string; details?: Record<string, unknown> }>;
      }
    ).messages;
    return messages.find((m) => m.author === 'bot');
  };

  beforeAll(() => uploadDocuments(t), 60_000);

  it('sends the best passages to the model, which must answer from them only, and replies with its cited answer', async () => {
    model.requests.length = 0;
    model.behave({ kind: 'answer', pieces: ['Grinders have a warranty of 2 years [1].'] });
    const { conversation, reply } = await ask(AMBIGUOUS);
    expect(reply.payload.type).toBe('markdown');
    expect(reply.payload.markdown).toMatch(
      /^Grinders have a warranty of 2 years \[1\]\.\n\n\*\*Sources\*\*\n\n- \\\[1\\\] /,
    );
    expect(reply.metadata?.sources?.length).toBe(1);

    expect(model.requests).toHaveLength(1);
    const messages = model.requests[0]?.body.messages ?? [];
    expect(messages[0]).toEqual({ role: 'system', content: UNSURE_SYSTEM_PROMPT });
    expect(messages[0]?.content).toContain(`reply with exactly ${NO_ANSWER}`);
    const prompt = messages.at(-1)?.content ?? '';
    expect(prompt).toContain(`Question: ${AMBIGUOUS}`);
    // Two or more of the documents' passages, numbered, whole.
    const numbered = prompt.match(/^\[\d\] \(/gm) ?? [];
    expect(numbered.length).toBeGreaterThanOrEqual(2);
    expect(numbered.length).toBeLessThanOrEqual(6);
    const passages = [
      'You can return any unused item within 30 days of delivery, without giving a reason.',
      'Refunds reach your card within 5 working days once the parcel is back with us.',
      'Every grinder has a warranty of 2 years from delivery, which covers motors and burrs.',
      'Parcels arrive within 3 working days; orders placed before noon leave the same day.',
    ];
    expect(passages.filter((p) => prompt.includes(p)).length).toBe(numbered.length);

    const bot = await recorded(conversation);
    expect(bot?.answer).toBe('generated');
    expect(bot?.details).toMatchObject({
      unsure: { passages: numbered.length },
      model: { name: 'tiny-llm' },
    });
  });

  it('gives the "not found" reply, counted as such in Insights, when the model says the passages do not answer', async () => {
    const insights = async () => {
      const res = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/insights?period=7d`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { insights: { replies: { notFound: number; answered: number } } }).insights
        .replies;
    };
    const before = await insights();
    model.behave({ kind: 'answer', pieces: ['NO_', 'ANSWER'] });
    const { conversation, reply } = await ask(AMBIGUOUS);
    expect(reply.payload).toEqual({ type: 'text', text: NOT_FOUND_TEXT });
    expect(reply.metadata?.sources).toEqual([]);
    const bot = await recorded(conversation);
    expect(bot?.answer).toBe('not_found');
    expect(bot?.details).toMatchObject({ model: { name: 'tiny-llm', answer: 'NO_ANSWER' } });
    const after = await insights();
    expect(after.notFound).toBe(before.notFound + 1);
    expect(after.answered).toBe(before.answered);
  });

  it('asks back as it would without a model when the model answers an error', async () => {
    model.behave({ kind: 'status', status: 503, message: 'model overloaded' });
    const { conversation, reply } = await ask(AMBIGUOUS);
    expect(reply.payload.type).toBe('choice');
    expect(reply.payload.text).toBe(CLARIFY_TEXT);
    const bot = await recorded(conversation);
    expect(bot?.answer).toBe('clarify');
    expect(bot?.details).toMatchObject({
      model: { name: 'tiny-llm', error: expect.stringContaining('answered 503: model overloaded') },
    });
  });

  it('gives the offline reply once the model has not answered within the configured time', async () => {
    model.behave({ kind: 'hang' });
    const { conversation, reply } = await ask(AMBIGUOUS);
    expect(reply.payload.type).toBe('choice');
    const bot = await recorded(conversation);
    expect(bot?.details).toMatchObject({
      model: { error: expect.stringContaining('did not answer within 2000 ms') },
    });
    // The configured 2 s bound ended the call (its own words above), not the reply job's two minutes, which
    // the test's own time would have caught.
  });

  it('does not ask the model when search found nothing near the question', async () => {
    model.requests.length = 0;
    model.behave({ kind: 'answer', pieces: ['The 42 bus [1].'] });
    const { reply } = await ask(UNRELATED);
    expect(reply.payload).toEqual({ type: 'text', text: NOT_FOUND_TEXT });
    expect(model.requests).toHaveLength(0);
  });

  it('asks the model below the band of asking back too, and says "not found" when the model is down', async () => {
    // Its best quote covers ~0.21 of its words: below the 0.3 of asking back, above the model's 0.1.
    const question = 'coffee grinder payment';
    model.requests.length = 0;
    model.behave({ kind: 'answer', pieces: ['Every grinder has a 2-year warranty [1].'] });
    const answered = (await ask(question)).reply;
    expect(model.requests).toHaveLength(1);
    expect(answered.payload.markdown).toMatch(/^Every grinder has a 2-year warranty \[1\]\./);
    expect(answered.metadata?.sources?.map((s) => s.key)).toEqual(['warranty.md']);

    // Down for good: the last test of this app.
    await model.close();
    const { conversation, reply } = await ask(question);
    expect(reply.payload).toEqual({ type: 'text', text: NOT_FOUND_TEXT });
    const bot = await recorded(conversation);
    expect(bot?.answer).toBe('not_found');
    expect(bot?.details).toMatchObject({ model: { error: expect.stringContaining('could not be reached') } });
  });
});
