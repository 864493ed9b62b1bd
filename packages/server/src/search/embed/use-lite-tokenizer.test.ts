import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveUseLiteFiles } from './use-lite-model.js';
import {
  USE_LITE_MAX_INPUT_CHARS,
  USE_LITE_MAX_TOKENS,
  UseLiteTokenizer,
  type VocabularyEntry,
} from './use-lite-tokenizer.js';

const vocabulary = JSON.parse(
  readFileSync(path.join(resolveUseLiteFiles().modelDir, 'vocab.json'), 'utf8'),
) as VocabularyEntry[];
const tokenizer = new UseLiteTokenizer(vocabulary);

describe('UseLiteTokenizer', () => {
  // Expected ids computed with the reference tokenizer of @energetic-ai/embeddings@0.2.0.
  it.each([
    ['How do I reset my password?', [728, 64, 16, 137, 1383, 69, 5969, 54]],
    ['Steps to recover a forgotten login secret', [6427, 7, 10, 4349, 11, 7478, 3063, 97, 2816]],
    ['Héllo  wörld ﬁne', [341, 1133, 120, 102, 30, 848, 6781, 93, 2706, 839]],
    ['日本語 テキスト', [30, 0, 30, 0]],
    ['x\u{1F600}\u{1F600}y', [649, 0, 48]],
  ])('encodes %j as the reference tokenizer does', (text, ids) => {
    expect(tokenizer.encode(text)).toEqual(ids);
  });

  it('gives no tokens for an empty text', () => {
    expect(tokenizer.encode('')).toEqual([]);
  });

  it('keeps only the first 128 tokens, or as many as asked', () => {
    const long = Array.from({ length: 500 }, (_, i) => `w${i}`).join(' ');
    const all = tokenizer.encode(long, Number.POSITIVE_INFINITY);
    expect(all.length).toBeGreaterThan(USE_LITE_MAX_TOKENS);
    expect(tokenizer.encode(long)).toEqual(all.slice(0, USE_LITE_MAX_TOKENS));
    expect(tokenizer.encode(long, 5)).toEqual(all.slice(0, 5));
  });

  it('tokenizes only the first 16,384 code points of a megabyte of text (work is bounded)', () => {
    const huge = 'lorem ipsum dolor sit amet '.repeat(40_000);
    expect(tokenizer.encode(huge)).toHaveLength(USE_LITE_MAX_TOKENS);
    // Asked for every token, it answers those of the prefix (the separator it starts with, then the text) and
    // no more: the rest of the megabyte, some 200,000 tokens, is never looked at.
    const all = tokenizer.encode(huge, Number.POSITIVE_INFINITY);
    expect(all).toEqual(
      tokenizer.encode(huge.slice(0, USE_LITE_MAX_INPUT_CHARS - 1), Number.POSITIVE_INFINITY),
    );
    expect(all.length).toBeLessThan(USE_LITE_MAX_INPUT_CHARS);
  });
});
