import type { FastifyInstance } from 'fastify';
import { errors } from '../errors/errors.js';

/** Deepest nesting of objects and arrays a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of `{`/`[` in JSON text, counted without parsing (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}

/** The path (`a.b.0.c`) to the first value nested deeper than `maxDepth`, walked without recursion. */
export function pathTooDeep(value: unknown, maxDepth: number): string | undefined {
  const stack: Array<{ value: unknown; path: string[]; depth: number }> = [{ value, path: [], depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop() as (typeof stack)[number];
    if (item.value === null || typeof item.value !== 'object') continue;
    const depth = item.depth + 1;
    if (depth > maxDepth) return item.path.join('.') || '(body)';
    for (const [key, child] of Object.entries(item.value)) {
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, path: [...item.path, key], depth });
    }
  }
  return undefined;
}

/**
 * JSON bodies as Fastify parses them (prototype poisoning refused), but never nested deeper than
 * `maxDepth`: such a body answers 400 InvalidPayload naming the field where it goes too deep, before
 * anything is stored (deeply nested values would otherwise break every later reader of them).
 */
export function installJsonBodyParser(app: FastifyInstance, maxDepth = MAX_JSON_DEPTH): void {
  const parse = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (jsonDepth(text) > maxDepth) {
      let field = '(body)';
      try {
        field = pathTooDeep(JSON.parse(text), maxDepth)?.split('.').slice(0, 4).join('.') ?? field;
      } catch {
        // Not even JSON: the default parser says so below.
      }
      const message = `nested deeper than ${maxDepth} levels of objects and arrays`;
      done(errors.invalidPayload(`The body's ${field} is ${message}`, [{ field, message }]), undefined);
      return;
    }
    parse(req, text, done);
  });
}
