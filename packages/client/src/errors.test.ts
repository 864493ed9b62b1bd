import { ERROR_TYPES, type ErrorType } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrySleeps } from '../../testkit/src/client/retry-sleeps.js';
import {
  failure,
  type Parley,
  startFakeServer,
  startParley,
  wireError,
} from '../../testkit/src/client/servers.js';
import { useParley } from '../../testkit/src/client/use-parley.js';
import { Client } from './client.js';
import {
  ApiError,
  ERROR_CLASSES,
  ForbiddenError,
  InvalidPayloadError,
  InvalidQueryError,
  isApiError,
  ParleyError,
  RateLimitedError,
  ResourceNotFoundError,
  UnauthorizedError,
  UnknownError,
} from './errors.js';
import { AbortError, ConnectionError, TimeoutError } from './local-errors.js';

const ERROR_ID = /^err_\d{14}x[0-9a-f]{8}$/;

describe('error classes', () => {
  it('has one class per error type of the protocol, named after it, with its status', () => {
    expect(Object.keys(ERROR_CLASSES).sort()).toEqual(Object.keys(ERROR_TYPES).sort());
    for (const [type, code] of Object.entries(ERROR_TYPES) as [ErrorType, number][]) {
      const cls = ERROR_CLASSES[type];
      expect(cls.name).toBe(`${type}Error`);
      expect(cls.type).toBe(type);
      expect(cls.code).toBe(code);
      const e = new cls({ id: 'err_1', code, message: 'm' });
      expect(e).toBeInstanceOf(ApiError);
      expect(e).toBeInstanceOf(ParleyError);
      expect(e).toBeInstanceOf(Error);
      expect(e.name).toBe(`${type}Error`);
      expect(e.type).toBe(type);
      expect(isApiError(e)).toBe(true);
    }
  });

  it('tells API errors from connection, timeout, abort and other errors', () => {
    expect(isApiError(new ConnectionError('x'))).toBe(false);
    expect(isApiError(new TimeoutError('x', 1))).toBe(false);
    expect(isApiError(new AbortError())).toBe(false);
    expect(isApiError(new Error('x'))).toBe(false);
    expect(isApiError(null)).toBe(false);
    expect(isApiError('ResourceNotFound')).toBe(false);
    // An error of another copy of the package.
    expect(isApiError({ isApiError: true, type: 'Forbidden' })).toBe(true);
  });
});

describe('errors the real server answers', () => {
  const p = useParley();

  it('maps 404 to ResourceNotFoundError with the wire fields and the request id', async () => {
    const e = await failure(p.admin.getBot({ id: 'no-such-bot' }));
    expect(e).toBeInstanceOf(ResourceNotFoundError);
    expect(isApiError(e)).toBe(true);
    const err = e as ResourceNotFoundError;
    expect(err).toMatchObject({
      code: 404,
      status: 404,
      type: 'ResourceNotFound',
      name: 'ResourceNotFoundError',
    });
    expect(err.id).toMatch(ERROR_ID);
    expect(err.message).toContain('no-such-bot');
    expect(err.requestId).toMatch(/^req_/);
  });

  it('encodes a path parameter as one segment', async () => {
    const e = await failure(p.admin.getBot({ id: 'a/b?c' }));
    expect(e).toBeInstanceOf(ResourceNotFoundError);
    expect((e as ApiError).message).toContain('"a/b?c"');
  });

  it('maps 401 for an unknown token and for a missing workspace to UnauthorizedError', async () => {
    const bad = await failure(p.admin.with({ token: 'pat_nope' }).listBots());
    expect(bad).toBeInstanceOf(UnauthorizedError);
    expect(bad).toMatchObject({ code: 401, type: 'Unauthorized' });
    const none = await failure(p.admin.with({ token: undefined }).listBots());
    expect(none).toBeInstanceOf(UnauthorizedError);
    expect((none as ApiError).message).toContain('Authorization');
    const noWorkspace = await failure(p.client({ workspaceId: undefined }).listBots());
    expect(noWorkspace).toBeInstanceOf(UnauthorizedError);
    expect((noWorkspace as ApiError).message).toContain('x-workspace-id');
  });

  it('maps 403 to ForbiddenError for a role without the right', async () => {
    const viewer = await p.addMember('viewer');
    const e = await failure(p.client({ token: viewer.token }).createBot({ name: 'no' }));
    expect(e).toBeInstanceOf(ForbiddenError);
    expect(e).toMatchObject({ code: 403, type: 'Forbidden' });
  });

  it('maps 400 to InvalidPayloadError with metadata naming each bad field', async () => {
    const e = await failure(p.admin.createBot({ name: '', description: 'x'.repeat(2001) }));
    expect(e).toBeInstanceOf(InvalidPayloadError);
    const err = e as InvalidPayloadError;
    expect(err.code).toBe(400);
    const fields = (err.metadata?.errors as Array<{ field: string; message: string }> | undefined)?.map(
      (f) => f.field,
    );
    expect(fields?.sort()).toEqual(['description', 'name']);

    const webchat = await failure(p.admin.updateBotWebchat({ id: p.botId, configuration: { radius: 9 } }));
    expect(webchat).toBeInstanceOf(InvalidPayloadError);
    expect(JSON.stringify((webchat as ApiError).metadata)).toContain('radius');
  });

  it('maps a bad query to InvalidQueryError', async () => {
    const query = await failure(p.admin.listBots({ pageSize: 1000 }));
    expect(query).toBeInstanceOf(InvalidQueryError);
    expect(JSON.stringify((query as ApiError).metadata)).toContain('pageSize');
    const token = await failure(p.admin.listBots({ nextToken: 'garbage' }));
    expect(token).toBeInstanceOf(InvalidQueryError);
  });
});

describe('the real rate limit', () => {
  let p: Parley;
  beforeAll(async () => {
    p = await startParley({ env: { PARLEY_RATE_LIMIT_MAX: '2', PARLEY_RATE_LIMIT_WINDOW_MS: '1000' } });
  });
  afterAll(() => p.close());

  it('throws RateLimitedError with Retry-After without retries, and waits it out with them (even a POST)', async () => {
    const once = p.client({ retry: { attempts: 1 } });
    await once.listBots();
    await once.listBots();
    const e = await failure(once.listBots());
    expect(e).toBeInstanceOf(RateLimitedError);
    const err = e as RateLimitedError;
    expect(err.code).toBe(429);
    expect(err.retryAfterMs).toBeGreaterThan(0);
    expect(err.retryAfterMs).toBeLessThanOrEqual(1000);

    const patient = p.client({ retry: { attempts: 4 } });
    const sleeps = retrySleeps();
    const { bot } = await patient.createBot({ name: 'after the limit' });
    expect(bot.name).toBe('after the limit');
    // It waited as the server's Retry-After said, each wait at most the 1 s window (not a backoff of its own).
    expect(sleeps.length).toBeGreaterThan(0);
    for (const ms of sleeps) expect(ms).toBeLessThanOrEqual(1000);
    const bots = await p
      .client({ retry: { attempts: 4 } })
      .list.bots()
      .collect();
    expect(bots.filter((b) => b.name === 'after the limit')).toHaveLength(1);
  });
});

describe('bodies that are not wire errors', () => {
  it('become UnknownError with the HTTP status; an unknown type stays an ApiError', async () => {
    const bodies: Array<[number, string, string]> = [
      [502, 'text/html', '<html>Bad gateway</html>'],
      [500, 'application/json', ''],
      [400, 'application/json', JSON.stringify({ message: 'missing id, code and type' })],
      [418, 'application/json', JSON.stringify(wireError(418, 'Teapot'))],
      [404, 'application/json', JSON.stringify(wireError(404, 'ResourceNotFound'))],
    ];
    const fake = await startFakeServer((req, res, i) => {
      const [status, type, body] = bodies[i] as [number, string, string];
      res.writeHead(status, { 'content-type': type });
      res.end(body);
      void req;
    });
    const client = new Client({ apiUrl: fake.url, token: 't', retry: { attempts: 1 } });
    try {
      const html = await failure(client.getBot({ id: 'x' }));
      expect(html).toBeInstanceOf(UnknownError);
      expect(html).toMatchObject({ code: 502, status: 502, type: 'Unknown' });
      expect(isApiError(html)).toBe(true);
      expect((html as ApiError).message).toContain('Bad gateway');
      expect((html as ApiError).id).toMatch(ERROR_ID);

      const empty = await failure(client.getBot({ id: 'x' }));
      expect(empty).toBeInstanceOf(UnknownError);
      expect(empty).toMatchObject({ code: 500 });

      const partial = await failure(client.getBot({ id: 'x' }));
      expect(partial).toBeInstanceOf(UnknownError);
      expect(partial).toMatchObject({ code: 400, status: 400 });

      const teapot = await failure(client.getBot({ id: 'x' }));
      expect(teapot).toBeInstanceOf(ApiError);
      expect(teapot).not.toBeInstanceOf(UnknownError);
      expect(teapot).toMatchObject({ type: 'Teapot', code: 418, name: 'ApiError' });

      expect(await failure(client.getBot({ id: 'x' }))).toBeInstanceOf(ResourceNotFoundError);
    } finally {
      await fake.close();
    }
  });

  it('turns a 2xx answer that is not JSON into UnknownError', async () => {
    const fake = await startFakeServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello');
    });
    try {
      const e = await failure(new Client({ apiUrl: fake.url }).getBot({ id: 'x' }));
      expect(e).toBeInstanceOf(UnknownError);
      expect(e).toMatchObject({ code: 200 });
    } finally {
      await fake.close();
    }
  });

  it('answers {} for an empty 2xx body', async () => {
    const fake = await startFakeServer((_req, res) => {
      res.writeHead(200);
      res.end();
    });
    try {
      expect(await new Client({ apiUrl: fake.url }).deleteBot({ id: 'x' })).toEqual({});
    } finally {
      await fake.close();
    }
  });
});
