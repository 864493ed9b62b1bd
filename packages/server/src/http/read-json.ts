import type { FastifyRequest } from 'fastify';
import { ApiError, errors } from '../errors/errors.js';
import { JsonScan } from '../json-depth.js';

/** The message of a body nested too deep (field errors say it of the field). */
export const tooDeepMessage = (maxDepth: number) =>
  `nested deeper than ${maxDepth} levels of objects and arrays`;

/**
 * Most values (objects, arrays, array items and members, counted by the scan) a JSON body may hold. Parsing
 * costs time by values, not bytes, and blocks the process while it runs: a 48 MB body of 6 million empty
 * objects took seconds. 200,000 parse in tens of milliseconds; no body of ours comes near (a webchat
 * configuration holds a few hundred), while a large body of long strings (few values) stays allowed.
 */
export const MAX_JSON_VALUES = 200_000;

const tooManyValues = (max: number) =>
  new ApiError(
    'PayloadTooLarge',
    `Request body holds more than ${max} JSON values (objects, arrays, items): send fewer in one request`,
  );

const tooLarge = (limit: number) =>
  new ApiError(
    'PayloadTooLarge',
    `Request body is larger than this endpoint accepts: at most ${limit} bytes of JSON`,
  );

/**
 * Reads a JSON request body as it arrives, as Fastify reads one (the route's body limit, checked on the
 * declared Content-Length first and then on the bytes received; a body shorter or longer than declared is
 * a 400), while {@link JsonScan} follows its nesting: a value nested deeper than `maxDepth` is answered 400
 * InvalidPayload naming the field at once, from the scan, before the rest arrives and without ever parsing
 * it; a body of more than `maxValues` values is answered 413 the same way. Answers the text of a body that
 * passed, for the parser.
 */
export function readJsonBody(
  req: FastifyRequest,
  payload: NodeJS.ReadableStream,
  maxDepth: number,
  done: (error: Error | null, text?: string) => void,
  maxValues = MAX_JSON_VALUES,
): void {
  const limit = req.routeOptions.bodyLimit;
  const declared = Number(req.headers['content-length']);
  if (declared > limit) {
    done(tooLarge(limit));
    return;
  }
  const scan = new JsonScan(maxDepth, maxValues);
  const chunks: Buffer[] = [];
  let received = 0;

  const stop = () => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
  };
  function onData(data: Buffer | string) {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    received += chunk.length;
    if (received > limit) {
      stop();
      done(tooLarge(limit));
      return;
    }
    if (!scan.write(chunk)) {
      stop();
      if (scan.tooManyValues) {
        done(tooManyValues(maxValues));
        return;
      }
      const field = scan.tooDeep?.join('.') || '(body)';
      const message = tooDeepMessage(maxDepth);
      done(errors.invalidPayload(`The body's ${field} is ${message}`, [{ field, message }]));
      return;
    }
    chunks.push(chunk);
  }
  function onEnd() {
    stop();
    if (!Number.isNaN(declared) && received !== declared) {
      done(
        errors.invalidPayload(
          `The body has ${received} bytes but Content-Length says ${declared}: send the whole body as declared`,
        ),
      );
      return;
    }
    done(
      null,
      (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received)).toString('utf8'),
    );
  }
  function onError(error: Error & { statusCode?: number }) {
    stop();
    if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
    done(error);
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}
