import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, errors } from '../errors/errors.js';
import { installErrorHandling, toApiError } from './error-handler.js';

const ERROR_ID = /^err_\d{14}x[0-9a-f]{8}$/;
const SECRET = 'password=hunter2 at db.internal:5432';

describe('toApiError', () => {
  it('passes an ApiError through unchanged', () => {
    const error = errors.notFound('Bot', 'b1');
    expect(toApiError(error)).toBe(error);
  });

  it('lists body validation errors in metadata.errors with dotted field names', () => {
    const error = toApiError({
      validationContext: 'body',
      validation: [
        { instancePath: '/name', params: {}, message: 'must NOT have more than 3 characters' },
        {
          instancePath: '',
          params: { missingProperty: 'email' },
          message: "must have required property 'email'",
        },
        { instancePath: '/webchat/radius', params: {}, message: 'must be <= 4' },
        { instancePath: '/webchat', params: { missingProperty: 'color' }, message: 'is required' },
      ],
    });
    expect(error.type).toBe('InvalidPayload');
    expect(error.code).toBe(400);
    expect(error.metadata).toEqual({
      errors: [
        { field: 'name', message: 'must NOT have more than 3 characters' },
        { field: 'email', message: "must have required property 'email'" },
        { field: 'webchat.radius', message: 'must be <= 4' },
        { field: 'webchat.color', message: 'is required' },
      ],
    });
    expect(error.message).toBe(
      "Invalid request body: name must NOT have more than 3 characters; email must have required property 'email'; webchat.radius must be <= 4; webchat.color is required",
    );
  });

  it('maps query validation errors to InvalidQuery and path ones to InvalidIdentifier', () => {
    for (const [validationContext, field, message, expected] of [
      [
        'querystring',
        'pageSize',
        'must be <= 100',
        ['InvalidQuery', 400, 'Invalid request query: pageSize must be <= 100'],
      ],
      [
        'params',
        'id',
        'must match pattern',
        ['InvalidIdentifier', 400, 'Invalid request path: id must match pattern'],
      ],
    ] as const) {
      const error = toApiError({
        validationContext,
        validation: [{ instancePath: `/${field}`, params: {}, message }],
      });
      expect([error.type, error.code, error.message]).toEqual(expected);
    }
  });

  it('names the whole body when a validation error has no path', () => {
    const error = toApiError({
      validation: [{ instancePath: '', params: {}, message: 'must be object' }],
    });
    expect(error.metadata).toEqual({ errors: [{ field: 'body', message: 'must be object' }] });
  });

  it('turns FST_ERR_CTP_BODY_TOO_LARGE into 413 PayloadTooLarge', () => {
    const error = toApiError(
      Object.assign(new Error('Request body is too large'), {
        code: 'FST_ERR_CTP_BODY_TOO_LARGE',
        statusCode: 413,
      }),
    );
    expect(error.type).toBe('PayloadTooLarge');
    expect(error.code).toBe(413);
    expect(error.message).toBe(
      'Request body is larger than this endpoint accepts: Request body is too large',
    );
  });

  it('turns an unsupported media type into 415', () => {
    const error = toApiError(
      Object.assign(new Error('Unsupported Media Type: text/xml'), {
        code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
        statusCode: 415,
      }),
    );
    expect([error.type, error.code]).toEqual(['UnsupportedMediaType', 415]);
    expect(error.message).toBe(
      'Unsupported Media Type: text/xml. Send JSON with "Content-Type: application/json".',
    );
  });

  it('maps other 4xx errors by status and keeps their message', () => {
    const mapped = [404, 405, 409, 429, 418].map((statusCode) => {
      const e = toApiError(Object.assign(new Error(`status ${statusCode}`), { statusCode }));
      return [e.type, e.code, e.message];
    });
    expect(mapped).toEqual([
      ['ResourceNotFound', 404, 'status 404'],
      ['MethodNotFound', 405, 'status 405'],
      ['AlreadyExists', 409, 'status 409'],
      ['RateLimited', 429, 'status 429'],
      ['InvalidPayload', 400, 'status 418'],
    ]);
  });

  it('turns an unknown error into 500 Internal without its message', () => {
    const error = toApiError(new Error(SECRET));
    expect(error.type).toBe('Internal');
    expect(error.code).toBe(500);
    expect(error.message).toBe(
      'An internal error occurred. It has been logged; quote the error id when reporting it.',
    );
    expect(error.message).not.toContain('hunter2');
    expect(error.metadata).toBeUndefined();
  });

  it('turns a thrown non-Error value and a 5xx status into 500 Internal', () => {
    expect(toApiError('just a string').type).toBe('Internal');
    expect(toApiError(null).type).toBe('Internal');
    expect(toApiError(undefined).code).toBe(500);
    expect(toApiError(Object.assign(new Error(SECRET), { statusCode: 503 })).code).toBe(500);
  });
});

describe('installErrorHandling', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify({ logger: false, ajv: { customOptions: { allErrors: true, coerceTypes: 'array' } } });
    installErrorHandling(app);
    app.post(
      '/items',
      {
        schema: {
          body: {
            type: 'object',
            required: ['name', 'email'],
            properties: { name: { type: 'string', maxLength: 3 }, email: { type: 'string' } },
          },
        },
      },
      async () => ({ ok: true }),
    );
    app.get(
      '/items/:id',
      { schema: { params: { type: 'object', properties: { id: { type: 'string', pattern: '^[a-z]+$' } } } } },
      async () => ({ ok: true }),
    );
    app.get(
      '/search',
      {
        schema: {
          querystring: { type: 'object', properties: { pageSize: { type: 'integer', maximum: 100 } } },
        },
      },
      async () => ({ ok: true }),
    );
    app.post('/small', { bodyLimit: 16 }, async () => ({ ok: true }));
    app.get('/boom', async () => {
      throw new Error(SECRET);
    });
    app.get('/null', async () => {
      throw null;
    });
    app.get('/missing', async () => {
      throw errors.notFound('Bot', 'b42');
    });
    app.get('/limited', async () => {
      throw new ApiError('RateLimited', 'slow down');
    });
    // Thrown values no renderer expects: every property read throws, a symbol, an error whose fields are odd.
    app.get('/hostile', async () => {
      throw new Proxy(new Error(SECRET), {
        get() {
          throw new Error(`read ${SECRET}`);
        },
      });
    });
    app.get('/symbol', async () => {
      throw Symbol(SECRET);
    });
    app.get('/odd-400', async () => {
      throw Object.assign(new Error(), { statusCode: 400, message: { secret: SECRET } });
    });
    // A reply Fastify's serialiser cannot write (a BigInt): the failure reaches the error renderer.
    app.get(
      '/unserialisable',
      { schema: { response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } } },
      async () => ({
        n: {
          toJSON: () => {
            throw new Error(SECRET);
          },
        },
      }),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers a body validation failure with 400 and every invalid field', async () => {
    const res = await app.inject({ method: 'POST', url: '/items', payload: { name: 'toolong' } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json();
    expect(body.id).toMatch(ERROR_ID);
    expect(body.code).toBe(400);
    expect(body.type).toBe('InvalidPayload');
    expect(body.metadata.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'name']);
  });

  it('answers a bad path parameter with 400 InvalidIdentifier', async () => {
    const res = await app.inject({ method: 'GET', url: '/items/ABC' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'InvalidIdentifier', metadata: { errors: [{ field: 'id' }] } });
  });

  it('answers a bad query parameter with 400 InvalidQuery', async () => {
    const res = await app.inject({ method: 'GET', url: '/search?pageSize=500' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'InvalidQuery', metadata: { errors: [{ field: 'pageSize' }] } });
  });

  /** POSTs a raw body to /items with the given content type. */
  const postItemAs = (contentType: string, payload: string) =>
    app.inject({ method: 'POST', url: '/items', headers: { 'content-type': contentType }, payload });

  it('answers a body over the route limit with 413 PayloadTooLarge', async () => {
    const res = await app.inject({ method: 'POST', url: '/small', payload: { text: 'x'.repeat(100) } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 413, type: 'PayloadTooLarge' });
  });

  it('answers malformed JSON with 400 InvalidPayload', async () => {
    const res = await postItemAs('application/json', '{"name":');
    expect(res.statusCode).toBe(400);
    expect(res.json().type).toBe('InvalidPayload');
    expect(res.json().message).toMatch(/^Malformed JSON body: /);
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await postItemAs('text/xml', '<item/>');
    expect(res.statusCode).toBe(415);
    expect(res.json().type).toBe('UnsupportedMediaType');
  });

  it('answers an unexpected failure with 500 and a body that does not leak it', async () => {
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'id', 'message', 'type']);
    expect(body.id).toMatch(ERROR_ID);
    expect(body).toMatchObject({ code: 500, type: 'Internal' });
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('db.internal');
  });

  it('answers a thrown null with 500 Internal in the wire format', async () => {
    const res = await app.inject({ method: 'GET', url: '/null' });
    expect(res.statusCode).toBe(500);
    expect(res.json().id).toMatch(ERROR_ID);
    expect(res.json()).toMatchObject({ code: 500, type: 'Internal' });
  });

  it('renders a thrown ApiError with its own type and message', async () => {
    const res = await app.inject({ method: 'GET', url: '/missing' });
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(body.id).toMatch(ERROR_ID);
    expect(body).toMatchObject({ code: 404, type: 'ResourceNotFound', message: 'Bot "b42" was not found' });
  });

  it('adds a Retry-After header to RateLimited answers', async () => {
    const res = await app.inject({ method: 'GET', url: '/limited' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
  });

  it('answers an unknown route with 404 ResourceNotFound naming the method and path without the query', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/nowhere?token=abc' });
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(body.id).toMatch(ERROR_ID);
    expect(body).toMatchObject({
      code: 404,
      type: 'ResourceNotFound',
      message: 'No operation at DELETE /nowhere; see /docs for the API',
    });
  });

  /** Asserts the generic 500 in the wire format, with nothing of what was thrown in it. */
  const expectGenericInternal = (res: Awaited<ReturnType<FastifyInstance['inject']>>) => {
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'id', 'message', 'type']);
    expect(body.id).toMatch(ERROR_ID);
    expect(body).toMatchObject({
      code: 500,
      type: 'Internal',
      message: 'An internal error occurred. It has been logged; quote the error id when reporting it.',
    });
    expect(res.body).not.toMatch(/hunter2|FST_ERR|statusCode|at .*\.ts:\d+/);
  };

  it('answers the generic 500 for a thrown object whose every property read throws', async () => {
    expectGenericInternal(await app.inject({ method: 'GET', url: '/hostile' }));
  });

  it('answers the generic 500 for a thrown symbol', async () => {
    expectGenericInternal(await app.inject({ method: 'GET', url: '/symbol' }));
  });

  it('answers the generic 500 when the reply cannot be serialised', async () => {
    expectGenericInternal(await app.inject({ method: 'GET', url: '/unserialisable' }));
  });

  it('answers a 4xx error whose message is not text with its type as message', async () => {
    const res = await app.inject({ method: 'GET', url: '/odd-400' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, type: 'InvalidPayload', message: 'InvalidPayload' });
    expect(res.body).not.toContain('hunter2');
  });
});
