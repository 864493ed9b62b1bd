import { afterAll, describe, expect, it } from 'vitest';
import { startOracleModel, visitorChatModel } from './reader-model.js';
import { visitorSet } from './set.js';

const questions = visitorSet().questions;
const asked = questions.find((q) => q.answer?.facts.length === 1 && q.answer.facts[0] === '30 days');
const prompt = (question: string) =>
  `Passages:\n\n[1] (Delivery)\nParcels arrive within 3 working days.\n\n[2] (Returns › Returning an item)\nYou can return any unused item within\n30 days of delivery.\n\nQuestion: ${question}`;
const UNSURE = `… reply with exactly NO_ANSWER and nothing else.`;

describe('the oracle reader (the visitor set with --chat-model oracle)', async () => {
  const oracle = await startOracleModel(questions);
  afterAll(() => oracle.close());
  const complete = async (system: string, question: string) => {
    const res = await fetch(`${oracle.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'oracle',
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: prompt(question) },
        ],
      }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message
      .content;
  };

  it('answers a question of the set with the first passage holding its facts, cited', async () => {
    expect(asked).toBeDefined();
    expect(await complete(UNSURE, asked?.text ?? '')).toBe(
      'You can return any unused item within\n30 days of delivery. [2]',
    );
  });

  it('says NO_ANSWER to an unsure question whose facts no passage holds, and counts the calls', async () => {
    const unanswerable = questions.find((q) => q.answer === null);
    expect(await complete(UNSURE, unanswerable?.text ?? '')).toBe('NO_ANSWER');
    expect(await complete('Answer from the passages.', 'not a question of the set')).toBe(
      'Parcels arrive within 3 working days. [1]',
    );
    expect(oracle.calls).toEqual({ sure: 1, unsure: 2 });
  });

  it('is none, the oracle or a URL with a model name; anything else is refused', async () => {
    expect((await visitorChatModel(undefined, undefined, questions)).settings).toEqual({});
    expect((await visitorChatModel('http://127.0.0.1:11434/v1', 'llama3.2', questions)).settings).toEqual({
      PARLEY_CHAT_MODEL_URL: 'http://127.0.0.1:11434/v1',
      PARLEY_CHAT_MODEL: 'llama3.2',
    });
    await expect(visitorChatModel('gpt', undefined, questions)).rejects.toThrow(/oracle or an http/);
    await expect(visitorChatModel('http://127.0.0.1:1/v1', undefined, questions)).rejects.toThrow(
      /--chat-model-name is required/,
    );
    const started = await visitorChatModel('oracle', undefined, questions);
    expect(started.settings.PARLEY_CHAT_MODEL).toBe('oracle');
    await started.close();
  });
});
