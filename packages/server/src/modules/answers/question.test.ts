import { describe, expect, it } from 'vitest';
import { questionOf, smallTalkLanguage, smallTalkOf, truncateBytes } from './question.js';

describe('questionOf', () => {
  it('reads the text of a text message, trimmed', () => {
    expect(questionOf({ type: 'text', text: '  How long do refunds take? ' })).toEqual({
      kind: 'text',
      text: 'How long do refunds take?',
    });
  });

  it('reads the value of a choice postback rather than its label', () => {
    expect(questionOf({ type: 'text', text: 'Refunds', value: 'refund policy' })).toEqual({
      kind: 'text',
      text: 'refund policy',
    });
    expect(questionOf({ type: 'text', text: 'Refunds', value: '  ' })).toEqual({
      kind: 'text',
      text: 'Refunds',
    });
  });

  it('reads markdown, choice text and the text items of a bloc', () => {
    expect(questionOf({ type: 'markdown', markdown: '**shipping** times?' })).toEqual({
      kind: 'text',
      text: '**shipping** times?',
    });
    expect(questionOf({ type: 'choice', text: 'Pick one', options: [] })).toEqual({
      kind: 'text',
      text: 'Pick one',
    });
    expect(
      questionOf({
        type: 'bloc',
        items: [
          { type: 'image', imageUrl: 'https://example.com/a.png' },
          { type: 'text', text: 'what is this' },
          { type: 'markdown', markdown: 'a parcel?' },
        ],
      }),
    ).toEqual({ kind: 'text', text: 'what is this\na parcel?' });
  });

  it('answers unsupported for images, files, locations, cards and blocs without text', () => {
    expect(questionOf({ type: 'image', imageUrl: 'https://example.com/a.png' })).toEqual({
      kind: 'unsupported',
      type: 'image',
    });
    expect(questionOf({ type: 'location', latitude: 1, longitude: 2 })).toEqual({
      kind: 'unsupported',
      type: 'location',
    });
    expect(questionOf({ type: 'card', title: 'Card', actions: [] }).kind).toBe('unsupported');
    expect(
      questionOf({ type: 'bloc', items: [{ type: 'audio', audioUrl: 'https://example.com/a.mp3' }] }).kind,
    ).toBe('unsupported');
  });
});

describe('truncateBytes', () => {
  it('keeps short texts and cuts long ones without splitting a character', () => {
    expect(truncateBytes('hello', 10)).toBe('hello');
    expect(truncateBytes('héllo', 2)).toBe('h');
    expect(truncateBytes('héllo', 3)).toBe('hé');
    expect(Buffer.byteLength(truncateBytes('€'.repeat(500), 1024))).toBeLessThanOrEqual(1024);
  });
});

describe('smallTalkOf', () => {
  it('recognises greetings, thanks and goodbyes in English and French, whatever the case and punctuation', () => {
    const smallTalk = {
      greeting: ['Hello!', '  hi there 👋 ', 'Hey bot', 'Bonjour'],
      thanks: ['Thank you very much.', 'merci beaucoup !'],
      goodbye: ['Bye!', 'Au revoir'],
    };
    for (const [kind, texts] of Object.entries(smallTalk))
      for (const text of texts) expect(smallTalkOf(text), text).toBe(kind);
  });

  it('treats anything more than small talk as a question', () => {
    expect(smallTalkOf('hello, how do refunds work?')).toBeUndefined();
    expect(smallTalkOf('thanks, and what about shipping?')).toBeUndefined();
    expect(smallTalkOf('hi-fi speakers')).toBeUndefined();
    expect(smallTalkOf('')).toBeUndefined();
  });
});

describe('smallTalkLanguage', () => {
  it('tells the language of a small-talk phrase that is not English, nothing otherwise', () => {
    expect(smallTalkLanguage('Bonjour !')).toBe('fr');
    expect(smallTalkLanguage('Merci beaucoup')).toBe('fr');
    expect(smallTalkLanguage('hola')).toBe('es');
    expect(smallTalkLanguage('Hello!')).toBeUndefined();
    expect(smallTalkLanguage('bonjour, où est ma commande ?')).toBeUndefined();
  });
});
