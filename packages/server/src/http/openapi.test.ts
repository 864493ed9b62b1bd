import { rm } from 'node:fs/promises';
import * as tables from '@parley/protocol/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../testkit/src/server/harness.js';

interface Operation {
  operationId?: string;
  security?: Array<Record<string, unknown>>;
  responses?: Record<string, unknown>;
  parameters?: Array<{ name: string; in: string }>;
}

interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, unknown> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Every (method, path) the app serves, read from Fastify's route tree (`printRoutes`), with
 * `:param` written as `{param}` the way OpenAPI does. HEAD routes Fastify adds by itself are left out.
 */
function servedRoutes(tree: string): Array<{ method: string; path: string }> {
  const routes: Array<{ method: string; path: string }> = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(m[2] ?? '');
    const path = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim())) {
      if (method && method !== 'HEAD') routes.push({ method: method.toLowerCase(), path });
    }
  }
  return routes;
}

describe('OpenAPI document and service endpoints', () => {
  let t: TestApp;
  let doc: OpenApiDoc;
  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json() as OpenApiDoc;
  });
  afterAll(() => t.close());

  it('serves /openapi.json as JSON without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('is an OpenAPI 3.1 document with a title and version', () => {
    expect(doc.openapi.startsWith('3.1')).toBe(true);
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.info.version).toEqual(expect.any(String));
  });

  it('reads the route tree into a sensible list (sanity check of the test itself)', () => {
    const routes = servedRoutes(t.app.printRoutes({ commonPrefix: false }));
    expect(routes).toContainEqual({ method: 'get', path: '/v1/admin/bots' });
    expect(routes).toContainEqual({ method: 'delete', path: '/v1/admin/bots/{id}/access-keys/{keyId}' });
    expect(routes).toContainEqual({ method: 'get', path: '/healthz' });
    expect(routes.filter((r) => r.path.startsWith('/v1/admin/')).length).toBeGreaterThan(30);
  });

  it('lists every /v1/admin operation the app serves', () => {
    const admin = servedRoutes(t.app.printRoutes({ commonPrefix: false })).filter((r) =>
      r.path.startsWith('/v1/admin/'),
    );
    const missing = admin.filter((r) => doc.paths[r.path]?.[r.method] === undefined);
    expect(missing).toEqual([]);
  });

  it('documents only operations the app serves', () => {
    const served = new Set(
      servedRoutes(t.app.printRoutes({ commonPrefix: false })).map((r) => `${r.method} ${r.path}`),
    );
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m] !== undefined).map((m) => `${m} ${path}`),
    );
    expect(documented.length).toBeGreaterThan(0);
    expect(documented.filter((d) => !served.has(d))).toEqual([]);
  });

  it('serves and documents every operation of @parley/protocol/operations under its id', () => {
    const entries = Object.values(tables as Record<string, unknown>)
      .filter((value): value is Record<string, tables.Operation> => typeof value === 'object')
      .flatMap((table) => Object.values(table));
    expect(entries.length).toBeGreaterThan(100);
    const served = new Set(
      servedRoutes(t.app.printRoutes({ commonPrefix: false })).map((r) => `${r.method} ${r.path}`),
    );
    // A prefix's root route is served and listed with the trailing slash too (`/v1/files/`).
    const wrong = entries.filter((op) => {
      const method = op.method.toLowerCase();
      const listed = doc.paths[op.path]?.[method] ?? doc.paths[`${op.path}/`]?.[method];
      const isServed = served.has(`${method} ${op.path}`) || served.has(`${method} ${op.path}/`);
      return !isServed || listed?.operationId !== op.operationId;
    });
    expect(wrong).toEqual([]);
  });

  it('lists the spec operation GET /v1/admin/bots with its paging and sort query parameters', () => {
    const op = doc.paths['/v1/admin/bots']?.get;
    expect(op?.operationId).toBe('admin.listBots');
    const names = (op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['nextToken', 'pageSize', 'sortField', 'sortDirection']));
    expect(Object.keys(op?.responses ?? {})).toContain('200');
  });

  it('gives every operation a unique operationId', () => {
    const ids = Object.values(doc.paths).flatMap((item) =>
      METHODS.filter((m) => item[m] !== undefined).map((m) => item[m]?.operationId),
    );
    expect(ids.length).toBeGreaterThan(30);
    expect(ids.filter((id) => typeof id !== 'string' || id === '')).toEqual([]);
    const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(dupes).toEqual([]);
  });

  it('marks every operation as needing a bearer token but invitation acceptance, sign-in, the capability URLs of files, the Chat API user creation, the source links of bot answers and the public webchat configuration', () => {
    expect(doc.components?.securitySchemes).toHaveProperty('bearerAuth');
    expect(doc.components?.securitySchemes).toHaveProperty('sessionCookie');
    const open = Object.entries(doc.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m] !== undefined && !item[m]?.security?.some((s) => 'bearerAuth' in s)).map(
        (m) => `${m} ${path}`,
      ),
    );
    expect(open.sort()).toEqual([
      'delete /v1/files/{id}/uploads/{uploadId}',
      'get /v1/chat/{botId}/messages/{id}/sources/{n}',
      'get /v1/files/{id}/content',
      'get /v1/files/{id}/uploads/{uploadId}',
      'get /webchat/v1/bots/{botId}/config',
      'patch /v1/files/{id}/uploads/{uploadId}',
      'post /v1/admin/account/invitations/accept',
      'post /v1/admin/account/sessions',
      'post /v1/chat/{botId}/users',
      'post /v1/chat/{botId}/users/get-or-create',
      'post /v1/files/{id}/upload',
      'put /v1/files/{id}/upload',
    ]);
  });

  it('hides the health and document endpoints from the document', () => {
    expect(Object.keys(doc.paths)).not.toContain('/healthz');
    expect(Object.keys(doc.paths)).not.toContain('/readyz');
    expect(Object.keys(doc.paths)).not.toContain('/openapi.json');
  });

  it('serves the API docs at /docs as HTML', async () => {
    let res = await t.app.inject({ method: 'GET', url: '/docs' });
    for (let hops = 0; hops < 3 && res.statusCode >= 300 && res.statusCode < 400; hops++) {
      const location = res.headers.location;
      expect(location).toEqual(expect.any(String));
      res = await t.app.inject({
        method: 'GET',
        url: new URL(String(location), 'http://localhost/docs').pathname,
      });
    }
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<html/i);
  });

  it("serves the document under /docs too (JSON and YAML) and swagger-ui's files, with HEAD, ranges and 304", async () => {
    const json = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual(doc);
    const yaml = await t.app.inject({ method: 'GET', url: '/docs/yaml' });
    expect(yaml.headers['content-type']).toBe('application/x-yaml');
    expect(yaml.body).toContain('openapi: 3.1.0');
    expect(yaml.body).toContain('operationId: admin.listBots');

    const css = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['content-length']).toBe(String(css.rawPayload.length));
    expect(css.headers['x-request-id']).toEqual(expect.any(String));
    const head = await t.app.inject({ method: 'HEAD', url: '/docs/static/swagger-ui.css' });
    expect([head.statusCode, head.headers['content-length'], head.body]).toEqual([
      200,
      css.headers['content-length'],
      '',
    ]);
    const range = await t.app.inject({
      method: 'GET',
      url: '/docs/static/swagger-ui.css',
      headers: { range: 'bytes=0-99' },
    });
    expect([range.statusCode, range.headers['content-range'], range.body]).toEqual([
      206,
      `bytes 0-99/${css.rawPayload.length}`,
      css.body.slice(0, 100),
    ]);
    const unchanged = await t.app.inject({
      method: 'GET',
      url: '/docs/static/swagger-ui.css',
      headers: { 'if-none-match': String(css.headers.etag) },
    });
    expect([unchanged.statusCode, unchanged.body, unchanged.headers['content-type']]).toEqual([
      304,
      '',
      undefined,
    ]);
  });

  it('answers what /docs does not have with the API 404 (wire format)', async () => {
    for (const [method, url] of [
      ['GET', '/docs/static/nothing.js'],
      ['GET', '/docs/nothing'],
      ['POST', '/docs/json'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 404, type: 'ResourceNotFound' });
    }
  });

  it('answers /healthz with 200 {status: "ok"} without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz with 200 {status: "ready"} naming the database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', database: t.db.dialect });
  });

  it('tags every response with an x-request-id', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/healthz' });
    const b = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(a.headers['x-request-id']).toMatch(/^req_[0-9a-f]{20}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('/readyz when the database is gone', () => {
  it('answers 503 {status: "unavailable"}', async () => {
    const t = await createTestApp();
    try {
      await t.db.close();
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'unavailable' });
    } finally {
      await t.app.close();
      await rm(t.dataDir, { recursive: true, force: true });
    }
  });
});
