// The Files API takes the Console's session cookie: a signed-in person reads a bot's files with `x-bot-id` and
// no token; a state change with the cookie must come from the service's own origin; an ended session is 401.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import type { TestApp } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A request of the test app with the session cookie and `x-bot-id`, and no Authorization header. */
function byCookie(
  t: TestApp,
  cookie: string,
  method: Method,
  url: string,
  r: { origin?: string; body?: unknown } = {},
) {
  return t.app.inject({
    method,
    url,
    headers: {
      cookie: `parley_session=${cookie}`,
      'x-bot-id': t.botId,
      ...(r.origin ? { origin: r.origin } : {}),
    },
    ...(r.body !== undefined ? { payload: r.body as Record<string, unknown> } : {}),
  });
}

/** Signs the bootstrap owner in; answers the session cookie's value. */
async function signIn(t: TestApp): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/account/sessions',
    payload: { email: t.owner.email, password: t.owner.password },
  });
  expect(res.statusCode, res.body).toBe(201);
  const cookie = res.cookies.find((c) => c.name === 'parley_session');
  if (!cookie) throw new Error('no session cookie');
  return cookie.value;
}

describe('the Files API with a session cookie', () => {
  const t = useTestApp();
  const origin = () => new URL(t.config.publicUrl).origin;

  it('lists the files of the bot named by x-bot-id for a signed-in person, without a token', async () => {
    const cookie = await signIn(t);
    const res = await byCookie(t, cookie, 'GET', '/v1/files');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ files: expect.any(Array) });
    const kbs = await byCookie(t, cookie, 'GET', '/v1/files/knowledge-bases');
    expect(kbs.statusCode, kbs.body).toBe(200);
  });

  it('refuses a state change with the cookie from another origin (or none), accepts it from its own', async () => {
    const cookie = await signIn(t);
    const body = { key: 'by-cookie.md', size: 3 };
    const foreign = await byCookie(t, cookie, 'PUT', '/v1/files', { origin: 'https://evil.example', body });
    expect(expectError(foreign, 403, 'Forbidden').message).toContain('Cross-origin request refused');
    expectError(await byCookie(t, cookie, 'PUT', '/v1/files', { body }), 403, 'Forbidden');
    const listed = await byCookie(t, cookie, 'GET', '/v1/files?keyContains=by-cookie');
    expect((listed.json() as { files: unknown[] }).files).toEqual([]);

    const own = await byCookie(t, cookie, 'PUT', '/v1/files', { origin: origin(), body });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ file: { key: 'by-cookie.md', owner: { type: 'user' } } });
  });

  it('answers 401 once the session has ended', async () => {
    const cookie = await signIn(t);
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/v1/admin/account/sessions/current',
      headers: { cookie: `parley_session=${cookie}`, origin: origin() },
    });
    expect(out.statusCode, out.body).toBe(200);
    expectError(await byCookie(t, cookie, 'GET', '/v1/files'), 401, 'Unauthorized');
    expectError(
      await byCookie(t, cookie, 'PUT', '/v1/files', { origin: origin(), body: { key: 'late.md', size: 1 } }),
      401,
      'Unauthorized',
    );
  });
});
