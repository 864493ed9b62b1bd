import { ApiErrorBody } from '@parley/protocol';
import { operations as table } from '@parley/protocol/operations';
import Fastify from 'fastify';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { installErrorHandling } from './error-handler.js';
import { ADMIN_SECURITY, operationSchema, operations, routeUrl } from './operation.js';
import { BEARER } from './route-helpers.js';

const defaults = { tags: ['things'], security: ADMIN_SECURITY };
const Thing = Type.Object({ id: Type.String(), n: Type.Integer() });

describe('operationSchema', () => {
  it('takes the tags and the security of its auth level from the defaults, and adds the wire error', () => {
    expect(operationSchema({ operationId: 'admin.getThing', response: Thing }, defaults)).toEqual({
      operationId: 'admin.getThing',
      tags: ['things'],
      security: BEARER,
      response: { 200: Thing, '4xx': ApiErrorBody, '5xx': ApiErrorBody },
    });
    expect(operationSchema({ operationId: 'a', auth: 'account' }, defaults).security).toBe(BEARER);
    expect(operationSchema({ operationId: 'a', auth: 'optional' }, defaults)).not.toHaveProperty('security');
    expect(operationSchema({ operationId: 'a', auth: 'none', security: [] }, defaults).security).toEqual([]);
  });

  it('lists the keys in the order of the document, the query as `querystring`', () => {
    const schema = operationSchema(
      {
        operationId: 'admin.putThing',
        tags: ['other'],
        description: 'Puts a thing.',
        body: Thing,
        query: Thing,
        params: Thing,
        status: [200, 201],
        response: Thing,
      },
      defaults,
    );
    expect(Object.keys(schema)).toEqual([
      'operationId',
      'tags',
      'security',
      'description',
      'params',
      'querystring',
      'body',
      'response',
    ]);
    expect(schema.tags).toEqual(['other']);
    expect(schema.response).toEqual({ 200: Thing, 201: Thing, '4xx': ApiErrorBody, '5xx': ApiErrorBody });
  });

  it('takes a whole response map as it is', () => {
    const redirect = { 302: Type.Null() };
    expect(operationSchema({ operationId: 'a', responses: redirect }, defaults).response).toBe(redirect);
    expect(operationSchema({ operationId: 'a' }, defaults)).not.toHaveProperty('response');
  });
});

describe('operations', () => {
  it('registers the route with its auth level, hook, typed request and success status', async () => {
    const app = Fastify();
    installErrorHandling(app);
    const op = operations(app, defaults);
    const seen: string[] = [];
    op(
      'POST /things/:id',
      {
        operationId: 'admin.createThing',
        auth: 'account',
        params: Type.Object({ id: Type.String() }),
        query: Type.Object({ n: Type.Integer() }),
        body: Type.Object({ name: Type.String() }),
        status: 201,
        response: Thing,
        preValidation: async (req) => {
          seen.push(req.url);
        },
      },
      // Typed by the schemas: a string id, an integer n (coerced from the query string).
      async (req) => ({ id: `${req.params.id}:${req.body.name}`, n: req.query.n + 1 }),
    );
    op(
      'GET /things/:id/config',
      { operationId: 'admin.thingConfig' },
      async (req) => req.routeOptions.config,
    );
    const res = await app.inject({ method: 'POST', url: '/things/a?n=1', payload: { name: 'b' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: 'a:b', n: 2 });
    expect(seen).toEqual(['/things/a?n=1']);
    const invalid = await app.inject({ method: 'POST', url: '/things/a?n=x', payload: { name: 'b' } });
    expect(invalid.json()).toMatchObject({ code: 400, type: 'InvalidQuery' });
    const config = await app.inject({ method: 'GET', url: '/things/a/config' });
    expect(config.json()).not.toHaveProperty('auth');
    await app.close();
  });

  it('leaves the status to a handler that sends its answer itself', async () => {
    const app = Fastify();
    operations(app, defaults)(
      'POST /things',
      { operationId: 'admin.createThing', status: [200, 201], response: Thing },
      async (_req, reply) => reply.status(201).send({ id: 'x', n: 1 }),
    );
    const res = await app.inject({ method: 'POST', url: '/things' });
    expect(res.statusCode).toBe(201);
    await app.close();
  });

  it('serves a table entry at its path under the prefix, with its id and auth level', async () => {
    const ops = table('admin', {
      getThing: { method: 'GET', path: '/v1/admin/things/{id}', auth: 'account' },
      listThings: 'GET /v1/admin',
    });
    const app = Fastify();
    await app.register(
      async (admin) => {
        const op = operations(admin, defaults);
        op(ops.getThing, { params: Type.Object({ id: Type.String() }) }, async (req) => ({
          id: req.params.id,
          config: req.routeOptions.config,
          operationId: (req.routeOptions.schema as unknown as { operationId: string }).operationId,
        }));
        op(ops.listThings, {}, async () => ({ things: [] }));
      },
      { prefix: '/v1/admin' },
    );
    const res = await app.inject({ method: 'GET', url: '/v1/admin/things/t%2F1' });
    expect(res.json()).toMatchObject({
      id: 't/1',
      config: { auth: 'account' },
      operationId: 'admin.getThing',
    });
    expect((await app.inject({ method: 'GET', url: '/v1/admin' })).json()).toEqual({ things: [] });
    await app.close();
  });

  it('refuses a table entry outside the prefix, and a route without an operation id', async () => {
    const ops = table('files', { getFile: 'GET /v1/files/{id}' });
    const app = Fastify();
    await app.register(
      async (admin) => {
        expect(() => operations(admin, defaults)(ops.getFile, {}, async () => ({}))).toThrow(
          'Operation path /v1/files/{id} is not under the prefix /v1/admin',
        );
        expect(() => operations(admin, defaults)('GET /x', {}, async () => ({}))).toThrow(
          'Route GET /x needs an operationId',
        );
      },
      { prefix: '/v1/admin' },
    );
    await app.close();
    expect(() => routeUrl('/v1/filesystem', '/v1/files')).toThrow('is not under the prefix /v1/files');
    expect(routeUrl('/v1/files', '/v1/files')).toBe('/');
  });
});
