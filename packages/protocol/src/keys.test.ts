import { describe, expect, it } from 'vitest';
import { forbiddenKeyPath, isForbiddenKey } from './keys.js';

describe('forbidden keys', () => {
  it('are __proto__, constructor and prototype, and nothing else', () => {
    expect(['__proto__', 'constructor', 'prototype'].map(isForbiddenKey)).toEqual([true, true, true]);
    expect(['proto', '__proto', 'Constructor', 'toString', ''].map(isForbiddenKey)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('are found at any depth, through arrays, with their path', () => {
    expect(forbiddenKeyPath(JSON.parse('{"a":{"__proto__":{"x":1}}}'))).toEqual(['a', '__proto__']);
    expect(forbiddenKeyPath({ a: [1, { b: { constructor: 1 } }] }, ['metadata'])).toEqual([
      'metadata',
      'a',
      '1',
      'b',
      'constructor',
    ]);
    expect(forbiddenKeyPath({ prototype: 1 })).toEqual(['prototype']);
  });

  it('are not found in values, in array indexes or in ordinary keys', () => {
    expect(forbiddenKeyPath({ a: '__proto__', b: ['constructor'], c: { proto: 1 } })).toBeUndefined();
    expect(forbiddenKeyPath(['__proto__', null, 3])).toBeUndefined();
    expect(forbiddenKeyPath('constructor')).toBeUndefined();
  });
});
