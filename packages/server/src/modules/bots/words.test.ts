import { readdirSync, readFileSync } from 'node:fs';
import { WEBCHAT_LOCALES } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { answerTexts, BOT_WORD_LANGUAGES, builtInWords, ENGLISH_WORDS, tagChain, wordsFor } from './words.js';

// The bot's built-in words, one JSON catalog a language (issue #38, item 3), and a bot's texts per language.
const folder = new URL('./words/', import.meta.url);
const catalog = (tag: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`${tag}.json`, folder), 'utf8'));
const placeholders = (text: string) => [...text.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort();

describe("the bot's built-in words (modules/bots/words)", () => {
  it('has one catalog for each language the webchat ships in, and no other', () => {
    const files = readdirSync(folder).map((name) => name.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...WEBCHAT_LOCALES].sort());
    expect([...BOT_WORD_LANGUAGES].sort()).toEqual([...WEBCHAT_LOCALES].sort());
  });

  it.each(WEBCHAT_LOCALES.filter((tag) => tag !== 'en'))(
    '%s has every key of English, no other, each translated and keeping its placeholders',
    (tag) => {
      const texts = catalog(tag);
      expect(Object.keys(texts).sort()).toEqual(Object.keys(catalog('en')).sort());
      for (const [key, text] of Object.entries(catalog('en'))) {
        expect(texts[key]?.trim(), `${tag}.${key}`).not.toBe('');
        expect(texts[key], `${tag}.${key}`).not.toBe(text);
        expect(placeholders(texts[key] ?? ''), `${tag}.${key}`).toEqual(placeholders(text));
      }
    },
  );

  it('falls back by the chain fr-CA → fr → en', () => {
    expect(tagChain('fr-ca')).toEqual(['fr-CA', 'fr']);
    expect(tagChain('zh-Hant-TW')).toEqual(['zh-Hant-TW', 'zh-Hant', 'zh']);
    expect(builtInWords('fr-CA').intro).toBe(catalog('fr').intro);
    expect(builtInWords('ko').intro).toBe(ENGLISH_WORDS.intro);
    expect(builtInWords(undefined)).toBe(ENGLISH_WORDS);
  });

  it("layers a bot's texts: the region's, the language's, the default language's top level, the built-in ones", () => {
    const replies = {
      language: 'fr',
      intro: 'Voici :',
      notFound: 'Rien.',
      locales: { 'fr-CA': { notFound: 'Rien pantoute.' }, de: { clarify: 'Welches?' } },
    };
    expect(wordsFor(replies, 'fr-CA').words).toMatchObject({
      intro: 'Voici :',
      notFound: 'Rien pantoute.',
      clarify: catalog('fr').clarify,
    });
    expect(wordsFor(replies, 'fr').own).toEqual({ intro: 'Voici :', notFound: 'Rien.' });
    expect(wordsFor(replies, 'de').words).toMatchObject({
      intro: catalog('de').intro,
      clarify: 'Welches?',
      notFound: catalog('de').notFound,
    });
    // No language, or one without built-in words: the default language's.
    expect(wordsFor(replies, undefined).words.notFound).toBe('Rien.');
    expect(wordsFor(replies, 'ko').language).toBe('fr');
    // What a knowledge answer is handed: only what differs from the English defaults.
    expect(answerTexts({}, 'en')).toEqual({});
    expect(answerTexts({}, undefined)).toEqual({});
    expect(answerTexts({}, 'ja')).toEqual({
      intro: catalog('ja').intro,
      notFound: catalog('ja').notFound,
      clarify: catalog('ja').clarify,
    });
  });
});
