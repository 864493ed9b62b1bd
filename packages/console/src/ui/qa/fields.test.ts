import { describe, expect, it } from 'vitest';
import {
  ASK_PARAM,
  answerThisHref,
  formatTags,
  parseTags,
  questionsToAnswer,
  sentencesOf,
  wordingsOf,
} from './fields.js';

describe('Q&A entry form fields', () => {
  it('takes wordings one per line, squeezing spaces and dropping blanks and repeats', () => {
    expect(wordingsOf('  Refunds?\n\nhow do I get   a refund\r\nREFUNDS?\n ')).toEqual([
      'Refunds?',
      'how do I get a refund',
    ]);
  });

  it('reads tags as key=value pairs and names a pair without a key', () => {
    expect(parseTags(' topic = billing ; lang=en;')).toEqual({ tags: { topic: 'billing', lang: 'en' } });
    expect(parseTags('')).toEqual({ tags: {} });
    expect(parseTags('topic=billing; oops')).toEqual({ problem: '"oops" is not key=value.' });
    expect(parseTags('=x')).toEqual({ problem: '"=x" is not key=value.' });
    expect(parseTags(formatTags({ a: '1', b: 'x=y' }))).toEqual({ tags: { a: '1', b: 'x=y' } });
  });

  it('links to the Q&A page with the wordings to answer, one per line', () => {
    const href = answerThisHref('bot 1', ['Refunds & returns?', 'refunds & returns?', 'Money back']);
    expect(href.startsWith('/console/bots/bot%201/qa?')).toBe(true);
    const params = new URL(href, 'http://x').searchParams;
    expect(params.get(ASK_PARAM)).toBe('Refunds & returns?\nMoney back');
  });

  it('finds the questions of a transcript the bot found nothing for or got a thumbs down on', () => {
    const bot = (answer: string, feedback?: 'positive' | 'negative') => ({
      author: 'bot',
      text: 'reply',
      answer,
      ...(feedback ? { feedback: { value: feedback } } : {}),
    });
    const visitor = (text: string) => ({ author: 'visitor', text });
    expect(
      questionsToAnswer([
        visitor('hi'),
        bot('small_talk'),
        visitor('where is my parcel'),
        bot('not_found'),
        visitor('refunds?'),
        bot('passages', 'negative'),
        visitor('warranty?'),
        bot('passages', 'positive'),
        visitor('Where is my parcel'),
        bot('not_found'),
        { author: 'agent', text: 'Let me check', answer: 'human' },
        visitor('still there?'),
      ]),
    ).toEqual(['where is my parcel', 'refunds?']);
    expect(questionsToAnswer([visitor('nobody answered yet')])).toEqual([]);
  });

  it('offers the sentences of a passage to pick, without marks, fragments or repeats', () => {
    expect(
      sentencesOf(
        '# Refunds and returns\n\nRefunds take 5 working days. Write to us first!\n- Keep the   receipt please.\n1. Ok.\nRefunds take 5 working days.',
      ),
    ).toEqual([
      'Refunds and returns',
      'Refunds take 5 working days.',
      'Write to us first!',
      'Keep the receipt please.',
    ]);
    expect(sentencesOf(`${'word '.repeat(100)}end.`)).toEqual([]);
    expect(sentencesOf('')).toEqual([]);
  });
});
