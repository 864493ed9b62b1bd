import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { retrySleeps } from '../../testkit/src/client/retry-sleeps.js';
import {
  closedPort,
  failure,
  json,
  type Received,
  startFakeServer,
  wireError,
} from '../../testkit/src/client/servers.js';
import { Client } from './client.js';
import { InternalError, InvalidPayloadError, RateLimitedError, UnknownError } from './errors.js';
import { backoffDelay, DEFAULT_RETRY, parseRetryAfter } from './http.js';
import { AbortError, ConnectionError, TimeoutError } from './local-errors.js';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;
const fakes: Fake[] = [];

/** A fake server answering, in turn, each of `answers`; the last one repeats. */
async function scripted(...answers: Array<(res: ServerResponse, req: Received) => void>): Promise<Fake> {
  const fake = await startFakeServer((req, res, i) => {
    const answer = answers[Math.min(i, answers.length - 1)];
    answer?.(res, req);
  });
  fakes.push(fake);
  return fake;
}

const status503 = (res: ServerResponse) => json(res, 503, wireError(503, 'Internal', 'unavailable'));
const ok = (res: ServerResponse) => json(res, 200, { bot: { id: 'b1' } });
const hang = () => {};

/** A client of a fake server with fast retries. */
const clientOf = (fake: Fake, retry: ConstructorParameters<typeof Client>[0] = {}) =>
  new Client({
    apiUrl: fake.url,
    token: 'pat_test',
    workspaceId: 'wkspace_1',
    retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 50 },
    ...retry,
  });

/**
 * A GET answered `refusal`, then ok: how long the server saw between the two requests (`waited`, in ms), the
 * waits the client asked for (`sleeps`) and the requests.
 */
async function waitBeforeRetry(refusal: (res: ServerResponse) => void) {
  const fake = await scripted(refusal, ok);
  const sleeps = retrySleeps();
  await clientOf(fake).getBot({ id: 'b1' });
  const [first, second] = fake.received as [Received, Received];
  return { waited: second.at - first.at, sleeps, first, second };
}

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

describe('retries', () => {
  it('retries a GET on 503 until it succeeds', async () => {
    const fake = await scripted(status503, status503, ok);
    expect(await clientOf(fake).getBot({ id: 'b1' })).toEqual({ bot: { id: 'b1' } });
    expect(fake.received.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
  });

  it('gives up after the configured attempts with the last error', async () => {
    const fake = await scripted(status503);
    const e = await failure(clientOf(fake).getBot({ id: 'b1' }));
    expect(e).toBeInstanceOf(InternalError);
    expect(e).toMatchObject({ status: 503 });
    expect(fake.received).toHaveLength(3);

    const once = await scripted(status503);
    await failure(clientOf(once, { retry: { attempts: 1 } }).getBot({ id: 'b1' }));
    expect(once.received).toHaveLength(1);
  });

  it('retries PUT and DELETE (idempotent) on 5xx, including bodies that are not JSON', async () => {
    const fake = await scripted(
      (res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<h1>bad gateway</h1>');
      },
      (res) => json(res, 200, {}),
    );
    expect(await clientOf(fake).deleteBot({ id: 'b1' })).toEqual({});
    const put = await scripted(status503, (res) => json(res, 200, { bot: { id: 'b1' } }));
    await clientOf(put).updateBot({ id: 'b1', name: 'n' });
    expect(put.received.map((r) => [r.method, r.body])).toEqual([
      ['PUT', '{"name":"n"}'],
      ['PUT', '{"name":"n"}'],
    ]);
  });

  it('does not retry a POST on 503, nor any request on a 4xx other than 429', async () => {
    const fake = await scripted(status503, ok);
    const e = await failure(clientOf(fake).createBot({ name: 'x' }));
    expect(e).toBeInstanceOf(InternalError);
    expect(fake.received).toHaveLength(1);

    const bad = await scripted((res) => json(res, 400, wireError(400, 'InvalidPayload')), ok);
    expect(await failure(clientOf(bad).getBot({ id: 'b' }))).toBeInstanceOf(InvalidPayloadError);
    expect(bad.received).toHaveLength(1);
  });

  it('retries a POST on 429, which the server refused before doing anything', async () => {
    const fake = await scripted((res) => json(res, 429, wireError(429, 'RateLimited')), ok);
    expect(await clientOf(fake).createBot({ name: 'x' })).toEqual({ bot: { id: 'b1' } });
    expect(fake.received.map((r) => r.method)).toEqual(['POST', 'POST']);
  });

  it('waits the Retry-After seconds before retrying', async () => {
    const { waited, sleeps } = await waitBeforeRetry((res) =>
      json(res, 429, wireError(429, 'RateLimited'), { 'retry-after': '1' }),
    );
    // One wait of the second asked for, no more (the backoff is not added), and the retry came after it.
    expect(sleeps).toEqual([1000]);
    expect(waited).toBeGreaterThanOrEqual(950);
  });

  it('waits until a Retry-After HTTP date, on a 503 too', async () => {
    let until = 0;
    const { waited, sleeps, first, second } = await waitBeforeRetry((res) => {
      const date = new Date(Date.now() + 2000);
      until = Math.floor(date.getTime() / 1000) * 1000; // an HTTP date has whole seconds
      json(res, 503, wireError(503, 'Internal'), { 'retry-after': date.toUTCString() });
    });
    // One wait, until the date as the client's clock read it between the two requests: at most 2 s.
    expect(sleeps).toHaveLength(1);
    const [sleep] = sleeps as [number];
    expect(sleep).toBeLessThanOrEqual(until - first.at);
    expect(sleep).toBeGreaterThanOrEqual(until - second.at);
    // The date was over a second ahead when the answer was made, after the first request arrived.
    expect(waited).toBeGreaterThanOrEqual(1000);
  });

  it('throws at once when Retry-After is longer than maxRetryAfterMs, telling how long to wait', async () => {
    const fake = await scripted((res) =>
      json(res, 429, wireError(429, 'RateLimited'), { 'retry-after': '120' }),
    );
    const sleeps = retrySleeps();
    const e = await failure(clientOf(fake).getBot({ id: 'b1' }));
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e).toMatchObject({ retryAfterMs: 120_000 });
    expect(fake.received).toHaveLength(1);
    // At once: the client waited for nothing (not the 120 s, nor a backoff).
    expect(sleeps).toEqual([]);
  });

  it('computes capped exponential backoff with full jitter', () => {
    const settings = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(1, settings, () => 0.999)).toBe(99);
    expect(backoffDelay(2, settings, () => 0.999)).toBe(199);
    expect(backoffDelay(4, settings, () => 0.999)).toBe(799);
    expect(backoffDelay(10, settings, () => 0.999)).toBe(999);
    expect(backoffDelay(3, settings, () => 0)).toBe(0);
    for (let i = 0; i < 100; i++) expect(backoffDelay(3, settings)).toBeLessThan(400);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
  });
});

describe('timeouts, aborts and connection failures', () => {
  it('throws TimeoutError when the server never answers', async () => {
    const fake = await scripted(hang);
    const started = Date.now();
    const e = await failure(clientOf(fake, { timeout: 200, retry: { attempts: 1 } }).getBot({ id: 'b' }));
    // The 200 ms timeout's own error, once the server held the request that long (a timeout not applied would
    // leave the call hanging until the test's own time).
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e).toMatchObject({ timeoutMs: 200, name: 'TimeoutError' });
    expect((e as Error).message).toContain('got no complete answer within 200 ms');
    expect(fake.received).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('times out each attempt: a GET is tried again, a POST is not', async () => {
    const fake = await scripted(hang);
    const client = clientOf(fake, { timeout: 150, retry: { attempts: 2, baseDelayMs: 1 } });
    expect(await failure(client.getBot({ id: 'b' }))).toBeInstanceOf(TimeoutError);
    expect(fake.received).toHaveLength(2);
    expect(await failure(client.createBot({ name: 'x' }))).toBeInstanceOf(TimeoutError);
    expect(fake.received).toHaveLength(3);
  });

  it('takes a per-call timeout', async () => {
    const fake = await scripted(hang);
    const client = clientOf(fake, { retry: { attempts: 1 } });
    const e = await failure(client.getBot({ id: 'b' }, { timeout: 100 }));
    expect(e).toMatchObject({ timeoutMs: 100 });
  });

  it('throws AbortError without sending anything when the signal is already aborted', async () => {
    const fake = await scripted(ok);
    const e = await failure(clientOf(fake).getBot({ id: 'b' }, { signal: AbortSignal.abort() }));
    expect(e).toBeInstanceOf(AbortError);
    expect(fake.received).toHaveLength(0);
  });

  it('throws AbortError (not TimeoutError) when the caller aborts a request in flight', async () => {
    // The caller aborts once the server holds the request (it never answers), so the abort lands in flight
    // however slowly the request got there.
    // An abort not heeded would end in the 60 s default timeout's TimeoutError, after the test's own time.
    const controller = new AbortController();
    const fake = await scripted(() => controller.abort());
    const e = await failure(clientOf(fake).getBot({ id: 'b' }, { signal: controller.signal }));
    expect(e).toBeInstanceOf(AbortError);
    expect(fake.received).toHaveLength(1);
  });

  it('throws AbortError when the caller aborts while waiting to retry', async () => {
    // A wait of 50 s, longer than the test's own time: a wait the abort does not end fails the test.
    const fake = await scripted((res) => json(res, 503, wireError(503, 'Internal'), { 'retry-after': '50' }));
    const controller = new AbortController();
    // The caller aborts once the wait has begun (right after the client asked for its timer).
    const sleeps = retrySleeps(() => queueMicrotask(() => controller.abort(new Error('user left'))));
    const e = await failure(clientOf(fake).getBot({ id: 'b' }, { signal: controller.signal }));
    expect(e).toBeInstanceOf(AbortError);
    expect((e as AbortError).message).toContain('user left');
    expect(sleeps).toEqual([50_000]);
    expect(fake.received).toHaveLength(1);
  });

  it('aborts a page iteration with the signal', async () => {
    const fake = await scripted(
      (res) => json(res, 200, { bots: [{ id: 'a' }], meta: { nextToken: 'n1' } }),
      hang,
    );
    const controller = new AbortController();
    const seen: string[] = [];
    const e = await failure(
      (async () => {
        for await (const bot of clientOf(fake).listBots({}, { signal: controller.signal })) {
          seen.push(bot.id);
          setTimeout(() => controller.abort(), 50);
        }
      })(),
    );
    expect(seen).toEqual(['a']);
    expect(e).toBeInstanceOf(AbortError);
  });

  it('throws ConnectionError on a closed port, after retrying an idempotent request', async () => {
    const port = await closedPort();
    let calls = 0;
    const client = new Client({
      apiUrl: `http://127.0.0.1:${port}`,
      retry: { attempts: 2, baseDelayMs: 1 },
      fetch: (input, init) => {
        calls += 1;
        return fetch(input, init);
      },
    });
    const e = await failure(client.getBot({ id: 'b' }));
    expect(e).toBeInstanceOf(ConnectionError);
    expect((e as ConnectionError).message).toContain('ECONNREFUSED');
    expect((e as ConnectionError).cause).toBeDefined();
    expect(calls).toBe(2);
    calls = 0;
    expect(await failure(client.createBot({ name: 'x' }))).toBeInstanceOf(ConnectionError);
    expect(calls).toBe(1);
  });
});

describe('requests', () => {
  it('sends the token and context headers, JSON only with a body, and per-call overrides', async () => {
    const fake = await scripted((res) => json(res, 200, { bot: { id: 'b' } }));
    const client = new Client({
      apiUrl: `${fake.url}/`,
      token: 'pat_abc',
      workspaceId: 'wkspace_1',
      botId: 'bot_1',
      integrationId: 'int_1',
      headers: { 'x-extra': 'yes' },
    });
    await client.getBot({ id: 'b' });
    await client.createBot({ name: 'n' }, { workspaceId: 'wkspace_2', headers: { 'x-call': '1' } });
    await client.getWorkspace({ id: 'wkspace_3' });
    const [get, post, ws] = fake.received as [Received, Received, Received];
    expect(get.url).toBe('/v1/admin/bots/b');
    expect(get.headers).toMatchObject({
      authorization: 'Bearer pat_abc',
      'x-workspace-id': 'wkspace_1',
      'x-bot-id': 'bot_1',
      'x-integration-id': 'int_1',
      'x-extra': 'yes',
      accept: 'application/json',
    });
    expect(get.headers['content-type']).toBeUndefined();
    expect(get.body).toBe('');
    expect(post.headers).toMatchObject({
      'x-workspace-id': 'wkspace_2',
      'content-type': 'application/json',
      'x-call': '1',
    });
    expect(JSON.parse(post.body)).toEqual({ name: 'n' });
    expect(ws.headers['x-workspace-id']).toBe('wkspace_3');
  });

  it('sends no body and no Content-Type on DELETE and on PUT without parameters', async () => {
    const fake = await scripted((res) => json(res, 200, {}));
    const client = clientOf(fake);
    await client.deleteBot({ id: 'b' });
    await client.installIntegration({ id: 'b', integrationId: 'i' });
    for (const r of fake.received) {
      expect(r.headers['content-type']).toBeUndefined();
      expect(r.body).toBe('');
    }
    expect(fake.received.map((r) => `${r.method} ${r.url}`)).toEqual([
      'DELETE /v1/admin/bots/b',
      'PUT /v1/admin/bots/b/integrations/i',
    ]);
  });

  it('encodes list queries with dots and repeated keys', async () => {
    const fake = await scripted((res) => json(res, 200, { bots: [], meta: {} }));
    await clientOf(fake).listBots({
      pageSize: 5,
      dev: false,
      tags: { team: ['a', 'b'], env: { not: 'x' } },
    });
    expect(decodeURIComponent(fake.received[0]?.url ?? '')).toBe(
      '/v1/admin/bots?pageSize=5&dev=false&tags.team=a&tags.team=b&tags.env.not=x',
    );
  });

  it('falls back to PARLEY_* environment variables; options win', async () => {
    const fake = await scripted((res) => json(res, 200, { bots: [], meta: {} }));
    vi.stubEnv('PARLEY_TOKEN', 'pat_env');
    vi.stubEnv('PARLEY_API_URL', fake.url);
    vi.stubEnv('PARLEY_WORKSPACE_ID', 'wkspace_env');
    vi.stubEnv('PARLEY_BOT_ID', 'bot_env');
    const fromEnv = new Client();
    expect(fromEnv).toMatchObject({ apiUrl: fake.url, workspaceId: 'wkspace_env', botId: 'bot_env' });
    await fromEnv.listBots();
    await new Client({ token: 'pat_opt', workspaceId: 'wkspace_opt' }).listBots();
    const [env, opt] = fake.received as [Received, Received];
    expect(env.headers).toMatchObject({
      authorization: 'Bearer pat_env',
      'x-workspace-id': 'wkspace_env',
      'x-bot-id': 'bot_env',
    });
    expect(opt.headers).toMatchObject({ authorization: 'Bearer pat_opt', 'x-workspace-id': 'wkspace_opt' });
  });

  it('defaults to a local server, a 60 s timeout and 3 attempts', () => {
    vi.stubEnv('PARLEY_API_URL', '');
    const client = new Client();
    expect(client.apiUrl).toBe('http://127.0.0.1:3000');
    expect(client.timeout).toBe(60_000);
    expect(DEFAULT_RETRY.attempts).toBe(3);
  });

  it('rejects an empty path parameter before sending', async () => {
    const fake = await scripted(ok);
    await expect(clientOf(fake).getBot({ id: '' })).rejects.toBeInstanceOf(TypeError);
    expect(fake.received).toHaveLength(0);
  });

  it('reports a 2xx body that is not JSON as UnknownError', async () => {
    const fake = await scripted((res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html></html>');
    });
    expect(await failure(clientOf(fake).getBot({ id: 'b' }))).toBeInstanceOf(UnknownError);
  });
});
