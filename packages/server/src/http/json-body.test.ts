import { beforeAll, describe, expect, it } from 'vitest';
import { jsonDepth, pathTooDeep } from '../json-depth.js';
import { chatClient } from '../test-support/chat.js';
import { useTestApp } from '../test-support/fixtures.js';
import { MAX_JSON_DEPTH } from './json-body.js';

/** `{"a":{"a":…{"leaf":1}…}}` nested `levels` deep, as text. */
const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"leaf":1}${'}'.repeat(levels - 1)}`;

describe('JSON body depth', () => {
  it('counts nesting without parsing, ignoring brackets inside strings', () => {
    expect(jsonDepth('{"a":[1,{"b":"[[[{{{"}]}')).toBe(3);
    expect(jsonDepth('"just a string with { and \\" ["')).toBe(0);
    expect(jsonDepth(nested(100))).toBe(100);
    expect(pathTooDeep(JSON.parse('{"x":{"y":[{"z":1}]}}'), 2)).toEqual(['x', 'y']);
    expect(pathTooDeep({ shallow: { ok: true } }, 2)).toBeUndefined();
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
      `/v1/chat/${t.botId}/users`,
      `{"data":${'['.repeat(400_000)}${']'.repeat(400_000)}}`,
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

  it('accepts ordinary nesting', async () => {
    const users = await raw('POST', `/v1/chat/${t.botId}/users`, `{"name":"x","data":${nested(20)}}`);
    expect(users.statusCode).toBe(201);
  });
});
