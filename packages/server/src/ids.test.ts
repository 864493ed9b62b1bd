import { decodeTime } from 'ulidx';
import { describe, expect, it } from 'vitest';
import { newId, newRequestId, newSecretId, nextId } from './ids.js';

describe('newSecretId', () => {
  it('makes time-sortable ULIDs whose random part owes nothing to the ids made before', () => {
    const before = Date.now();
    const ids = Array.from({ length: 500 }, () => newSecretId('msg'));
    for (const id of ids) {
      expect(id).toMatch(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(decodeTime(id.slice(4))).toBeGreaterThanOrEqual(before);
      expect(decodeTime(id.slice(4))).toBeLessThanOrEqual(Date.now());
    }
    expect(new Set(ids).size).toBe(ids.length);
    // newId within one millisecond is the previous id plus one; these never are.
    const next = new Set(ids.map(nextId));
    expect(ids.filter((id) => next.has(id))).toEqual([]);
    const monotonic = [newId('msg'), newId('msg')];
    if (monotonic[0]?.slice(0, 14) === monotonic[1]?.slice(0, 14))
      expect(nextId(monotonic[0] as string)).toBe(monotonic[1]);
  });
});

describe('newId', () => {
  it('makes unique ULIDs in the order they are made, from fresh random digits at each millisecond', () => {
    // 3,000 ids draw 48,000 random digits: the pooled random numbers are refilled many times.
    const ids = Array.from({ length: 3000 }, () => newId('file'));
    for (const id of ids) expect(id).toMatch(/^file_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // Each new millisecond starts from fresh random digits.
    const fresh: string[] = [];
    for (let i = 0; i < 12; i++) {
      const now = Date.now();
      while (Date.now() === now) {} // the next millisecond
      fresh.push(newId('file').slice(15));
    }
    expect(new Set(fresh).size).toBe(12);
  });
});

describe('nextId', () => {
  it('answers the id that sorts right after, carrying over', () => {
    expect(nextId('msg_01K86ZZ')).toBe('msg_01K8700');
    expect(nextId('msg_01K8600')).toBe('msg_01K8601');
    const id = newSecretId('msg');
    expect(nextId(id) > id).toBe(true);
    expect(() => nextId('msg_ZZ')).toThrow(/no id after/);
  });
});

describe('random digits drawn from the pool', () => {
  it('fills every digit of a secret id from its own 5 random bits, across refills of the pool', () => {
    // 2,000 ids draw 20,000 bytes: the 4 KiB pool is refilled several times.
    const randoms = Array.from({ length: 2000 }, () => newSecretId('msg').slice(14));
    expect(new Set(randoms).size).toBe(randoms.length);
    for (let position = 0; position < 16; position++) {
      const seen = new Set(randoms.map((r) => r[position]));
      // Each digit is uniform over 32 values: 2,000 draws miss one with probability ~32·(31/32)^2000 ≈ 0.
      expect(seen.size, `digit ${position}`).toBe(32);
    }
  });

  it('makes request ids of 80 random bits in hex, never twice', () => {
    const ids = Array.from({ length: 1500 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const nibbles = new Set(ids.flatMap((id) => [...id.slice(4)]));
    expect(nibbles.size).toBe(16);
  });
});
