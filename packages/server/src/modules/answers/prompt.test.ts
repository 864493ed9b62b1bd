import type { ChatMessage } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import type { AnswerSource } from './format.js';
import {
  buildChatPrompt,
  MAX_HISTORY_MESSAGES,
  NO_ANSWER,
  SYSTEM_PROMPT,
  saysNoAnswer,
  UNSURE_SYSTEM_PROMPT,
  userPrompt,
} from './prompt.js';

const sources: AnswerSource[] = [
  {
    n: 1,
    fileId: 'file_1',
    key: 'handbook.md',
    title: 'Handbook',
    url: undefined,
    score: 2,
    content: 'Refunds within 30 days.',
  },
  {
    n: 2,
    fileId: 'file_2',
    key: 'terms.pdf',
    title: 'terms.pdf',
    url: undefined,
    pageNumber: 4,
    score: 1,
    content: 'Gift cards are not refunded.',
  },
];

const message = (id: string, text: string, isBot = false): ChatMessage => ({
  id,
  createdAt: '2026-01-01T00:00:00.000Z',
  conversationId: 'conv_1',
  userId: isBot ? 'bot' : 'user_1',
  isBot,
  payload: { type: 'text', text },
});

describe('prompts', () => {
  it('asks to answer only from the numbered passages and to cite them as [1], [2]', () => {
    expect(SYSTEM_PROMPT).toMatch(/only from the numbered passages/);
    expect(SYSTEM_PROMPT).toContain('[1]');
  });

  it('numbers the passages with their source and page, then asks the question', () => {
    expect(userPrompt('Can I get a refund?', sources)).toBe(
      'Passages:\n\n[1] (Handbook)\nRefunds within 30 days.\n\n[2] (terms.pdf, page 4)\nGift cards are not refunded.\n\nQuestion: Can I get a refund?',
    );
  });

  it('puts the last few text messages of the conversation between the instructions and the question', () => {
    const history = [
      ...Array.from({ length: 10 }, (_, i) => message(`m${i}`, `message ${i}`, i % 2 === 1)),
      { ...message('img', ''), payload: { type: 'image' as const, imageUrl: 'https://example.com/a.png' } },
      message('q', 'Can I get a refund?'),
    ];
    const messages = buildChatPrompt({ question: 'Can I get a refund?', sources, history, messageId: 'q' });
    expect(messages[0]).toEqual({ role: 'system', content: SYSTEM_PROMPT });
    expect(messages.slice(1, -1)).toEqual(
      [4, 5, 6, 7, 8, 9].map((i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}` })),
    );
    expect(messages).toHaveLength(MAX_HISTORY_MESSAGES + 2);
    expect(messages.at(-1)).toEqual({ role: 'user', content: userPrompt('Can I get a refund?', sources) });
  });
});

describe('the prompt of an unsure question', () => {
  it('asks for NO_ANSWER alone when the passages do not answer, and takes it however it is wrapped', () => {
    const messages = buildChatPrompt({
      question: 'Can I pay by card?',
      sources,
      system: UNSURE_SYSTEM_PROMPT,
    });
    expect(messages[0]).toEqual({ role: 'system', content: UNSURE_SYSTEM_PROMPT });
    expect(UNSURE_SYSTEM_PROMPT).toContain(`reply with exactly ${NO_ANSWER} and nothing else`);
    for (const said of ['NO_ANSWER', ' `NO_ANSWER`.', '**NO_ANSWER**', '"no_answer"', 'NO ANSWER'])
      expect(saysNoAnswer(said), said).toBe(true);
    for (const said of ['Refunds take 30 days [1].', 'NO_ANSWER: but refunds take 30 days [1].', ''])
      expect(saysNoAnswer(said), said).toBe(false);
  });
});
