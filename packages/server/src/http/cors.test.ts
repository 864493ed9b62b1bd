import {
  ACCOUNT_OPERATIONS,
  BOT_OPERATIONS,
  FILE_OPERATIONS,
  INTEGRATION_OPERATIONS,
  KNOWLEDGE_BASE_OPERATIONS,
  WORKSPACE_OPERATIONS,
} from '@parley/protocol/operations';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { fetchUrl, getFile, store, tamper } from '../../../testkit/src/server/files-api.js';
import { useTestApp } from '../../../testkit/src/server/fixtures.js';
import type { TestApp } from '../../../testkit/src/server/harness.js';
import { TOKEN_API_ALLOWED_HEADERS, TOKEN_API_EXPOSED_HEADERS } from './cors.js';

const PAGE = 'https://app.example';

/** Headers a browser reads only on a preflight's answer. */
const PREFLIGHT_ONLY = [
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
];

/** A browser's preflight of `method url` from `origin`, asking for `headers`. */
function preflight(
  t: TestApp,
  url: string,
  origin = PAGE,
  method = 'GET',
  headers = 'authorization, x-workspace-id',
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': headers,
    },
  });
}

const list = (v: unknown) =>
  String(v ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/** The owner's GET /v1/admin/bots, sent from the page. */
function listBotsFromPage(t: TestApp) {
  return t.call({
    method: 'GET',
    url: '/v1/admin/bots',
    token: t.owner.token,
    workspaceId: t.workspaceId,
    headers: { origin: PAGE },
  });
}

/** What a preflight's answer allows: its status, the origin, the methods and headers, how long it holds. */
function policyOf(res: LightMyRequestResponse) {
  return {
    status: res.statusCode,
    origin: res.headers['access-control-allow-origin'],
    methods: list(res.headers['access-control-allow-methods']),
    headers: list(res.headers['access-control-allow-headers']),
    maxAge: res.headers['access-control-max-age'],
  };
}

function expectNoCors(res: LightMyRequestResponse) {
  expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
}

describe('CORS of the Admin and Files APIs (default: any origin)', () => {
  const t = useTestApp();

  for (const [api, url, method] of [
    ['Admin', '/v1/admin/bots', 'POST'],
    ['Admin', '/v1/admin/bots/bot_x/access-keys', 'DELETE'],
    ['Files', '/v1/files', 'PUT'],
    ['Files', '/v1/files/search', 'POST'],
    ['Files', '/v1/files/docs%2Fa.txt', 'GET'],
  ] as const) {
    it(`answers a preflight of ${method} ${url} (${api} API) with 204 and no token`, async () => {
      const res = await preflight(t, url, PAGE, method, 'authorization, content-type, x-bot-id');
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(list(res.headers['access-control-allow-methods'])).toEqual(
        expect.arrayContaining(['GET', 'HEAD', 'POST', 'PUT', 'DELETE'].map((m) => m.toLowerCase())),
      );
      expect(list(res.headers['access-control-allow-headers'])).toEqual(TOKEN_API_ALLOWED_HEADERS);
      expect(res.headers['access-control-max-age']).toBe('600');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    });
  }

  it("allows every header the client sends: its credentials, its context and each operation's own", () => {
    const tables = [BOT_OPERATIONS, WORKSPACE_OPERATIONS, ACCOUNT_OPERATIONS, INTEGRATION_OPERATIONS];
    const own = [...tables, FILE_OPERATIONS, KNOWLEDGE_BASE_OPERATIONS].flatMap((table) =>
      Object.values(table).flatMap((operation) => Object.keys(operation.headers ?? {})),
    );
    expect(own).toContain('x-destination-bot-id');
    const context = ['authorization', 'content-type', 'x-workspace-id', 'x-bot-id', 'x-integration-id'];
    expect(TOKEN_API_ALLOWED_HEADERS).toEqual(expect.arrayContaining([...context, ...own]));
  });

  it('lets a page read an Admin API answer: allow-origin and the exposed headers', async () => {
    const res = await listBotsFromPage(t);
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(list(res.headers['access-control-expose-headers'])).toEqual(TOKEN_API_EXPOSED_HEADERS);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets a page read a Files API answer, and an error (401) too', async () => {
    const ok = await t.call({
      method: 'GET',
      url: '/v1/files',
      token: t.botKey,
      headers: { origin: PAGE, 'x-bot-id': t.botId },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('*');
    const refused = await t.call({ method: 'GET', url: '/v1/files', headers: { origin: PAGE } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    expect(refused.json()).toMatchObject({ type: 'Unauthorized' });
  });

  it('leaves the capability URLs their own CORS (range, if-none-match)', async () => {
    const download = await preflight(t, '/v1/files/file_x/content', PAGE, 'GET', 'range');
    expect(policyOf(download)).toMatchObject({
      status: 204,
      origin: '*',
      headers: ['content-type', 'range', 'if-none-match', 'upload-offset'],
    });
    const upload = await preflight(t, '/v1/files/file_x/upload', PAGE, 'PUT', 'content-type');
    expect(upload.statusCode).toBe(204);
    const methods = ['get', 'head', 'put', 'post', 'patch', 'delete', 'options'];
    expect(list(upload.headers['access-control-allow-methods'])).toEqual(methods);
    // A resumable upload's own URL: PATCH with upload-offset from any page.
    const resumable = await preflight(t, '/v1/files/file_x/uploads/upl_x', PAGE, 'PATCH', 'upload-offset');
    expect(resumable.statusCode).toBe(204);
    expect(list(resumable.headers['access-control-allow-methods'])).toEqual(methods);
    expect(list(resumable.headers['access-control-expose-headers'])).toContain('upload-offset');
  });

  it("gives a download's answers, errors too, allow-origin and the exposed headers only", async () => {
    const stored = await store(t, 'cors/download.txt', 'downloaded from any page');
    const file = await getFile(t, stored.id);
    const ok = await fetchUrl(t, String(file.url), { origin: PAGE, range: 'bytes=0-9' });
    expect(ok.statusCode).toBe(206);
    expect(ok.body).toBe('downloaded');
    const tampered = await fetchUrl(
      t,
      tamper(String(file.url), (u) => u.searchParams.set('expires', '1')),
      {
        origin: PAGE,
      },
    );
    expect(tampered.statusCode).toBeGreaterThanOrEqual(400);
    for (const res of [ok, tampered]) {
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(list(res.headers['access-control-expose-headers'])).toEqual(
        expect.arrayContaining(['content-range', 'content-disposition', 'etag', 'accept-ranges']),
      );
      for (const name of PREFLIGHT_ONLY) expect(res.headers[name]).toBeUndefined();
    }
  });

  it('keeps preflights out of the bot request log', async () => {
    await preflight(t, `/v1/admin/bots/${t.botId}`);
    await preflight(t, '/v1/files', PAGE, 'GET', 'authorization, x-bot-id');
    const read = await t.asOwner('GET', `/v1/admin/bots/${t.botId}`);
    expect(read.statusCode).toBe(200);
    await vi.waitFor(async () => {
      const res = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/logs`);
      const { logs } = res.json() as { logs: Array<{ method: string; path: string }> };
      expect(logs.some((l) => l.method === 'GET' && l.path === `/v1/admin/bots/${t.botId}`)).toBe(true);
      expect(logs.filter((l) => l.method === 'OPTIONS')).toEqual([]);
    });
  });
});

describe("CORS of the Chat API (any origin: the webchat runs on customers' sites)", () => {
  const t = useTestApp();

  it('answers a preflight with 204 and the whole policy', async () => {
    const res = await preflight(t, `/v1/chat/${t.botId}/messages`, PAGE, 'POST', 'content-type, x-user-key');
    expect(policyOf(res)).toEqual({
      status: 204,
      origin: '*',
      methods: ['get', 'post', 'put', 'delete', 'options'],
      headers: ['authorization', 'content-type', 'x-user-key', 'x-admin-key', 'last-event-id'],
      maxAge: '600',
    });
  });

  it('gives other answers, errors too, allow-origin and the exposed headers only (the rest is read on a preflight)', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/v1/chat/${t.botId}/users`,
      headers: { origin: PAGE, authorization: `Bearer ${t.botKey}` },
      payload: {},
    });
    const refused = await t.app.inject({
      method: 'GET',
      url: `/v1/chat/${t.botId}/users/me`,
      headers: { origin: PAGE },
    });
    expect(created.statusCode, created.body).toBeLessThan(300);
    expect(refused.statusCode).toBe(401);
    for (const res of [created, refused]) {
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(list(res.headers['access-control-expose-headers'])).toEqual(TOKEN_API_EXPOSED_HEADERS);
      for (const name of PREFLIGHT_ONLY) expect(res.headers[name]).toBeUndefined();
    }
  });
});

describe('CORS preflights and the rate limit', () => {
  const t = useTestApp({ env: { PARLEY_RATE_LIMIT_MAX: '2' } });

  it('does not count preflights, and a 429 still carries the CORS headers', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await preflight(t, '/v1/admin/bots')).statusCode).toBe(204);
      expect((await preflight(t, '/v1/files')).statusCode).toBe(204);
    }
    // Preflights carry no token, so they would count against the address: that bucket is untouched.
    const anonymous = await t.call({ method: 'GET', url: '/v1/admin/bots', headers: { origin: PAGE } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['ratelimit-remaining']).toBe('1');
    const get = () => listBotsFromPage(t);
    const first = await get();
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-remaining']).toBe('1');
    expect((await get()).statusCode).toBe(200);
    const limited = await get();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['access-control-allow-origin']).toBe('*');
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('CORS with PARLEY_CORS_ORIGINS=https://a.example', () => {
  const A = 'https://a.example';
  const B = 'https://b.example';
  const t = useTestApp({ env: { PARLEY_CORS_ORIGINS: A } });

  const listBots = (origin: string) =>
    t.call({
      method: 'GET',
      url: '/v1/admin/bots',
      token: t.owner.token,
      workspaceId: t.workspaceId,
      headers: { origin },
    });

  it('answers the allowed origin by name, varying on Origin', async () => {
    const res = await listBots(A);
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(A);
    expect(list(res.headers.vary)).toContain('origin');
    const pre = await preflight(t, '/v1/files/search', A, 'POST', 'authorization, content-type, x-bot-id');
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(A);
    expect(list(pre.headers['access-control-allow-headers'])).toEqual(TOKEN_API_ALLOWED_HEADERS);
  });

  it('gives another origin no allow-origin header (the browser then hides the answer)', async () => {
    const res = await listBots(B);
    expect(res.statusCode).toBe(200);
    expectNoCors(res);
  });

  it('refuses the preflight of another origin: no allow headers', async () => {
    for (const url of ['/v1/admin/bots', '/v1/files']) {
      const res = await preflight(t, url, B);
      expect(res.statusCode).toBe(404);
      expectNoCors(res);
    }
  });

  it('leaves the capability URLs open to any origin', async () => {
    const res = await preflight(t, '/v1/files/file_x/upload', B, 'PUT', 'content-type');
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('leaves the Chat API open to any origin', async () => {
    const res = await preflight(t, `/v1/chat/${t.botId}/users`, B, 'POST', 'x-user-key');
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});
