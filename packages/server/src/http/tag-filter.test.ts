import { parse } from 'node:querystring';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/errors.js';
import { parseTagFilter, type TagFilter } from './tag-filter.js';

/** Parses a raw query string the way Fastify's default parser does (repeated keys become arrays). */
function filterOf(query: string): TagFilter | undefined {
  return parseTagFilter({ ...parse(query) });
}

const json = (value: unknown) => `tags=${encodeURIComponent(JSON.stringify(value))}`;

function invalidQuery(query: string): ApiError {
  try {
    filterOf(query);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error(`parseTagFilter accepted ${query}`);
}

describe('parseTagFilter encodings', () => {
  const cases: Array<{ name: string; expected: TagFilter; dots: string; brackets: string; json: string }> = [
    {
      name: 'one value',
      expected: { team: { anyOf: ['sales'] } },
      dots: 'tags.team=sales',
      brackets: 'tags[team]=sales',
      json: json({ team: 'sales' }),
    },
    {
      name: 'any of several values',
      expected: { team: { anyOf: ['sales', 'ops'] } },
      dots: 'tags.team=sales&tags.team=ops',
      brackets: 'tags[team]=sales&tags[team]=ops',
      json: json({ team: ['sales', 'ops'] }),
    },
    {
      name: 'the in operator',
      expected: { team: { anyOf: ['sales', 'ops'] } },
      dots: 'tags.team.in=sales&tags.team.in=ops',
      brackets: 'tags[team][in]=sales&tags[team][in]=ops',
      json: json({ team: { in: ['sales', 'ops'] } }),
    },
    {
      name: 'a value to exclude',
      expected: { env: { noneOf: ['prod'] } },
      dots: 'tags.env.not=prod',
      brackets: 'tags[env][not]=prod',
      json: json({ env: { not: 'prod' } }),
    },
    {
      name: 'a tag that must be present',
      expected: { owner: { exists: true } },
      dots: 'tags.owner.exists=true',
      brackets: 'tags[owner][exists]=true',
      json: json({ owner: { exists: true } }),
    },
    {
      name: 'a tag that must be absent',
      expected: { legacy: { exists: false } },
      dots: 'tags.legacy.exists=false',
      brackets: 'tags[legacy][exists]=false',
      json: json({ legacy: { exists: false } }),
    },
    {
      name: 'conditions on several keys and several conditions on one key',
      expected: {
        team: { anyOf: ['sales', 'ops'] },
        env: { noneOf: ['prod', 'staging'], exists: true },
        legacy: { exists: false },
      },
      dots: 'tags.team=sales&tags.team=ops&tags.env.not=prod&tags.env.not=staging&tags.env.exists=true&tags.legacy.exists=false',
      brackets:
        'tags[team]=sales&tags[team]=ops&tags[env][not]=prod&tags[env][not]=staging&tags[env][exists]=true&tags[legacy][exists]=false',
      json: json({
        team: ['sales', 'ops'],
        env: { not: ['prod', 'staging'], exists: true },
        legacy: { exists: false },
      }),
    },
  ];

  for (const c of cases) {
    it(`reads ${c.name} the same from dots, brackets and JSON`, () => {
      expect(filterOf(c.dots)).toEqual(c.expected);
      expect(filterOf(c.brackets)).toEqual(c.expected);
      expect(filterOf(c.json)).toEqual(c.expected);
    });
  }

  it('accepts exists given as the string "true" or "false" in JSON', () => {
    expect(filterOf(json({ k: { exists: 'false' } }))).toEqual({ k: { exists: false } });
  });

  it('merges conditions given in different encodings in one query', () => {
    expect(filterOf(`tags.team=sales&tags[team]=ops&${json({ env: { not: 'prod' } })}`)).toEqual({
      team: { anyOf: ['sales', 'ops'] },
      env: { noneOf: ['prod'] },
    });
  });

  it('reads a dotted key as the tag of that name unless its last part is an operator', () => {
    expect(filterOf('tags.app.tier=gold')).toEqual({ 'app.tier': { anyOf: ['gold'] } });
    expect(filterOf('tags.app.tier.not=gold')).toEqual({ 'app.tier': { noneOf: ['gold'] } });
  });

  it('takes the tag value verbatim, including characters that are special in URLs', () => {
    expect(filterOf(`tags.name=${encodeURIComponent('a&b=c d')}`)).toEqual({ name: { anyOf: ['a&b=c d'] } });
  });

  it('answers undefined when the query has no tag condition', () => {
    expect(filterOf('pageSize=7&name=bot&sortField=name')).toBeUndefined();
    expect(filterOf('')).toBeUndefined();
    expect(filterOf(json({}))).toBeUndefined();
  });

  it('reads an object already parsed by the query parser like JSON', () => {
    expect(parseTagFilter({ tags: { team: 'sales', env: { not: 'prod' } } })).toEqual({
      team: { anyOf: ['sales'] },
      env: { noneOf: ['prod'] },
    });
  });
});

describe('parseTagFilter rejections', () => {
  const malformed: Array<[string, string]> = [
    ['JSON that does not parse', 'tags=%7Bteam'],
    ['JSON that is not an object', json(['sales'])],
    ['JSON null', json(null)],
    ['a number as a tag value', json({ team: 1 })],
    ['a list holding a non-string', json({ team: ['a', 2] })],
    ['an unknown operator in JSON', json({ team: { near: 'x' } })],
    ['exists that is not a boolean (dots)', 'tags.owner.exists=maybe'],
    ['exists that is not a boolean (brackets)', 'tags[owner][exists]=yes'],
    ['exists that is not a boolean (JSON)', json({ owner: { exists: 1 } })],
    ['an empty key (dots)', 'tags.=x'],
    ['an empty key (brackets)', 'tags[]=x'],
    ['brackets followed by text', 'tags[team]x=sales'],
    ['an unclosed bracket', 'tags[team=sales'],
  ];

  for (const [what, query] of malformed) {
    it(`rejects ${what} with 400 InvalidQuery`, () => {
      const error = invalidQuery(query);
      expect(error.type).toBe('InvalidQuery');
      expect(error.code).toBe(400);
      expect(error.metadata).toMatchObject({
        errors: [{ field: expect.any(String), message: expect.any(String) }],
      });
    });
  }

  it('names the field and explains malformed JSON', () => {
    const error = invalidQuery('tags=%7Bteam');
    expect(error.message).toBe('tags must be URL-encoded JSON, or use tags.<key>=<value>');
    expect(error.metadata).toEqual({ errors: [{ field: 'tags', message: 'malformed JSON' }] });
  });

  it('names the operator it does not know', () => {
    const error = invalidQuery(json({ team: { near: 'x' } }));
    expect(error.message).toBe('tags.team.near: unknown operator "near" (use not, in or exists)');
  });

  it('names the parameter whose exists value is wrong', () => {
    const error = invalidQuery('tags.owner.exists=maybe');
    expect(error.metadata).toEqual({
      errors: [{ field: 'tags.owner.exists', message: 'must be true or false' }],
    });
  });
});

describe('bracket operators', () => {
  it('rejects an unknown operator in the bracket form instead of reading it as a tag name', () => {
    expect(() => parseTagFilter({ 'tags[k][bogus]': 'x' })).toThrowError(/malformed tag filter/);
    expect(() => parseTagFilter({ 'tags[k][not][x]': 'x' })).toThrowError(/malformed tag filter/);
  });
});

describe('prototype keys in tag filters', () => {
  const polluting: Array<[string, string]> = [
    ['tags.__proto__=x', 'tags.__proto__'],
    ['tags.__proto__.exists=true', 'tags.__proto__.exists'],
    ['tags[__proto__]=x', 'tags[__proto__]'],
    ['tags[__proto__][not]=x', 'tags[__proto__][not]'],
    ['tags.constructor=x', 'tags.constructor'],
    ['tags[prototype]=x', 'tags[prototype]'],
    [`tags=${encodeURIComponent('{"__proto__":"x"}')}`, 'tags.__proto__'],
    [`tags=${encodeURIComponent('{"constructor":{"in":"x"}}')}`, 'tags.constructor.in'],
  ];
  for (const [query, field] of polluting) {
    it(`refuses ${decodeURIComponent(query)} with 400 InvalidQuery naming ${field}, leaving Object.prototype alone`, () => {
      const error = invalidQuery(query);
      expect([error.type, error.code]).toEqual(['InvalidQuery', 400]);
      expect(error.metadata).toEqual({
        errors: [{ field, message: expect.stringMatching(/reserved name/) }],
      });
      expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('anyOf');
      expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('noneOf');
      expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('exists');
      expect(({} as Record<string, unknown>).anyOf).toBeUndefined();
    });
  }

  it('reads a tag named like an inherited member (toString, hasOwnProperty) as an ordinary tag', () => {
    expect(filterOf('tags.toString=a&tags[hasOwnProperty]=b')).toEqual({
      toString: { anyOf: ['a'] },
      hasOwnProperty: { anyOf: ['b'] },
    });
  });
});
