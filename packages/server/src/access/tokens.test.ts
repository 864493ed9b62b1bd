import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashToken, newTokenValue, sameHash } from './tokens.js';

describe('token hashes (the stored form of every token)', () => {
  it('is the SHA-256 of the UTF-8 value in hex, as stored by every earlier version', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (const value of [newTokenValue('bak'), newTokenValue('pat'), 'bäk_ünïcode ✓', ''])
      expect(hashToken(value)).toBe(createHash('sha256').update(value, 'utf8').digest('hex'));
  });

  it('compares hashes in constant time, refusing different or malformed ones', () => {
    const hash = hashToken('bak_one');
    expect(sameHash(hash, hashToken('bak_one'))).toBe(true);
    expect(sameHash(hash, hashToken('bak_two'))).toBe(false);
    expect(sameHash(hash, hash.slice(0, 32))).toBe(false);
    expect(sameHash(hash, hash.toUpperCase())).toBe(false);
    // One character off anywhere, first or last, is a different hash.
    expect(sameHash(hash, `x${hash.slice(1)}`)).toBe(false);
    expect(sameHash(hash, `${hash.slice(0, -1)}x`)).toBe(false);
    expect(sameHash('', '')).toBe(true);
  });
});
