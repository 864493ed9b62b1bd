import { describe, expect, it } from 'vitest';
import {
  CURRENT_PARAMS,
  currentParams,
  hashPassword,
  needsRehash,
  TEST_PARAMS,
  useTestPasswordCost,
  verifyPassword,
} from './passwords.js';

describe('password hashing cost', () => {
  it('hashes at N = 2^15, r = 8, p = 1 in production, and a test run (the setup file) at the test cost', () => {
    expect(CURRENT_PARAMS).toEqual({ ln: 15, r: 8, p: 1 });
    expect(currentParams()).toEqual(TEST_PARAMS);
    expect(TEST_PARAMS.ln).toBeLessThan(CURRENT_PARAMS.ln);
  });

  it('verifies a hash of either cost, since each hash carries its parameters', async () => {
    const production = await hashPassword('correct horse battery', CURRENT_PARAMS);
    const test = await hashPassword('correct horse battery');
    expect(production).toMatch(/^scrypt\$ln=15,r=8,p=1\$/);
    expect(test).toMatch(/^scrypt\$ln=4,r=8,p=1\$/);
    for (const stored of [production, test]) {
      expect(await verifyPassword('correct horse battery', stored)).toBe(true);
      expect(await verifyPassword('correct horse batterz', stored)).toBe(false);
    }
    expect(needsRehash(production)).toBe(false);
    expect(needsRehash('scrypt$ln=3,r=8,p=1$c2FsdA$a2V5')).toBe(true);
  });

  it('refuses the test cost outside a Vitest worker', () => {
    const vitest = process.env.VITEST;
    delete process.env.VITEST;
    try {
      expect(() => useTestPasswordCost()).toThrow('useTestPasswordCost() is for test runs only');
    } finally {
      process.env.VITEST = vitest;
    }
    expect(() => useTestPasswordCost()).not.toThrow();
  });
});
