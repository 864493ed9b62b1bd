import { describe, expect, it } from 'vitest';
import { isTextWithoutCharset } from './media-type.js';
import { watchUtf8 } from './utf8-check.js';

/** Reads `chunks` through the watcher; answers whether they were found valid and that they passed unchanged. */
async function check(chunks: Uint8Array[]): Promise<{ valid: boolean; same: boolean }> {
  const watch = watchUtf8(
    (async function* () {
      yield* chunks;
    })(),
  );
  const out: Uint8Array[] = [];
  for await (const chunk of watch.body) out.push(chunk);
  return { valid: watch.valid(), same: Buffer.concat(out).equals(Buffer.concat(chunks)) };
}

/** `bytes` cut after every `size` bytes. */
function cut(bytes: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

describe('watchUtf8', () => {
  const text = Buffer.from('Café, naïve 日本語 😀 and ASCII\n'.repeat(50));

  it.each([1, 2, 3, 5, 7, 64, 4096])('finds UTF-8 valid however it is cut (%i-byte chunks)', async (size) => {
    expect(await check(cut(text, size))).toEqual({ valid: true, same: true });
  });

  it.each([
    ['Latin-1 é', Buffer.from('Caf\xe9 au lait', 'latin1')],
    ['a lone continuation byte', Buffer.from([0x61, 0x80, 0x62])],
    ['an overlong encoding', Buffer.from([0xc0, 0xaf])],
    ['a truncated sequence at the end', Buffer.concat([text, Buffer.from([0xe6, 0x97])])],
    ['a UTF-16 surrogate', Buffer.from([0xed, 0xa0, 0x80])],
  ])('finds %s invalid, in one chunk or cut in bytes', async (_name, bytes) => {
    expect(await check([bytes])).toEqual({ valid: false, same: true });
    expect(await check(cut(bytes, 1))).toEqual({ valid: false, same: true });
  });

  it('says nothing valid about a body that failed before its end', async () => {
    const watch = watchUtf8(
      (async function* () {
        yield Buffer.from('Café');
        throw new Error('connection reset');
      })(),
    );
    await expect(
      (async () => {
        for await (const _ of watch.body);
      })(),
    ).rejects.toThrow('connection reset');
    expect(watch.valid()).toBe(false);
  });
});

describe('isTextWithoutCharset', () => {
  it.each([
    ['text/plain', true],
    ['text/markdown', true],
    ['Text/CSV; header=present', true],
    ['text/plain; charset=utf-8', false],
    ['text/plain;CHARSET="iso-8859-1"', false],
    ['application/json', false],
    ['application/octet-stream', false],
  ])('%s → %s', (type, expected) => {
    expect(isTextWithoutCharset(type)).toBe(expected);
  });
});
