import { describe, expect, it } from 'vitest';
import { percentOfBest, relativeStrengths } from './scores.js';

describe('relative strengths of search scores', () => {
  it('reads positive scores as a share of the best', () => {
    expect(relativeStrengths([0.032, 0.016, 0.008])).toEqual([1, 0.5, 0.25]);
  });

  it('reads negative scores, best first, whichever way they run, never as negative numbers', () => {
    expect(relativeStrengths([-2, -4, -8])).toEqual([1, 0.5, 0.25]);
    expect(relativeStrengths([-8, -4])).toEqual([1, 0.5]);
  });

  it('spreads mixed signs between a sliver and the best, and reads one score or equal scores as the best', () => {
    expect(relativeStrengths([1, 0, -1])).toEqual([1, 0.525, 0.05]);
    expect(relativeStrengths([0.3])).toEqual([1]);
    expect(relativeStrengths([0, 0])).toEqual([1, 1]);
    expect(relativeStrengths([])).toEqual([]);
  });

  it('says a strength as a percentage', () => {
    expect(percentOfBest(0.254)).toBe('25%');
  });
});
