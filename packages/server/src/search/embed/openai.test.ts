import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { flood } from '../../../../testkit/src/server/flood.js';
import { EmbedderError } from './errors.js';
import { embeddingsUrl, OpenAiEmbedder, type OpenAiEmbedderOptions, parseRetryAfter } from './openai.js';

interface Seen {
  headers: IncomingMessage['headers'];
  body: { model: string; input: string[]; dimensions?: number };
  at: number;
}

type Handler = (seen: Seen, response: ServerResponse, count: number) => void;

/** A vector that tells its text apart: [length, first char code, 1, 0…] (not unit length on purpose). */
const vectorOf = (text: string, width = 4): number[] => {
  const vector = new Array<number>(width).fill(0);
  vector[0] = text.length;
  vector[1] = text.charCodeAt(0) || 1;
  vector[2] = 1;
  return vector;
};

const answer = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};

const ok: Handler = (seen, response) =>
  answer(response, 200, {
    object: 'list',
    data: seen.body.input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) })),
    model: seen.body.model,
  });

let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
let handler: Handler = ok;

beforeAll(async () => {
  server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      raw += chunk;
    });
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/embeddings') {
        answer(response, 404, { error: { message: `no route ${request.method} ${request.url}` } });
        return;
      }
      const entry: Seen = { headers: request.headers, body: JSON.parse(raw) as Seen['body'], at: Date.now() };
      seen.push(entry);
      handler(entry, response, seen.length);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

beforeEach(() => {
  seen = [];
  handler = ok;
});

const make = (options: Partial<OpenAiEmbedderOptions> = {}): OpenAiEmbedder =>
  new OpenAiEmbedder({ baseUrl, model: 'test-embed', apiKey: 'sk-test', retryBaseDelayMs: 10, ...options });

const norm = (vector: Float32Array): number => Math.hypot(...vector);

/**
 * Embeds ['x'] with `options` and expects it to fail with `failure` (its code, whether it may be retried,
 * words its message holds), after `requests` requests.
 */
const expectFails = async (
  options: Partial<OpenAiEmbedderOptions>,
  failure: { code: string; retryable: boolean; says: string },
  requests: number,
) => {
  await expect(make(options).embed(['x'])).rejects.toMatchObject({
    code: failure.code,
    retryable: failure.retryable,
    message: expect.stringContaining(failure.says),
  });
  expect(seen).toHaveLength(requests);
};

describe('OpenAiEmbedder', () => {
  it('sends batches of batchSize texts, with the key, and returns unit vectors in input order', async () => {
    const embedder = make({ batchSize: 3, concurrency: 1 });
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff', 'g', 'hh'];
    const vectors = await embedder.embed(texts);
    expect(seen.map((request) => request.body.input)).toEqual([
      ['a', 'bb', 'ccc'],
      ['dddd', 'eeeee', 'ffffff'],
      ['g', 'hh'],
    ]);
    expect(seen[0]?.body.model).toBe('test-embed');
    expect(seen[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    expect(vectors).toHaveLength(8);
    vectors.forEach((vector, i) => {
      const expected = vectorOf(texts[i] as string);
      const length = Math.hypot(...expected);
      expect(norm(vector)).toBeCloseTo(1, 6);
      expect(vector[0]).toBeCloseTo((expected[0] as number) / length, 6);
    });
    expect(embedder.id).toBe('openai:test-embed');
    expect(embedder.dimensions).toBe(4); // learnt from the answer
  });

  it('runs up to `concurrency` requests at once', async () => {
    let inFlight = 0;
    let most = 0;
    handler = (entry, response) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        ok(entry, response, 0);
      }, 30);
    };
    const vectors = await make({ batchSize: 1, concurrency: 3 }).embed(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(vectors.map((vector) => vector[1])).toEqual(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((text) => {
        const v = vectorOf(text);
        return Math.fround((v[1] as number) / Math.hypot(...v));
      }),
    );
    expect(most).toBe(3);
  });

  it('puts answers back in input order by their index', async () => {
    handler = (entry, response) =>
      answer(response, 200, {
        data: entry.body.input.map((text, index) => ({ index, embedding: vectorOf(text) })).reverse(),
      });
    const [first, second] = await make().embed(['x', 'yyyyy']);
    expect(first?.[0]).toBeLessThan(second?.[0] as number);
  });

  it('accepts base64 embeddings', async () => {
    handler = (entry, response) =>
      answer(response, 200, {
        data: entry.body.input.map((text, index) => ({
          index,
          embedding: Buffer.from(new Float32Array(vectorOf(text)).buffer).toString('base64'),
        })),
      });
    const [vector] = await make().embed(['abc']);
    expect(vector).toHaveLength(4);
    expect(norm(vector as Float32Array)).toBeCloseTo(1, 6);
  });

  it('returns [] for no texts without a request, and sends an empty text as a blank', async () => {
    const embedder = make();
    await expect(embedder.embed([])).resolves.toEqual([]);
    expect(seen).toHaveLength(0);
    await embedder.embed(['', 'x']);
    expect(seen[0]?.body.input).toEqual([' ', 'x']);
  });

  it('honours Retry-After (seconds) on 429, then succeeds', async () => {
    handler = (entry, response, count) => {
      if (count === 1)
        answer(response, 429, { error: { message: 'Rate limit reached' } }, { 'retry-after': '1' });
      else ok(entry, response, count);
    };
    await expect(make().embed(['hello'])).resolves.toHaveLength(1);
    expect(seen).toHaveLength(2);
    // Not before the second it asked for (a wait read as minutes would outlast the test's own time; as
    // milliseconds, fail this).
    expect((seen[1]?.at as number) - (seen[0]?.at as number)).toBeGreaterThanOrEqual(950);
  });

  it('honours retry-after-ms, and backs off on 5xx until the service recovers', async () => {
    handler = (entry, response, count) => {
      if (count === 1)
        answer(response, 429, { error: { message: 'slow down' } }, { 'retry-after-ms': '200' });
      else if (count <= 3) answer(response, 503, { error: { message: 'overloaded' } });
      else ok(entry, response, count);
    };
    await expect(make().embed(['hello'])).resolves.toHaveLength(1);
    expect(seen).toHaveLength(4);
    expect((seen[1]?.at as number) - (seen[0]?.at as number)).toBeGreaterThanOrEqual(190);
  });

  it('gives up after maxRetries with a retryable error carrying the status', async () => {
    handler = (_entry, response) => answer(response, 500, { error: { message: 'boom' } });
    const error = await make({ maxRetries: 2 })
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbedderError);
    expect(error).toMatchObject({ code: 'http_error', status: 500, retryable: true });
    expect((error as Error).message).toContain('boom');
    expect(seen).toHaveLength(3);
  });

  it('fails at once (retryable) when Retry-After asks for longer than maxRetryDelayMs', async () => {
    handler = (_entry, response) =>
      answer(response, 429, { error: { message: 'quota' } }, { 'retry-after': '120' });
    await expect(make({ maxRetryDelayMs: 5_000 }).embed(['x'])).rejects.toMatchObject({
      code: 'rate_limited',
      status: 429,
      retryable: true,
      retryAfterMs: 120_000,
    });
    expect(seen).toHaveLength(1);
  });

  it('surfaces a 4xx with the service’s own message, without retrying', async () => {
    handler = (_entry, response) =>
      answer(response, 400, {
        error: {
          message: "This model's maximum context length is 8192 tokens.",
          type: 'invalid_request_error',
        },
      });
    const error = await make()
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'http_error', status: 400, retryable: false });
    expect((error as Error).message).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings answered 400 Bad Request: This model's maximum context length is 8192 tokens\.$/,
    );
    expect(seen).toHaveLength(1);
  });

  it('says to check the key on 401, and never echoes it', async () => {
    handler = (_entry, response) =>
      answer(response, 401, { error: { message: 'Incorrect API key provided' } });
    const error = (await make({ apiKey: 'sk-secret-123' })
      .embed(['x'])
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('Incorrect API key provided (check the API key)');
    expect(error.message).not.toContain('sk-secret-123');
  });

  it('times out a request that does not answer, retrying within its bound', async () => {
    handler = () => {}; // never answers
    // The 150 ms bound's own words, after both attempts reached the service (a bound not kept hangs until the
    // test's own time).
    await expectFails(
      { timeoutMs: 150, maxRetries: 1 },
      { code: 'timeout', retryable: true, says: 'did not answer within 150 ms' },
      2,
    );
  });

  it('stops reading an answer that never ends and fails bad_response, without retrying', async () => {
    const floods: Array<Promise<number>> = [];
    handler = (_seen, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      floods.push(flood(response, '{"data":[{"index":0,"embedding":[', '0.125,'.repeat(10_000)));
    };
    // Cut by the cap (bad_response), not by the 30 s time bound (timeout), and not retried.
    await expectFails(
      { timeoutMs: 30_000, maxRetries: 2 },
      { code: 'bad_response', retryable: false, says: 'answered too much' },
      1,
    );
    // The connection was closed once the cap was passed: far less than the endless answer was sent.
    const [sent] = await Promise.all(floods);
    expect(sent).toBeLessThan(256 * 1024 * 1024);
  });

  it('refuses at once an answer whose declared length is over the cap', async () => {
    handler = (_seen, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 ** 31) });
      response.write('{');
    };
    await expect(make({ timeoutMs: 30_000 }).embed(['x'])).rejects.toMatchObject({ code: 'bad_response' });
  });

  it('reports an unreachable service as a retryable network error', async () => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as AddressInfo).port;
    probe.close();
    await once(probe, 'close');
    await expect(
      make({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 }).embed(['x']),
    ).rejects.toMatchObject({
      code: 'network_error',
      retryable: true,
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('rejects answers of the wrong shape or width', async () => {
    handler = (_entry, response) => answer(response, 200, { data: [{ index: 0, embedding: [1, 0] }] });
    await expect(make().embed(['a', 'b'])).rejects.toMatchObject({
      code: 'bad_response',
      message: expect.stringContaining('1 embeddings for 2 inputs'),
    });
    handler = ok;
    await expect(make({ dimensions: 1536 }).embed(['a'])).rejects.toMatchObject({
      code: 'bad_response',
      message: expect.stringContaining('vectors of 4 dimensions where 1536 are expected'),
    });
    handler = (_entry, response) => answer(response, 200, { data: [{ index: 0, embedding: [0, 0, 0, 0] }] });
    await expect(make().embed(['a'])).rejects.toMatchObject({ code: 'bad_response' });
    handler = (_entry, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>proxy login</html>');
    };
    await expect(make().embed(['a'])).rejects.toMatchObject({
      code: 'bad_response',
      message: expect.stringContaining('not JSON (<html>proxy login</html>)'),
    });
  });

  it('stops waiting to retry as soon as the caller aborts', async () => {
    handler = (_entry, response) => answer(response, 503, { error: { message: 'down' } });
    const controller = new AbortController();
    const reason = new Error('client went away');
    // A retry delay of ten minutes at least (backoff takes off up to a quarter): a wait the abort does not end
    // outlasts the test's own time.
    const pending = make({ retryBaseDelayMs: 800_000, maxRetryDelayMs: 800_000 }).embed(
      ['x'],
      controller.signal,
    );
    setTimeout(() => controller.abort(reason), 100);
    await expect(pending).rejects.toBe(reason);
    expect(seen).toHaveLength(1);
  });

  it('close() fails calls in flight and refuses new ones', async () => {
    let arrived = () => {};
    const inFlight = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    handler = () => arrived();
    const embedder = make({ timeoutMs: 10_000 });
    const pending = embedder.embed(['x']).catch((e: unknown) => e);
    await inFlight; // the call reached the server and waits for its answer
    await embedder.close();
    expect(await pending).toMatchObject({ code: 'closed' });
    await expect(embedder.embed(['y'])).rejects.toMatchObject({ code: 'closed' });
  });

  it('ready() learns the dimensions with one probe request', async () => {
    const embedder = make();
    expect(embedder.dimensions).toBe(0);
    await embedder.ready();
    await embedder.ready();
    expect(embedder.dimensions).toBe(4);
    expect(seen).toHaveLength(1);
  });

  it('sends dimensions when asked to', async () => {
    handler = (entry, response) =>
      answer(response, 200, {
        data: entry.body.input.map((text, index) => ({
          index,
          embedding: vectorOf(text, entry.body.dimensions),
        })),
      });
    const vectors = await make({ dimensions: 8, requestDimensions: true }).embed(['a']);
    expect(seen[0]?.body.dimensions).toBe(8);
    expect(vectors[0]).toHaveLength(8);
  });
});

describe('embeddingsUrl', () => {
  it.each([
    ['https://api.openai.com', 'https://api.openai.com/v1/embeddings'],
    ['https://api.openai.com/', 'https://api.openai.com/v1/embeddings'],
    ['https://api.openai.com/v1', 'https://api.openai.com/v1/embeddings'],
    ['http://localhost:11434/v1/', 'http://localhost:11434/v1/embeddings'],
    ['https://gateway.example/openai', 'https://gateway.example/openai/v1/embeddings'],
  ])('turns %s into %s', (base, url) => {
    expect(embeddingsUrl(base).href).toBe(url);
  });

  it('refuses what is not an http(s) URL', () => {
    expect(() => embeddingsUrl('api.openai.com')).toThrow(/not a URL/);
    expect(() => embeddingsUrl('ftp://x')).toThrow(/http/);
  });
});

describe('parseRetryAfter', () => {
  const headers = (init: Record<string, string>) => new Headers(init);
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '2' }))).toBe(2_000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(3_000);
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
  });
});

describe('OpenAiEmbedder settings', () => {
  it('refuses missing or invalid settings', () => {
    expect(() => new OpenAiEmbedder({ baseUrl, model: '' })).toThrow(/model/);
    expect(() => new OpenAiEmbedder({ baseUrl, model: 'm', batchSize: 0 })).toThrow(/batchSize/);
    expect(() => new OpenAiEmbedder({ baseUrl, model: 'm', requestDimensions: true })).toThrow(/dimensions/);
  });
});
