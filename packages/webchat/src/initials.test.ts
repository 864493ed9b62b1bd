import { describe, expect, it } from 'vitest';
import { initials } from './initials.js';

/** The initials of each name of `expected` (its keys), to compare with it in one go. */
const initialsOf = (expected: Record<string, string>) =>
  Object.fromEntries(Object.keys(expected).map((name) => [name, initials(name)]));

describe("a person's initials (their avatar in the webchat)", () => {
  it('takes the first letters of the first and last words, upper-cased', () => {
    const expected = {
      'Dana Scully': 'DS',
      'ada mary lovelace': 'AL',
      'sam.smith': 'SS',
      'tess-ab12': 'TA',
      Zoë: 'Z',
      '  émile  ': 'É',
    };
    expect(initialsOf(expected)).toEqual(expected);
  });

  it('answers "?" for a name without a letter or digit', () => {
    const expected = { '': '?', ' - ': '?' };
    expect(initialsOf(expected)).toEqual(expected);
  });
});
