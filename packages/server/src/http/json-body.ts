import type { FastifyInstance } from 'fastify';
import { errors } from '../errors/errors.js';
import { jsonDepth, pathTooDeep } from '../json-depth.js';

/** Deepest nesting of objects and arrays a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

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
        const path = pathTooDeep(JSON.parse(text), maxDepth);
        if (path !== undefined) field = path.slice(0, 4).join('.') || field;
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
