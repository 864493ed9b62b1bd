import { describe, expect, it } from 'vitest';
import { initials } from './initials.js';

describe("a person's initials (their avatar in the webchat)", () => {
  it('takes the first letters of the first and last words, upper-cased', () => {
    expect(initials('Dana Scully')).toBe('DS');
    expect(initials('ada mary lovelace')).toBe('AL');
    expect(initials('sam.smith')).toBe('SS');
    expect(initials('tess-ab12')).toBe('TA');
    expect(initials('Zoë')).toBe('Z');
    expect(initials('  émile  ')).toBe('É');
  });

  it('answers "?" for a name without a letter or digit', () => {
    expect(initials('')).toBe('?');
    expect(initials(' - ')).toBe('?');
  });
});
