import { FORBIDDEN_KEY_MESSAGE, forbiddenKeyPath } from '@parley/protocol';
import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import { errors } from '../errors/errors.js';
import { readJsonBody } from './read-json.js';

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
  const parseText: FastifyBodyParser<string> = (req, text, done) => {
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
  };
  // Read with its nesting scanned as it arrives (read-json.ts): a body nested too deep is refused from the
  // scan, never parsed, and the rest of it is not waited for.
  app.addContentTypeParser('application/json', (req, payload, done) =>
    readJsonBody(req, payload, maxDepth, (error, text = '') =>
      error ? done(error, undefined) : parseText(req, text, done),
    ),
  );
}
