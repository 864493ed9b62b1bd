import { describe, expect, it, vi } from 'vitest';
import { caller } from '../../../testkit/src/server/admin-calls.js';
import { useTestApp } from '../../../testkit/src/server/fixtures.js';
import { rawRequest, workspaceHeaders } from '../../../testkit/src/server/raw-requests.js';
import { badFields, expectError } from '../../../testkit/src/server/wire.js';
import { ADMIN_BODY_LIMIT } from '../app.js';
import { MAX_JSON_VALUES } from './read-json.js';

const MB = 1024 * 1024;

/** A JSON object `{"<field>": "xxx…"}` of exactly `bytes` bytes. */
function jsonOfSize(field: string, bytes: number): string {
  const overhead = `{"${field}":""}`.length;
  return `{"${field}":"${'x'.repeat(bytes - overhead)}"}`;
}

describe('request bodies on the Admin API', () => {
  const t = useTestApp();

  /** A raw request as the owner, with a body string and content type of the test's choosing. */
  const send = (method: 'POST' | 'PUT', url: string, payload: string, contentType = 'application/json') =>
    t.app.inject({
      method,
      url,
      payload,
      headers: {
        authorization: `Bearer ${t.owner.token}`,
        'x-workspace-id': t.workspaceId,
        'content-type': contentType,
      },
    });

  it("has the spec's 50 MB Admin body limit", () => {
    expect(ADMIN_BODY_LIMIT).toBe(50 * MB);
  });

  it('answers 413 PayloadTooLarge to a JSON body one byte over 50 MB, creating nothing', async () => {
    const payload = jsonOfSize('description', ADMIN_BODY_LIMIT + 1);
    expect(Buffer.byteLength(payload)).toBe(ADMIN_BODY_LIMIT + 1);
    const res = await send('POST', '/v1/admin/bots', payload);
    expectError(res, 413, 'PayloadTooLarge');
    const list = await t.asOwner('GET', '/v1/admin/bots');
    expect((list.json() as { bots: unknown[] }).bots).toHaveLength(1);
  });

  it('parses a JSON body of exactly 50 MB (a too-long description then answers 400, not 413)', async () => {
    const payload = jsonOfSize('description', ADMIN_BODY_LIMIT);
    expect(Buffer.byteLength(payload)).toBe(ADMIN_BODY_LIMIT);
    const body = expectError(await send('POST', '/v1/admin/bots', payload), 400, 'InvalidPayload');
    expect(badFields(body)).toContain('description');
  });

  it('answers 413 to a body of more values than MAX_JSON_VALUES from the scan, never parsing it, creating nothing', async () => {
    // 6 MB of empty objects: parsing costs by values, not bytes (48 MB of them blocked the process for seconds).
    const payload = `{"name":"x","tags":{"a":"b"},"data":[${'{},'.repeat(2_000_000)}{}]}`;
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const body = expectError(await send('POST', '/v1/admin/bots', payload), 413, 'PayloadTooLarge');
      expect(body.message).toContain(`more than ${MAX_JSON_VALUES} JSON values`);
      expect(parse.mock.calls.filter(([text]) => String(text).length >= 1_000_000)).toEqual([]);
    } finally {
      parse.mockRestore();
    }
    const list = await t.asOwner('GET', '/v1/admin/bots');
    expect((list.json() as { bots: unknown[] }).bots).toHaveLength(1);
  });

  it('parses a body of just MAX_JSON_VALUES values (a bad field then answers 400, not 413)', async () => {
    // {"description":[0,0,…]}: the object, the array and its items.
    const payload = `{"description":[${Array(MAX_JSON_VALUES - 2)
      .fill(0)
      .join(',')}]}`;
    const body = expectError(await send('POST', '/v1/admin/bots', payload), 400, 'InvalidPayload');
    expect(badFields(body)).toContain('description');
    const over = `{"description":[${Array(MAX_JSON_VALUES - 1)
      .fill(0)
      .join(',')}]}`;
    expectError(await send('POST', '/v1/admin/bots', over), 413, 'PayloadTooLarge');
  });

  it('parses a webchat PUT with a 200 kB additionalStylesheet and answers 400 for its maximum length', async () => {
    const res = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, {
      configuration: { additionalStylesheet: `.a{}${' '.repeat(200_000)}` },
    });
    const body = expectError(res, 400, 'InvalidPayload');
    expect(badFields(body)).toEqual(['additionalStylesheet']);
    expect(body.metadata?.errors?.[0]?.message).toMatch(/at most 100000/);
  });

  it('answers 400 InvalidPayload to malformed JSON', async () => {
    const body = expectError(await send('POST', '/v1/admin/bots', '{"name": "x",'), 400, 'InvalidPayload');
    expect(body.message).toMatch(/json/i);
  });

  it('answers 400 InvalidPayload to an empty body sent as application/json', async () => {
    const body = expectError(await send('POST', '/v1/admin/bots', ''), 400, 'InvalidPayload');
    expect(body.message).toMatch(/empty/i);
  });

  it('answers 400 InvalidPayload naming the body when the JSON is not an object', async () => {
    expectError(await send('POST', '/v1/admin/bots', '[1,2]'), 400, 'InvalidPayload');
    expectError(await send('POST', '/v1/admin/bots', '"just a string"'), 400, 'InvalidPayload');
  });

  it('answers 415 UnsupportedMediaType to a non-JSON content type on a JSON route', async () => {
    for (const type of ['application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      const body = expectError(
        await send('POST', '/v1/admin/bots', '<bot/>', type),
        415,
        'UnsupportedMediaType',
      );
      expect(body.message).toContain('application/json');
    }
  });

  it('answers 415 to text/plain on a JSON route', async () => {
    const res = await send('POST', '/v1/admin/bots', '{"name":"plain"}', 'text/plain');
    expectError(res, 415, 'UnsupportedMediaType');
    const list = await t.asOwner('GET', '/v1/admin/bots?name=plain');
    expect((list.json() as { bots: unknown[] }).bots).toEqual([]);
  });

  it('accepts application/json with a charset parameter', async () => {
    const res = await send('POST', '/v1/admin/bots', '{"name":"charset"}', 'application/json; charset=utf-8');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ bot: { name: 'charset' } });
  });

  it('answers 404 ResourceNotFound in the wire format to an unknown route', async () => {
    for (const url of ['/v1/admin/nothing-here', '/v2/admin/bots', '/nope?x=1']) {
      const res = await t.asOwner('GET', url);
      const body = expectError(res, 404, 'ResourceNotFound');
      expect(body.message).toContain(url.split('?')[0]);
    }
  });

  it('answers 404 in the wire format to an unknown route without a token', async () => {
    expectError(await t.call({ method: 'GET', url: '/v1/admin/unknown' }), 404, 'ResourceNotFound');
  });
});

describe('rate limiting', () => {
  const env = { PARLEY_RATE_LIMIT_MAX: '5', PARLEY_RATE_LIMIT_WINDOW_MS: '60000' };

  describe('per token', () => {
    const t = useTestApp({ env });

    it('counts down RateLimit-* headers, then answers 429 RateLimited with Retry-After', async () => {
      for (let i = 0; i < 5; i++) {
        const res = await t.asOwner('GET', '/v1/admin/bots');
        expect(res.statusCode).toBe(200);
        expect(res.headers['ratelimit-limit']).toBe('5');
        expect(res.headers['ratelimit-remaining']).toBe(String(4 - i));
        const reset = Number(res.headers['ratelimit-reset']);
        expect(Number.isInteger(reset)).toBe(true);
        expect(reset).toBeGreaterThanOrEqual(0);
        expect(reset).toBeLessThanOrEqual(60);
      }
      const limited = await t.asOwner('GET', '/v1/admin/bots');
      const body = expectError(limited, 429, 'RateLimited');
      expect(body.message).toMatch(/rate limit/i);
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.headers['ratelimit-remaining']).toBe('0');
    });

    it('keeps limiting the same token on every route, writes included', async () => {
      expectError(await t.asOwner('POST', '/v1/admin/bots', { name: 'limited' }), 429, 'RateLimited');
      expectError(await t.asOwner('GET', `/v1/admin/bots/${t.botId}`), 429, 'RateLimited');
    });

    it('does not reset the count when the same token is sent with another scheme spelling', async () => {
      for (const authorization of [
        `bearer ${t.owner.token}`,
        `BEARER ${t.owner.token}`,
        `Bearer  ${t.owner.token}`,
      ]) {
        expectError(
          await rawRequest(t, '/v1/admin/bots', workspaceHeaders(t, authorization)),
          429,
          'RateLimited',
        );
      }
    });

    it('still allows a different token: the limit is per token', async () => {
      const other = await t.otherTenant();
      const res = await caller(t, other.token, other.workspaceId)('GET', '/v1/admin/bots');
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('5');
      // otherTenant() made two requests with this token already.
      expect(res.headers['ratelimit-remaining']).toBe('2');
      expect(res.json()).toMatchObject({ bots: [{ id: other.botId }] });
    });

    it('does not limit /healthz or /readyz, and adds no RateLimit headers there', async () => {
      for (let i = 0; i < 10; i++) {
        const health = await t.app.inject({
          method: 'GET',
          url: '/healthz',
          headers: { authorization: `Bearer ${t.owner.token}` },
        });
        expect(health.statusCode).toBe(200);
        expect(health.json()).toEqual({ status: 'ok' });
        expect(health.headers['ratelimit-limit']).toBeUndefined();
      }
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'ready' });
    });
  });

  describe('without a token', () => {
    const t = useTestApp({ env });

    it('limits anonymous callers by address, still answering 401 until the limit', async () => {
      for (let i = 0; i < 5; i++) {
        expectError(await t.call({ method: 'GET', url: '/v1/admin/bots' }), 401, 'Unauthorized');
      }
      expectError(await t.call({ method: 'GET', url: '/v1/admin/bots' }), 429, 'RateLimited');
      const owner = await t.asOwner('GET', '/v1/admin/bots');
      expect(owner.statusCode).toBe(200);
    });
  });

  describe('when disabled with PARLEY_RATE_LIMIT_MAX=0', () => {
    const t = useTestApp({ env: { PARLEY_RATE_LIMIT_MAX: '0' } });

    it('never answers 429 and sends no RateLimit headers', async () => {
      for (let i = 0; i < 20; i++) {
        const res = await t.asOwner('GET', '/v1/admin/bots');
        expect(res.statusCode).toBe(200);
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      }
    });
  });
});
