import { describe, expect, it } from 'vitest';
import { compareHits, DEFAULT_DENSE_WEIGHT, fuse, keepInTop, type ScoredHit, zScores } from './rank.js';

const hit = (passageId: string, score: number, fileId = `f-${passageId}`): ScoredHit => ({
  passageId,
  fileId,
  score,
});
const ids = (hits: { passageId: string }[]) => hits.map((h) => h.passageId);

describe('zScores', () => {
  it('centres scores on the mean in units of the standard deviation', () => {
    const z = zScores([1, 2, 3]);
    expect(z[1]).toBe(0);
    expect(z[0]).toBeCloseTo(-Math.sqrt(1.5), 12);
    expect(z[2]).toBeCloseTo(Math.sqrt(1.5), 12);
  });

  it('gives 0 to every score when they do not vary, and nothing for an empty list', () => {
    expect(zScores([4.2])).toEqual([0]);
    expect(zScores([7, 7, 7])).toEqual([0, 0, 0]);
    expect(zScores([])).toEqual([]);
  });

  it('does not depend on the scale or offset of the scores', () => {
    const a = zScores([0.1, 0.5, 0.9, 0.2]);
    const b = zScores([110, 150, 190, 120]);
    for (let i = 0; i < a.length; i++) expect(a[i]).toBeCloseTo(b[i] as number, 9);
  });
});

describe('fuse', () => {
  const lexical = [hit('a', 12), hit('b', 9), hit('c', 8.5), hit('d', 2)];
  const dense = [hit('c', 0.82), hit('e', 0.8), hit('a', 0.41), hit('b', 0.4)];

  it('uses a dense weight of 0.15 by default', () => {
    expect(DEFAULT_DENSE_WEIGHT).toBe(0.15);
    expect(fuse(lexical, dense)).toEqual(fuse(lexical, dense, { mode: 'hybrid', denseWeight: 0.15 }));
  });

  it('in lexical mode keeps the lexical order and scores and ignores dense hits', () => {
    const out = fuse(lexical, dense, { mode: 'lexical' });
    expect(ids(out)).toEqual(['a', 'b', 'c', 'd']);
    expect(out[0]).toEqual({ passageId: 'a', fileId: 'f-a', score: 12, lexicalScore: 12 });
  });

  it('in semantic mode keeps the dense order and scores and ignores lexical hits', () => {
    const out = fuse(lexical, dense, { mode: 'semantic' });
    expect(ids(out)).toEqual(['c', 'e', 'a', 'b']);
    expect(out[1]).toEqual({ passageId: 'e', fileId: 'f-e', score: 0.8, denseScore: 0.8 });
  });

  it('in hybrid mode scores (1 − w)·z_lexical + w·z_dense, a missing passage taking the list’s lowest z', () => {
    const w = 0.3;
    const out = fuse(lexical, dense, { denseWeight: w });
    const zl = zScores(lexical.map((h) => h.score));
    const zd = zScores(dense.map((h) => h.score));
    const expected = new Map([
      ['a', (1 - w) * (zl[0] as number) + w * (zd[2] as number)],
      ['b', (1 - w) * (zl[1] as number) + w * (zd[3] as number)],
      ['c', (1 - w) * (zl[2] as number) + w * (zd[0] as number)],
      ['d', (1 - w) * (zl[3] as number) + w * Math.min(...zd)],
      ['e', (1 - w) * Math.min(...zl) + w * (zd[1] as number)],
    ]);
    expect(out).toHaveLength(5);
    for (const h of out) expect(h.score).toBeCloseTo(expected.get(h.passageId) as number, 12);
    expect(out.find((h) => h.passageId === 'c')).toMatchObject({ lexicalScore: 8.5, denseScore: 0.82 });
    expect(out.find((h) => h.passageId === 'e')).not.toHaveProperty('lexicalScore');
    expect(out.find((h) => h.passageId === 'd')).not.toHaveProperty('denseScore');
  });

  it('with weight 0 orders the lexical hits as lexical mode does', () => {
    expect(ids(fuse(lexical, dense, { denseWeight: 0 })).slice(0, 4)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('with weight 1 orders the dense hits as semantic mode does', () => {
    expect(ids(fuse(lexical, dense, { denseWeight: 1 })).slice(0, 4)).toEqual(['c', 'e', 'a', 'b']);
  });

  it('at the default weight a small dense lead does not overturn a clear lexical lead', () => {
    const out = fuse([hit('x', 20), hit('y', 5), hit('z', 4)], [hit('y', 0.9), hit('x', 0.1), hit('z', 0.5)]);
    expect(ids(out)[0]).toBe('x');
  });

  it('lets the dense list decide between passages the lexical list scores alike', () => {
    const out = fuse([hit('p', 3), hit('q', 3), hit('r', 1)], [hit('q', 0.9), hit('p', 0.2), hit('r', 0.1)]);
    expect(ids(out)).toEqual(['q', 'p', 'r']);
  });

  it('answers the lexical order when there are no dense hits, and the dense order when no lexical ones', () => {
    expect(ids(fuse(lexical, []))).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(fuse([], dense))).toEqual(['c', 'e', 'a', 'b']);
    expect(fuse([], [])).toEqual([]);
  });

  it('breaks ties by passage id, whatever the input order', () => {
    const one = fuse([hit('m', 1), hit('k', 1), hit('l', 1)], [], { mode: 'lexical' });
    const two = fuse([hit('l', 1), hit('m', 1), hit('k', 1)], [], { mode: 'lexical' });
    expect(ids(one)).toEqual(['k', 'l', 'm']);
    expect(two).toEqual(one);
    const tiedHybrid = fuse([hit('b2', 5), hit('b1', 5)], [hit('b1', 0.5), hit('b2', 0.5)]);
    expect(ids(tiedHybrid)).toEqual(['b1', 'b2']);
  });

  it('gives the same answer for shuffled inputs', () => {
    const shuffled = fuse([...lexical].reverse(), [dense[2], dense[0], dense[3], dense[1]] as ScoredHit[]);
    expect(shuffled).toEqual(fuse(lexical, dense));
  });

  it('keeps one hit per passage, its best score, and skips scores that are not finite', () => {
    const out = fuse([hit('a', 1), hit('a', 3), hit('b', Number.NaN), hit('c', 2)], [], { mode: 'lexical' });
    expect(out.map((h) => [h.passageId, h.score])).toEqual([
      ['a', 3],
      ['c', 2],
    ]);
  });

  it('answers at most limit hits', () => {
    expect(fuse(lexical, dense, { limit: 2 })).toHaveLength(2);
    expect(fuse(lexical, dense, { limit: 0 })).toEqual([]);
  });

  it('refuses a dense weight outside 0…1', () => {
    expect(() => fuse(lexical, dense, { denseWeight: 1.5 })).toThrow(RangeError);
    expect(() => fuse(lexical, dense, { denseWeight: -0.1 })).toThrow(RangeError);
    expect(() => fuse(lexical, dense, { denseWeight: Number.NaN })).toThrow(RangeError);
  });

  it('orders hits best first with compareHits', () => {
    expect([hit('b', 1), hit('a', 1), hit('c', 2)].sort(compareHits).map((h) => h.passageId)).toEqual([
      'c',
      'a',
      'b',
    ]);
  });
});

describe('keepInTop', () => {
  const ranked = ['a', 'b', 'c', 'd', 'e'].map((id, i) => hit(id, 10 - i));
  const ids = (hits: { passageId: string }[]) => hits.map((h) => h.passageId);

  it('moves a hit from below into the last place of the top n, the others keeping their order', () => {
    expect(ids(keepInTop(ranked, [hit('e', 6)], 3))).toEqual(['a', 'b', 'e', 'c', 'd']);
  });

  it('leaves the order alone when the hits to keep are already in the top n, or there are none', () => {
    expect(ids(keepInTop(ranked, [hit('b', 9)], 3))).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(ids(keepInTop(ranked, [], 3))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('keeps several, at most n, and inserts one the ranked list did not hold', () => {
    expect(ids(keepInTop(ranked, [hit('d', 7), hit('x', 1)], 3))).toEqual(['a', 'd', 'x', 'b', 'c', 'e']);
    // Four to keep, three places: the first three given.
    expect(ids(keepInTop(ranked, [hit('e', 6), hit('d', 7), hit('c', 8), hit('x', 1)], 3))).toEqual([
      'c',
      'd',
      'e',
      'a',
      'b',
    ]);
  });

  it('counts a hit to keep once, and works on a list shorter than n', () => {
    expect(ids(keepInTop([hit('a', 2)], [hit('z', 1), hit('z', 1)], 3))).toEqual(['a', 'z']);
  });
});
