// Callers are authenticated before their body is read: an anonymous request to an authenticated route is
// answered 401 with its body unread and unparsed, and the routes anyone may call take small bodies only.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../testkit/src/server/fixtures.js';
import { answerUntil, rawSocket } from '../../../testkit/src/server/raw-sockets.js';
import { expectError } from '../../../testkit/src/server/wire.js';

describe('authentication before the body', () => {
  const t = useTestApp();

  /** Authenticated routes of each surface that take a JSON body, with headers naming a bot or workspace. */
  const routes = (): Array<{ method: 'POST' | 'PUT'; url: string; headers: Record<string, string> }> => [
    { method: 'POST', url: '/v1/admin/bots', headers: { 'x-workspace-id': t.workspaceId } },
    { method: 'POST', url: '/v1/admin/account/pats', headers: {} },
    { method: 'PUT', url: '/v1/files', headers: { 'x-bot-id': t.botId } },
    { method: 'POST', url: `/v1/chat/${t.botId}/conversations`, headers: {} },
  ];

  it('answers 401 to a request without a credential, or with a wrong one, whatever its body', async () => {
    for (const { method, url, headers } of routes()) {
      for (const credential of [{}, { authorization: 'Bearer pat_wrong' }]) {
        for (const payload of ['{"name": "x",', `{"a":${'['.repeat(1000)}`, '{"name":"fine"}']) {
          const res = await t.app.inject({
            method,
            url,
            payload,
            headers: { ...headers, ...credential, 'content-type': 'application/json' },
          });
          expectError(res, 401, 'Unauthorized');
        }
      }
    }
  });

  it('answers 401 before the body arrives: a declared 512 kB that never comes is not waited for', async () => {
    const address = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    for (const { method, url, headers } of routes()) {
      const { socket, connected, closed } = rawSocket('127.0.0.1', Number(address.port));
      await connected;
      const answered = answerUntil(socket, (answer) => /\r\n\r\n[\s\S]*\}$/.test(answer));
      const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(
        `${method} ${url} HTTP/1.1\r\nhost: localhost\r\n${lines.join('')}content-type: application/json\r\ncontent-length: ${512 * 1024}\r\n\r\n{"name":`,
      );
      const answer = await answered;
      expect(answer, url).toMatch(/^HTTP\/1.1 401 /);
      expect(answer).toContain('"type":"Unauthorized"');
      socket.destroy();
      await closed;
    }
  });

  it('still reads and validates the body of an authenticated caller', async () => {
    const auth = { authorization: `Bearer ${t.owner.token}`, 'x-workspace-id': t.workspaceId };
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bots',
      payload: { name: 42 },
      headers: auth,
    });
    expectError(bad, 400, 'InvalidPayload');
    const made = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bots',
      payload: { name: 'Read after auth' },
      headers: auth,
    });
    expect(made.statusCode, made.body).toBe(201);
  });

  it('gives the routes anyone may call a body limit fitted to their fields', async () => {
    const signIn = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/admin/account/sessions',
        payload: { email: 'nobody@example.com', password },
        headers: { origin: new URL(t.config.publicUrl).origin },
      });
    expectError(await signIn('x'.repeat(20 * 1024)), 413, 'PayloadTooLarge');
    expectError(await signIn('wrong password'), 401, 'Unauthorized');

    const accept = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/account/invitations/accept',
      payload: { code: 'x'.repeat(20 * 1024) },
    });
    expectError(accept, 413, 'PayloadTooLarge');

    const createUser = (data: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: `/v1/chat/${t.botId}/users`, payload: { data } });
    expectError(await createUser({ big: 'x'.repeat(300 * 1024) }), 413, 'PayloadTooLarge');
    // User data up to its own 128 KB limit still fits.
    expect((await createUser({ big: 'x'.repeat(127 * 1024) })).statusCode).toBe(201);
    const getOrCreate = await t.app.inject({
      method: 'POST',
      url: `/v1/chat/${t.botId}/users/get-or-create`,
      payload: { data: { big: 'x'.repeat(300 * 1024) } },
    });
    expectError(getOrCreate, 413, 'PayloadTooLarge');
  });
});
