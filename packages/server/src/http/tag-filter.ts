import { FORBIDDEN_KEY_MESSAGE, isForbiddenKey } from '@parley/protocol';
import type { TagCondition, TagFilter } from '../db/tag-filter.js';
import { errors } from '../errors/errors.js';

export type { TagCondition, TagFilter };

const OPERATORS = new Set(['not', 'in', 'exists']);

function strings(value: unknown, where: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  for (const v of list) {
    if (typeof v !== 'string')
      throw errors.invalidQuery(`${where} must be a string or a list of strings`, [
        { field: where, message: 'must be strings' },
      ]);
  }
  return list as string[];
}

function bool(value: unknown, where: string): boolean {
  const v = Array.isArray(value) ? value[value.length - 1] : value;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw errors.invalidQuery(`${where} must be true or false`, [
    { field: where, message: 'must be true or false' },
  ]);
}

function addCondition(filter: TagFilter, key: string, op: string | undefined, value: unknown, where: string) {
  if (isForbiddenKey(key))
    throw errors.invalidQuery(`${where}: the tag ${JSON.stringify(key)} ${FORBIDDEN_KEY_MESSAGE}`, [
      { field: where, message: FORBIDDEN_KEY_MESSAGE },
    ]);
  const cond = Object.hasOwn(filter, key) ? (filter[key] as TagCondition) : {};
  filter[key] = cond;
  if (op === undefined || op === 'in') cond.anyOf = [...(cond.anyOf ?? []), ...strings(value, where)];
  else if (op === 'not') cond.noneOf = [...(cond.noneOf ?? []), ...strings(value, where)];
  else if (op === 'exists') cond.exists = bool(value, where);
  else
    throw errors.invalidQuery(`${where}: unknown operator "${op}" (use not, in or exists)`, [
      { field: where, message: 'unknown operator' },
    ]);
}

function fromObject(filter: TagFilter, object: unknown) {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    throw errors.invalidQuery('tags must be an object of tag conditions', [
      { field: 'tags', message: 'must be an object' },
    ]);
  }
  for (const [key, value] of Object.entries(object)) {
    const where = `tags.${key}`;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [op, v] of Object.entries(value)) addCondition(filter, key, op, v, `${where}.${op}`);
    } else {
      addCondition(filter, key, undefined, value, where);
    }
  }
}

/**
 * Reads a tag filter from a parsed query string in any of the three accepted encodings:
 * dots and repeated keys (`tags.k=v&tags.k.not=x`), brackets (`tags[k]=v`), or URL-encoded JSON (`tags={"k":"v"}`).
 * @example parseTagFilter({ 'tags.team': ['sales', 'ops'] }) // { team: { anyOf: ['sales', 'ops'] } }
 */
export function parseTagFilter(query: Record<string, unknown>): TagFilter | undefined {
  // No prototype: a tag named like an Object member (`toString`) is a key like any other here.
  const filter: TagFilter = Object.create(null);
  for (const [name, value] of Object.entries(query)) {
    if (name === 'tags') {
      const texts = Array.isArray(value) ? value : [value];
      for (const text of texts) {
        if (typeof text === 'object') {
          fromObject(filter, text);
          continue;
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(String(text));
        } catch {
          throw errors.invalidQuery('tags must be URL-encoded JSON, or use tags.<key>=<value>', [
            { field: 'tags', message: 'malformed JSON' },
          ]);
        }
        fromObject(filter, parsed);
      }
      continue;
    }
    let path: string[] | undefined;
    if (name.startsWith('tags.')) path = name.slice(5).split('.');
    else if (name.startsWith('tags[')) {
      const m = /^tags((?:\[[^\]]*\])+)$/.exec(name);
      if (!m?.[1])
        throw errors.invalidQuery(`malformed tag filter "${name}"`, [{ field: name, message: 'malformed' }]);
      path = [...m[1].matchAll(/\[([^\]]*)\]/g)].map((x) => x[1] ?? '');
      const [k, op, ...extra] = path;
      if (!k || extra.length > 0 || (op !== undefined && !OPERATORS.has(op))) {
        throw errors.invalidQuery(
          `malformed tag filter "${name}": use tags[key]=value or tags[key][not|in|exists]=…`,
          [{ field: name, message: 'malformed' }],
        );
      }
    }
    if (!path) continue;
    const [key, op, ...rest] = path;
    if (!key || rest.length > 0 || (op !== undefined && !OPERATORS.has(op))) {
      // A dotted key such as tags.a.b is the tag "a.b" unless its last part is an operator.
      const last = path[path.length - 1] ?? '';
      if (path.length > 1 && OPERATORS.has(last))
        addCondition(filter, path.slice(0, -1).join('.'), last, value, name);
      else if (path.join('.')) addCondition(filter, path.join('.'), undefined, value, name);
      else
        throw errors.invalidQuery(`malformed tag filter "${name}"`, [{ field: name, message: 'malformed' }]);
      continue;
    }
    addCondition(filter, key, op, value, name);
  }
  return Object.keys(filter).length > 0 ? filter : undefined;
}
