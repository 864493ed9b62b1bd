// The backstop of issue #31, finding 3: `startServer` freezes Object.prototype once the app is built (never at
// import), and the service works with it frozen: the Admin, Files and Chat APIs, the webchat configuration and
// sign-in. Vitest runs each test file in a process of its own, so the freeze stays inside this file.
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testkit/src/server/cli.js';
import { useTempDirs } from '../../testkit/src/server/temp-dirs.js';
import { loadConfig } from './config/config.js';
import { type RunningServer, startServer } from './server.js';

const tempDir = useTempDirs('parley-harden-');

describe('startServer', () => {
  let server: RunningServer | undefined;
  afterAll(() => server?.close());

  it('freezes Object.prototype, and serves every API with it frozen', async () => {
    expect(Object.isFrozen(Object.prototype)).toBe(false);
    const port = await freePort();
    server = await startServer(
      loadConfig({
        PARLEY_DATA_DIR: await tempDir(),
        PORT: String(port),
        HOST: '127.0.0.1',
        PARLEY_EMBEDDER: 'none',
        PARLEY_LOG_LEVEL: 'silent',
        PARLEY_RATE_LIMIT_MAX: '0',
      }),
    );
    expect(Object.isFrozen(Object.prototype)).toBe(true);
    // Module code is strict: a write to the frozen prototype throws instead of reaching every object.
    expect(() => {
      (Object.prototype as Record<string, unknown>).anyOf = ['x'];
    }).toThrow(TypeError);
    expect(({} as Record<string, unknown>).anyOf).toBeUndefined();

    const { info } = server.bootstrap;
    const base = `http://127.0.0.1:${port}`;
    const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const owner = { authorization: `Bearer ${info.token}`, 'x-workspace-id': info.workspaceId };
    const bot = { authorization: `Bearer ${info.botAccessKey}`, 'x-bot-id': info.botId };

    expect((await call('GET', '/v1/admin/bots?tags.team=a', owner)).status).toBe(200);
    expect((await call('GET', '/v1/admin/bots?tags.__proto__=x', owner)).status).toBe(400);
    expect(
      (await call('PUT', `/v1/admin/bots/${info.botId}/webchat`, owner, { configuration: { botName: 'F' } }))
        .status,
    ).toBe(200);
    expect((await call('GET', `/webchat/v1/bots/${info.botId}/config`, {})).status).toBe(200);
    const file = await call('PUT', '/v1/files', bot, {
      key: 'a.txt',
      size: 1,
      tags: { t: 'v' },
      metadata: { m: 1 },
    });
    expect(file.status).toBe(200);
    expect((await call('GET', '/v1/files?tags[t]=v', bot)).status).toBe(200);
    const user = await call('POST', `/v1/chat/${info.botId}/users`, {}, { name: 'U' });
    expect(user.status).toBe(201);
    const key = { 'x-user-key': String(user.body.key) };
    const conversation = await call('POST', `/v1/chat/${info.botId}/conversations`, key, {});
    expect(conversation.status).toBe(201);
    const conversationId = (conversation.body.conversation as { id: string }).id;
    const message = await call('POST', `/v1/chat/${info.botId}/messages`, key, {
      conversationId,
      payload: { type: 'text', text: 'hello' },
    });
    expect(message.status).toBe(201);
    const signIn = await call(
      'POST',
      '/v1/admin/account/sessions',
      {},
      { email: info.email, password: info.password },
    );
    expect(signIn.status).toBe(201);
    expect((await call('GET', '/v1/admin/nowhere', owner)).body).toMatchObject({
      code: 404,
      type: 'ResourceNotFound',
    });
  });
});
