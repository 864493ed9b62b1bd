import { beforeAll, describe, expect, it, vi } from 'vitest';
import { chatClient } from '../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../testkit/src/server/fixtures.js';
import { answerUntil, rawSocket } from '../../../testkit/src/server/raw-sockets.js';
import { JsonScan, pathTooDeep } from '../json-depth.js';
import { MAX_JSON_DEPTH } from './json-body.js';

/** `{"a":{"a":…{"leaf":1}…}}` nested `levels` deep, as text. */
const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"leaf":1}${'}'.repeat(levels - 1)}`;

/** The scan of `text` fed in chunks of `size` bytes: the deepest nesting and the path of the first too-deep value. */
function scan(text: string, maxDepth: number, size = Number.POSITIVE_INFINITY) {
  const bytes = Buffer.from(text);
  const s = new JsonScan(maxDepth);
  for (let at = 0; at < bytes.length; at += size) if (!s.write(bytes.subarray(at, at + size))) break;
  return { deepest: s.deepest, tooDeep: s.tooDeep };
}

describe('JSON body depth', () => {
  it('counts nesting without parsing, ignoring brackets inside strings', () => {
    expect(scan('{"a":[1,{"b":"[[[{{{"}]}', 64).deepest).toBe(3);
    expect(scan('"just a string with { and \\" ["', 64).deepest).toBe(0);
    expect(scan(nested(100), 100)).toEqual({ deepest: 100, tooDeep: undefined });
    expect(pathTooDeep(JSON.parse('{"x":{"y":[{"z":1}]}}'), 2)).toEqual(['x', 'y']);
    expect(pathTooDeep({ shallow: { ok: true } }, 2)).toBeUndefined();
  });

  it('names the first value nested too deep by keys and array indexes, four levels at most', () => {
    expect(scan('{"x":{"y":[{"z":1}]}}', 2).tooDeep).toEqual(['x', 'y']);
    expect(scan('{"a":1,"b":[0,"]",{"c":[[[1]]]}]}', 3).tooDeep).toEqual(['b', '2', 'c']);
    expect(scan('{"a":{"ok":true},"b":{"c":{}}}', 2).tooDeep).toEqual(['b', 'c']);
    expect(scan('[[[[[[[[1]]]]]]]]', 5).tooDeep).toEqual(['0', '0', '0', '0']);
    expect(scan(nested(4100), 64).tooDeep).toEqual(['a', 'a', 'a', 'a']);
    // Keys as JSON spells them: escapes resolved, non-ASCII kept, a key's ":" or "," not taken for syntax.
    expect(scan('{"q\\"uo\\u0074e":{"ünï, çödé: 1":{"k":{}}}}', 3).tooDeep).toEqual([
      'q"uote',
      'ünï, çödé: 1',
      'k',
    ]);
    expect(scan('{"a":{"b":1}}', 2).tooDeep).toBeUndefined();
  });

  it('gives the same answer whatever the chunks the bytes arrive in', () => {
    const text = '{"kéy \\"[{":[1,{"b":"]}\\\\"},{"c":{"d":[[["x"]]]}}]}';
    const whole = scan(text, 4);
    expect(whole.tooDeep).toEqual(['kéy "[{', '2', 'c', 'd']);
    for (const size of [1, 2, 3, 5, 7]) expect(scan(text, 4, size)).toEqual(whole);
  });
});

describe('deeply nested JSON is refused at write, and readers keep working', () => {
  const t = useTestApp();
  let chat: ReturnType<typeof chatClient>;
  beforeAll(async () => {
    chat = chatClient(t);
  });

  const raw = (method: 'POST' | 'PUT', url: string, payload: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, payload, headers: { 'content-type': 'application/json', ...headers } });

  it('answers 400 naming the field for chat user data, message metadata and file metadata 4,100 levels deep', async () => {
    const users = await raw('POST', `/v1/chat/${t.botId}/users`, `{"name":"x","data":${nested(4100)}}`);
    expect(users.statusCode).toBe(400);
    expect(users.json()).toMatchObject({
      type: 'InvalidPayload',
      metadata: {
        errors: [
          {
            field: 'data.a.a.a',
            message: `nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays`,
          },
        ],
      },
    });

    const alice = await chat.user();
    const conv = await chat.conversation(alice);
    const message = await raw(
      'POST',
      `/v1/chat/${t.botId}/messages`,
      `{"conversationId":"${conv}","payload":{"type":"text","text":"hi"},"metadata":${nested(4100)}}`,
      { 'x-user-key': alice.key },
    );
    expect(message.statusCode).toBe(400);
    expect(message.json()).toMatchObject({
      type: 'InvalidPayload',
      metadata: { errors: [{ field: 'metadata.a.a.a' }] },
    });

    const file = await raw('PUT', '/v1/files', `{"key":"deep.json","size":1,"metadata":${nested(4100)}}`, {
      authorization: `Bearer ${t.botKey}`,
      'x-bot-id': t.botId,
    });
    expect(file.statusCode).toBe(400);
    expect(file.json()).toMatchObject({ type: 'InvalidPayload' });

    // 400,000 levels (just under the 1 MB body limit): still a clear 400, never a 500 or a crash.
    const huge = await raw(
      'POST',
      `/v1/chat/${t.botId}/messages`,
      `{"conversationId":"${conv}","payload":${'['.repeat(400_000)}${']'.repeat(400_000)}}`,
      { 'x-user-key': alice.key },
    );
    expect(huge.statusCode).toBe(400);

    // Nothing was stored: every reader still answers.
    const messages = await chat.call('GET', `/conversations/${conv}/messages`, { key: alice.key });
    expect(messages.statusCode).toBe(200);
    expect((messages.json() as { messages: unknown[] }).messages).toEqual([]);
    const files = await t.app.inject({
      method: 'GET',
      url: '/v1/files',
      headers: { authorization: `Bearer ${t.botKey}`, 'x-bot-id': t.botId },
    });
    expect(files.statusCode).toBe(200);
    expect(files.body).not.toContain('deep.json');
  });

  it('refuses a body nested too deep from the scan, never parsing it', async () => {
    const body = `{"name":"x","data":{"list":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}}`;
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const res = await raw('POST', `/v1/chat/${t.botId}/users`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        type: 'InvalidPayload',
        metadata: { errors: [{ field: 'data.list.0.0' }] },
      });
      expect(parse.mock.calls.filter(([text]) => String(text).length >= body.length)).toEqual([]);
    } finally {
      parse.mockRestore();
    }
  });

  it('answers a body nested too deep as soon as the scan sees it, without waiting for the rest', async () => {
    const address = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    const { socket, connected, closed } = rawSocket('127.0.0.1', Number(address.port));
    await connected;
    const answered = answerUntil(socket, (answer) => answer.includes('\r\n\r\n{'));
    // 100 kB of a declared 200 kB arrive; the rest never does.
    socket.write(
      `POST /v1/chat/${t.botId}/users HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: 200000\r\n\r\n{"data":${'['.repeat(100_000)}`,
    );
    const answer = await answered;
    expect(answer).toMatch(/^HTTP\/1.1 400 /);
    expect(answer).toContain('"type":"InvalidPayload"');
    socket.destroy();
    await closed;
  }, 60_000);

  it('accepts ordinary nesting', async () => {
    const users = await raw('POST', `/v1/chat/${t.botId}/users`, `{"name":"x","data":${nested(20)}}`);
    expect(users.statusCode).toBe(201);
  });
});
