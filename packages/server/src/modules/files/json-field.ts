import { FORBIDDEN_KEY_MESSAGE, forbiddenKeyPath } from '@parley/protocol';
import { errors } from '../../errors/errors.js';
import { pathTooDeep } from '../../json-depth.js';

/** Deepest nesting of objects and arrays a free-form JSON field of the Files API may have (the field is level 1). */
export const MAX_JSON_FIELD_DEPTH = 32;
/** Most bytes a free-form JSON field of the Files API may take, serialized as JSON (UTF-8). */
export const MAX_JSON_FIELD_BYTES = 64 * 1024;

/** What a stored value nested deeper than the limit is answered as, in place of the deeper part. */
export const TRUNCATED_MARKER = `[nested deeper than ${MAX_JSON_FIELD_DEPTH} levels: not shown]`;

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => value !== null && typeof value === 'object';

/** The path (`metadata.a.0.b`, first segments only) to the first container deeper than `maxDepth`. */
function tooDeep(field: string, value: unknown, maxDepth: number): string | undefined {
  return pathTooDeep(value, maxDepth, [field])?.slice(0, 5).join('.');
}

/**
 * Checks a free-form JSON field before it is stored: no key named `__proto__`, `constructor` or `prototype`
 * at any depth, at most 32 levels of objects and arrays and 64 KB as JSON, else 400 InvalidPayload naming
 * the field. Answers the JSON text to store. Only `newKeys` (by default the whole value) are checked for
 * reserved names: an update that merges its changes into a stored value names only the changes, so a key
 * stored before such names were refused does not block every later update. Stands on its own, whatever
 * the HTTP layer checked before (the Chat API and other callers reach the service without it).
 */
export function checkJsonField(field: string, value: unknown, newKeys: unknown = value): string {
  const reserved = forbiddenKeyPath(newKeys, [field]);
  if (reserved !== undefined) {
    const named = reserved.join('.');
    throw errors.invalidPayload(`${named} ${FORBIDDEN_KEY_MESSAGE}`, [
      { field: named, message: FORBIDDEN_KEY_MESSAGE },
    ]);
  }
  const deep = tooDeep(field, value, MAX_JSON_FIELD_DEPTH);
  if (deep !== undefined) {
    const message = `must be nested at most ${MAX_JSON_FIELD_DEPTH} levels deep (objects and arrays); ${deep} is deeper`;
    throw errors.invalidPayload(`${field} ${message}`, [{ field, message }]);
  }
  const text = JSON.stringify(value);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_JSON_FIELD_BYTES) {
    const message = `must be at most ${MAX_JSON_FIELD_BYTES} bytes as JSON; it is ${bytes}`;
    throw errors.invalidPayload(`${field} ${message}`, [{ field, message }]);
  }
  return text;
}

/** A copy of `value` whose containers deeper than `maxDepth` are replaced by TRUNCATED_MARKER, built without recursion. */
function truncated(value: Container, maxDepth: number): Container {
  const root: Container = Array.isArray(value) ? [] : {};
  const stack: Array<{ from: Container; to: Container; depth: number }> = [
    { from: value, to: root, depth: 1 },
  ];
  while (stack.length > 0) {
    const { from, to, depth } = stack.pop() as (typeof stack)[number];
    for (const [key, child] of Object.entries(from)) {
      let out: unknown = child;
      if (isContainer(child)) {
        if (depth + 1 > maxDepth) out = TRUNCATED_MARKER;
        else {
          out = Array.isArray(child) ? [] : {};
          stack.push({ from: child, to: out as Container, depth: depth + 1 });
        }
      }
      // defineProperty: a stored "__proto__" key stays a plain key.
      Object.defineProperty(to, key, { value: out, enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
}

/**
 * The object a stored JSON object field holds, as stored (not truncated), e.g. to merge an update into: `{}`
 * when the text is no JSON object (or none is stored).
 */
export function storedObject(text: string | null): Record<string, unknown> {
  if (text === null) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  return isContainer(value) && !Array.isArray(value) ? value : {};
}

/**
 * Reads a stored JSON object field for an answer, never failing on what was stored: text that is not a JSON
 * object answers `{}`, and a value stored nested deeper than the limit (before the limit existed) answers
 * with its deeper parts replaced by TRUNCATED_MARKER, so one stored item can never break a listing.
 */
export function readJsonObject(text: string | null): Record<string, unknown> {
  const value = storedObject(text);
  if (tooDeep('', value, MAX_JSON_FIELD_DEPTH) === undefined) return value;
  return truncated(value, MAX_JSON_FIELD_DEPTH) as Record<string, unknown>;
}
