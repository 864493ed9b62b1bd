import { parse } from 'node:querystring';
import type { TagFilter } from '@parley/protocol/operations/io/admin';
import { describe, expect, it } from 'vitest';
import { parseTagFilter } from '../../server/src/http/tag-filter.js';
import { encodeQuery } from './query.js';

describe('encodeQuery', () => {
  it('writes nested tag filters with dots and repeated keys, and lists as repeated keys', () => {
    expect(
      decodeURIComponent(
        encodeQuery({ tags: { category: ['Sales', 'Ops'], source: { not: 'web' } }, ids: ['a', 'b'] }),
      ),
    ).toBe('tags.category=Sales&tags.category=Ops&tags.source.not=web&ids=a&ids=b');
    expect(encodeQuery({ tags: { team: { not: ['x', 'y'], exists: true } } })).toBe(
      'tags.team.not=x&tags.team.not=y&tags.team.exists=true',
    );
  });

  it('writes scalars as text, dates as ISO 8601, and leaves out undefined and null', () => {
    expect(
      encodeQuery({
        pageSize: 20,
        dev: false,
        timeStart: new Date('2026-01-02T03:04:05.000Z'),
        nextToken: undefined,
        name: null,
      }),
    ).toBe('pageSize=20&dev=false&timeStart=2026-01-02T03%3A04%3A05.000Z');
    expect(encodeQuery({})).toBe('');
    expect(encodeQuery(undefined)).toBe('');
  });

  it('escapes reserved characters in keys and values', () => {
    const q = encodeQuery({ name: 'a&b=c d', tags: { 'k/1': 'é?' } });
    expect(new URLSearchParams(q).get('name')).toBe('a&b=c d');
    expect(new URLSearchParams(q).get('tags.k/1')).toBe('é?');
  });

  it('refuses lists of objects or lists', () => {
    expect(() => encodeQuery({ ids: [['a']] })).toThrow(TypeError);
    expect(() => encodeQuery({ ids: [{ a: 'b' }] })).toThrow(TypeError);
  });

  it("reads back into the same filter with the server's parser", () => {
    const cases: Array<[TagFilter, unknown]> = [
      [{ team: 'a' }, { team: { anyOf: ['a'] } }],
      [{ team: ['a', 'b'] }, { team: { anyOf: ['a', 'b'] } }],
      [{ team: { in: ['a', 'b'] } }, { team: { anyOf: ['a', 'b'] } }],
      [{ team: { not: 'x' } }, { team: { noneOf: ['x'] } }],
      [
        { team: { exists: false }, env: 'prod' },
        { team: { exists: false }, env: { anyOf: ['prod'] } },
      ],
      [{ 'a.b': 'v' }, { 'a.b': { anyOf: ['v'] } }],
    ];
    for (const [tags, expected] of cases) {
      expect(parseTagFilter(parse(encodeQuery({ tags }))), JSON.stringify(tags)).toEqual(expected);
    }
  });
});
