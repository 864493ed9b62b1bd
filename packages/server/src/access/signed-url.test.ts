import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { urlSigner } from './signed-url.js';

describe('urlSigner', () => {
  const secret = randomBytes(32);
  let now = Date.parse('2026-01-01T00:00:00Z');
  const signer = urlSigner(secret, () => new Date(now));

  it('accepts a URL it signed until it expires, then calls it expired', () => {
    const q = signer.sign('/v1/files/f1/content', { v: '1' }, 60_000);
    expect(Number(q.expires)).toBe(now + 60_000);
    expect(signer.check('/v1/files/f1/content', { v: '1', ...q })).toBe('valid');
    now += 60_001;
    expect(signer.check('/v1/files/f1/content', { v: '1', ...q })).toBe('expired');
  });

  it('gives a different URL on every call', () => {
    const a = signer.sign('/p', {}, 1000);
    const b = signer.sign('/p', {}, 1000);
    expect(a.signature).not.toBe(b.signature);
  });

  it('calls a tampered path, parameter, expiry or signature invalid', () => {
    const q = signer.sign('/v1/files/f1/content', { v: '1' }, 60_000);
    expect(signer.check('/v1/files/f2/content', { v: '1', ...q })).toBe('invalid');
    expect(signer.check('/v1/files/f1/content', { v: '2', ...q })).toBe('invalid');
    expect(
      signer.check('/v1/files/f1/content', { v: '1', ...q, expires: String(Number(q.expires) + 1) }),
    ).toBe('invalid');
    expect(
      signer.check('/v1/files/f1/content', {
        v: '1',
        ...q,
        signature: `${q.signature.slice(0, -1)}${q.signature.endsWith('A') ? 'B' : 'A'}`,
      }),
    ).toBe('invalid');
    expect(signer.check('/v1/files/f1/content', { v: '1' })).toBe('invalid');
  });

  it('does not accept a URL signed with another secret', () => {
    const other = urlSigner(randomBytes(32), () => new Date(now));
    const q = other.sign('/p', {}, 1000);
    expect(signer.check('/p', { ...q })).toBe('invalid');
  });

  it('refuses a short secret', () => {
    expect(() => urlSigner(randomBytes(16))).toThrow(/32 bytes/);
  });
});
