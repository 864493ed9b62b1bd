import { describe, expect, it } from 'vitest';
import { formatBytes } from './format.js';

describe('formatBytes: one way of writing sizes on every Console page (files, knowledge, usage, audit)', () => {
  it.each([
    [null, '—'],
    [0, '0 bytes'],
    [1, '1 byte'],
    [999, '999 bytes'],
    [1000, '1 KB'],
    [1234, '1.2 KB'],
    [12_345, '12 KB'],
    [1_234_567, '1.2 MB'],
    [5_000_000_000, '5 GB'],
  ])('%s bytes read %s', (bytes, words) => {
    expect(formatBytes(bytes)).toBe(words);
  });
});
