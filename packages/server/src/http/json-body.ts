import { FORBIDDEN_KEY_MESSAGE, forbiddenKeyPath } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import { errors } from '../errors/errors.js';
import { jsonDepth, pathTooDeep } from '../json-depth.js';

/** Deepest nesting of objects and arrays a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/** Text that may name a forbidden key: one of them, or an escape that could spell one. */
const MAY_NAME_FORBIDDEN_KEY = /__proto__|constructor|prototype|\\u/;

/**
 * JSON bodies as Fastify parses them, but never nested deeper than `maxDepth`: such a body answers 400
 * InvalidPayload naming the field where it goes too deep, before anything is stored (deeply nested values
 * would otherwise break every later reader of them). A key named `__proto__`, `constructor` or `prototype`,
 * at any depth (a tag, a metadata or configuration field), is a 400 InvalidPayload naming it: merged into
 * or looked up on a plain object, such a key reaches Object.prototype.
 */
export function installJsonBodyParser(app: FastifyInstance, maxDepth = MAX_JSON_DEPTH): void {
  // JSON.parse makes a "__proto__" key an own property (harmless) and the walk below refuses it by name.
  const parse = app.getDefaultJsonParser('ignore', 'ignore');
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
    parse(req, text, (error, value) => {
      if (error) return done(error, undefined);
      const path = MAY_NAME_FORBIDDEN_KEY.test(text) ? forbiddenKeyPath(value) : undefined;
      if (path === undefined) return done(null, value);
      const field = path.join('.');
      done(
        errors.invalidPayload(`The body's ${field} ${FORBIDDEN_KEY_MESSAGE}`, [
          { field, message: FORBIDDEN_KEY_MESSAGE },
        ]),
        undefined,
      );
    });
  });
}
