import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../../../testkit/src/server/admin-calls.js';
import { movableClock } from '../../../../testkit/src/server/files-api.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { createTestApp, type TestApp, testDatabases } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import { currentParams } from '../../access/passwords.js';
import { runCli } from '../../cli.js';

const databases = testDatabases();

const SESSIONS = '/v1/admin/account/sessions';
const HOUR = 3_600_000;

interface Req {
  body?: unknown;
  cookie?: string | undefined;
  token?: string;
  workspaceId?: string;
  headers?: Record<string, string>;
  /** The client's address (each test its own, so the per-address throttle does not mix them). */
  address?: string;
}

/** The test app's requests, with a session cookie, a token, an origin and an address of their own. */
function client(t: TestApp) {
  const origin = new URL(t.config.publicUrl).origin;
  async function send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, r: Req = {}) {
    const headers: Record<string, string> = { ...r.headers };
    if (r.cookie !== undefined) headers.cookie = `parley_session=${r.cookie}`;
    if (r.token !== undefined) headers.authorization = `Bearer ${r.token}`;
    if (r.workspaceId !== undefined) headers['x-workspace-id'] = r.workspaceId;
    return t.app.inject({
      method,
      url,
      headers,
      remoteAddress: r.address ?? '127.0.0.1',
      ...(r.body !== undefined ? { payload: r.body as Record<string, unknown> } : {}),
    });
  }
  /** A state change from the service's own pages: the cookie and the public URL's Origin. */
  const sameOrigin = (cookie: string, r: Req = {}): Req => ({
    ...r,
    cookie,
    headers: { origin, ...r.headers },
  });
  async function signIn(email: string, password: string, r: Req = {}) {
    return send('POST', SESSIONS, { ...r, body: { email, password } });
  }
  /** Signs in and answers the cookie's value and the session's id. */
  async function session(email: string, password: string, r: Req = {}) {
    const res = await signIn(email, password, r);
    expect(res.statusCode, res.body).toBe(201);
    const cookie = res.cookies.find((c) => c.name === 'parley_session');
    if (!cookie) throw new Error('no session cookie');
    return { value: cookie.value, id: (res.json() as { session: { id: string } }).session.id, res };
  }
  /** An account with a password, made through the API's invitation with a password. */
  async function personWithPassword(password = 'correct horse battery staple') {
    const email = uniqueEmail('person');
    const added = await t.asOwner('POST', '/v1/admin/workspace-members', { email, role: 'developer' });
    const code = (added.json() as { invitation: { code: string } }).invitation.code;
    const accepted = await send('POST', '/v1/admin/account/invitations/accept', { body: { code, password } });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const account = await t.app.services.identity.accountByEmail(email);
    return { email, password, accountId: account?.id ?? '' };
  }
  return { origin, send, sameOrigin, signIn, session, personWithPassword };
}

const me = (c: ReturnType<typeof client>, cookie: string) =>
  c.send('GET', '/v1/admin/account/me', { cookie });

describe.each(databases)('sign-in and sessions ($name)', ({ url }) => {
  let t: TestApp;
  let c: ReturnType<typeof client>;
  const clock = movableClock();
  beforeAll(async () => {
    t = await createTestApp({ clock: clock.now, ...(url ? { databaseUrl: url } : {}) });
    c = client(t);
  });
  afterAll(() => t.close());

  it('signs the bootstrap owner in with the generated password: an HttpOnly, SameSite=Strict cookie on /', async () => {
    const res = await c.signIn(t.owner.email, t.owner.password, { headers: { 'user-agent': 'Test/1.0' } });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json() as { account: { id: string }; session: Record<string, unknown> };
    expect(body.account.id).toBe(t.owner.accountId);
    expect(body.session).toMatchObject({
      id: expect.stringMatching(/^sess_/),
      userAgent: 'Test/1.0',
      current: true,
    });
    const cookie = res.cookies.find((x) => x.name === 'parley_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', maxAge: 30 * 24 * 3600 });
    expect(cookie?.secure).toBeUndefined();
    expect(cookie?.value).toMatch(/^[\w-]{43}$/);
    const header = String(res.headers['set-cookie']);
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Strict');
    expect(header).not.toContain('Secure');
  });

  it('stores the session only as the SHA-256 of the cookie value', async () => {
    const { value, id } = await c.session(t.owner.email, t.owner.password);
    const rows = await t.db.kysely.selectFrom('sessions').selectAll().where('id', '=', id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.hash).toBe(createHash('sha256').update(value).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(value);
    const passwords = await t.db.kysely.selectFrom('account_passwords').selectAll().execute();
    expect(JSON.stringify(passwords)).not.toContain(t.owner.password);
    // Hashed with its parameters: production's N = 2^15 (passwords.test.ts), this test run's lower cost here.
    const { ln, r, p } = currentParams();
    expect(passwords[0]?.hash?.startsWith(`scrypt$ln=${ln},r=${r},p=${p}$`)).toBe(true);
  });

  it('answers a wrong password and an unknown e-mail with the same 401, and sets no cookie', async () => {
    const wrong = await c.signIn(t.owner.email, 'not the password at all', { address: '10.0.0.1' });
    const unknown = await c.signIn(uniqueEmail('nobody'), 'not the password at all', { address: '10.0.0.1' });
    const a = expectError(wrong, 401, 'Unauthorized');
    const b = expectError(unknown, 401, 'Unauthorized');
    expect(a.message).toBe('Wrong e-mail or password');
    expect(b.message).toBe(a.message);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(unknown.headers['set-cookie']).toBeUndefined();
  });

  it('throttles failures per e-mail and address (known e-mail or not) with 429 and Retry-After; other addresses still sign in', async () => {
    const person = await c.personWithPassword();
    for (const email of [person.email, uniqueEmail('ghost')]) {
      for (let i = 0; i < 5; i++)
        expectError(await c.signIn(email, 'wrong password!!', { address: '10.1.0.1' }), 401, 'Unauthorized');
      const refused = await c.signIn(email, 'wrong password!!', { address: '10.1.0.1' });
      const body = expectError(refused, 429, 'RateLimited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(900);
      expect(body.message).not.toContain(email);
    }
    // Even the right password waits at that address; the owner's own address is not locked out by them.
    expect((await c.signIn(person.email, person.password, { address: '10.1.0.1' })).statusCode).toBe(429);
    expect((await c.signIn(person.email, person.password, { address: '10.1.0.2' })).statusCode).toBe(201);
    clock.advance(15 * 60_000 + 1000);
    expect((await c.signIn(person.email, person.password, { address: '10.1.0.1' })).statusCode).toBe(201);
  });

  it('throttles failures per address across e-mails', async () => {
    // The failures at once, as in the test above.
    const failures = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        c.signIn(uniqueEmail(`a${i}`), 'wrong password!!', { address: '10.2.0.1' }),
      ),
    );
    expect(failures.map((res) => res.statusCode)).toEqual(Array(20).fill(401));
    const refused = await c.signIn(t.owner.email, t.owner.password, { address: '10.2.0.1' });
    expectError(refused, 429, 'RateLimited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await c.signIn(t.owner.email, t.owner.password, { address: '10.2.0.2' })).statusCode).toBe(201);
  });

  it('authenticates every Admin route by the cookie: reads without an Origin, writes from the public origin only', async () => {
    const { value } = await c.session(t.owner.email, t.owner.password);
    expect((await me(c, value)).json()).toMatchObject({ account: { id: t.owner.accountId } });
    const bots = await c.send('GET', '/v1/admin/bots', { cookie: value, workspaceId: t.workspaceId });
    expect(bots.statusCode, bots.body).toBe(200);

    const create = (r: Req) =>
      c.send('POST', '/v1/admin/bots', { ...r, workspaceId: t.workspaceId, body: { name: 'By cookie' } });
    const foreign = await create({ cookie: value, headers: { origin: 'https://evil.example' } });
    expect(expectError(foreign, 403, 'Forbidden').message).toContain('Cross-origin request refused');
    expectError(await create({ cookie: value }), 403, 'Forbidden');
    expectError(
      await create({ cookie: value, headers: { referer: 'https://evil.example/page' } }),
      403,
      'Forbidden',
    );
    expect((await create(c.sameOrigin(value))).statusCode).toBe(201);
    expect(
      (await create({ cookie: value, headers: { referer: `${c.origin}/console/bots` } })).statusCode,
    ).toBe(201);
  });

  it('keeps bearer tokens as they were, ahead of a cookie', async () => {
    const token = await create(t.owner.token, 'ended-cookie-value');
    expect(token.statusCode, token.body).toBe(201);
    const other = await t.otherTenant();
    const { value } = await c.session(t.owner.email, t.owner.password);
    // Both sent: the token decides who calls (the other tenant's owner, in its own workspace).
    const both = await c.send('GET', '/v1/admin/account/me', { cookie: value, token: other.token });
    expect(both.json()).toMatchObject({ account: { email: other.email } });
    expectError(
      await c.send('GET', '/v1/admin/account/me', { cookie: value, token: 'pat_nope' }),
      401,
      'Unauthorized',
    );

    async function create(bearer: string, cookie: string) {
      // A token needs no Origin, even from another one.
      return c.send('POST', '/v1/admin/bots', {
        token: bearer,
        cookie,
        workspaceId: t.workspaceId,
        body: { name: 'By token' },
        headers: { origin: 'https://elsewhere.example' },
      });
    }
  });

  it('ends a session idle longer than PARLEY_SESSION_IDLE_HOURS, and any session after PARLEY_SESSION_MAX_DAYS', async () => {
    const idle = await c.session(t.owner.email, t.owner.password);
    clock.advance(11 * HOUR);
    expect((await me(c, idle.value)).statusCode).toBe(200);
    clock.advance(11 * HOUR);
    expect((await me(c, idle.value)).statusCode).toBe(200);
    clock.advance(12 * HOUR + 1000);
    const ended = expectError(await me(c, idle.value), 401, 'Unauthorized');
    expect(ended.message).toContain('session has ended');

    const busy = await c.session(t.owner.email, t.owner.password);
    for (let elapsed = 0; elapsed < 30 * 24 * HOUR - 11 * HOUR; elapsed += 11 * HOUR) {
      clock.advance(11 * HOUR);
      expect((await me(c, busy.value)).statusCode).toBe(200);
    }
    clock.advance(11 * HOUR);
    expectError(await me(c, busy.value), 401, 'Unauthorized');
  });

  it('signs out this session (clearing the cookie), revokes one, and signs out everywhere', async () => {
    const person = await c.personWithPassword();
    const a = await c.session(person.email, person.password);
    const b = await c.session(person.email, person.password);
    const d = await c.session(person.email, person.password);

    const listed = await c.send('GET', SESSIONS, { cookie: a.value });
    const sessions = (listed.json() as { sessions: Array<{ id: string; current: boolean }> }).sessions;
    expect(sessions.map((s) => s.id)).toEqual([a.id, b.id, d.id]);
    expect(sessions.filter((s) => s.current).map((s) => s.id)).toEqual([a.id]);

    expect((await c.send('DELETE', `${SESSIONS}/${b.id}`, c.sameOrigin(a.value))).statusCode).toBe(200);
    expectError(await me(c, b.value), 401, 'Unauthorized');
    expect((await me(c, a.value)).statusCode).toBe(200);
    expectError(
      await c.send('DELETE', `${SESSIONS}/${b.id}`, c.sameOrigin(a.value)),
      404,
      'ResourceNotFound',
    );

    const out = await c.send('DELETE', `${SESSIONS}/current`, c.sameOrigin(a.value));
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((x) => x.name === 'parley_session')?.value).toBe('');
    expectError(await me(c, a.value), 401, 'Unauthorized');
    expect((await me(c, d.value)).statusCode).toBe(200);

    const e = await c.session(person.email, person.password);
    const everywhere = await c.send('DELETE', SESSIONS, c.sameOrigin(e.value));
    expect(everywhere.json()).toEqual({ revokedSessions: 2 });
    expectError(await me(c, d.value), 401, 'Unauthorized');
    expectError(await me(c, e.value), 401, 'Unauthorized');
    // Signing out by cookie is a state change too: refused from another origin.
    const f = await c.session(person.email, person.password);
    expectError(await c.send('DELETE', `${SESSIONS}/current`, { cookie: f.value }), 403, 'Forbidden');
  });

  it('changes the password with the current one, ending the other sessions', async () => {
    const person = await c.personWithPassword();
    const a = await c.session(person.email, person.password);
    const b = await c.session(person.email, person.password);
    const wrong = await c.send(
      'PUT',
      '/v1/admin/account/password',
      c.sameOrigin(a.value, { body: { current: 'not my password', new: 'a brand new password' } }),
    );
    expectError(wrong, 403, 'Forbidden');
    const short = await c.send(
      'PUT',
      '/v1/admin/account/password',
      c.sameOrigin(a.value, { body: { current: person.password, new: 'too short' } }),
    );
    expectError(short, 400, 'InvalidPayload');
    const changed = await c.send(
      'PUT',
      '/v1/admin/account/password',
      c.sameOrigin(a.value, { body: { current: person.password, new: 'a brand new password' } }),
    );
    expect(changed.json()).toEqual({ revokedSessions: 1 });
    expect((await me(c, a.value)).statusCode).toBe(200);
    expectError(await me(c, b.value), 401, 'Unauthorized');
    expectError(await c.signIn(person.email, person.password, { address: '10.3.0.1' }), 401, 'Unauthorized');
    expect((await c.signIn(person.email, 'a brand new password', { address: '10.3.0.1' })).statusCode).toBe(
      201,
    );
  });

  it('lets an invitee pick a password (12 characters at least) and sign in with it; none given is a 400', async () => {
    const email = uniqueEmail('invitee');
    const added = await t.asOwner('POST', '/v1/admin/workspace-members', { email, role: 'viewer' });
    const code = (added.json() as { invitation: { code: string } }).invitation.code;
    const accept = (body: Record<string, unknown>) =>
      c.send('POST', '/v1/admin/account/invitations/accept', { body: { code, ...body } });
    expectError(await accept({ password: 'short' }), 400, 'InvalidPayload');
    const none = expectError(await accept({ displayName: 'Invitee' }), 400, 'InvalidPayload');
    expect(none.message).toContain('password');
    const accepted = await accept({ displayName: 'Invitee', password: 'my chosen password' });
    expect(accepted.statusCode, accepted.body).toBe(201);
    // No token in the answer: the invitee signs in.
    expect(accepted.json()).toEqual({ email, workspaceId: t.workspaceId });
    const { value } = await c.session(email, 'my chosen password');
    const members = await c.send('GET', '/v1/admin/workspace-members/me', {
      cookie: value,
      workspaceId: t.workspaceId,
    });
    expect(members.json()).toMatchObject({ email, role: 'viewer', displayName: 'Invitee' });
  });
});

describe('sign-in behind https', () => {
  const t = useTestApp({ env: { PARLEY_PUBLIC_URL: 'https://parley.example.com/base' } });

  it('marks the cookie Secure, and takes the https origin as the only one for state changes', async () => {
    const c = client(t);
    expect(c.origin).toBe('https://parley.example.com');
    const { value, res } = await c.session(t.owner.email, t.owner.password);
    expect(res.cookies.find((x) => x.name === 'parley_session')).toMatchObject({
      secure: true,
      httpOnly: true,
    });
    const create = (origin: string) =>
      c.send('POST', '/v1/admin/bots', {
        cookie: value,
        workspaceId: t.workspaceId,
        body: { name: 'x' },
        headers: { origin },
      });
    expectError(await create('http://parley.example.com'), 403, 'Forbidden');
    expect((await create('https://parley.example.com')).statusCode).toBe(201);
    // A sign-in posted by a page of another origin is refused (login CSRF).
    const foreign = await c.signIn(t.owner.email, t.owner.password, {
      headers: { origin: 'https://evil.example' },
    });
    expectError(foreign, 403, 'Forbidden');
  });
});

describe('PARLEY_ADMIN_PASSWORD and parley accounts set-password', () => {
  const t = useTestApp({ env: { PARLEY_ADMIN_PASSWORD: 'chosen by the operator' } });

  it('gives the owner the configured password, kept out of bootstrap.json', async () => {
    const c = client(t);
    expect((await c.signIn(t.owner.email, 'chosen by the operator')).statusCode).toBe(201);
    const { readFile } = await import('node:fs/promises');
    const file = JSON.parse(await readFile(`${t.dataDir}/bootstrap.json`, 'utf8')) as Record<string, unknown>;
    expect(file.password).toBeUndefined();
    expect(JSON.stringify(file)).not.toContain('chosen by the operator');
  });

  it('sets a password read from standard input, ending the sessions', async () => {
    const c = client(t);
    const before = await c.session(t.owner.email, 'chosen by the operator');
    const out: string[] = [];
    const err: string[] = [];
    const run = (stdin: string, email = t.owner.email) =>
      runCli(['node', 'parley', 'accounts', 'set-password', '--email', email], {
        env: { PARLEY_DATA_DIR: t.dataDir, PARLEY_LOG_LEVEL: 'silent', PARLEY_EMBEDDER: 'none' },
        out: (s) => out.push(s),
        err: (s) => err.push(s),
        stdin: Readable.from([stdin]),
      });
    expect(await run('new operator password\n')).toBe(0);
    expect(JSON.parse(out.join(''))).toMatchObject({ account: { email: t.owner.email } });
    expectError(await me(c, before.value), 401, 'Unauthorized');
    expect((await c.signIn(t.owner.email, 'new operator password')).statusCode).toBe(201);
    expect(await run('short\n')).toBe(1);
    expect(err.join('')).toContain('at least 12 characters');
    expect(await run('long enough password\n', 'nobody@example.com')).toBe(1);
    expect(await run('')).toBe(1);
  });
});

describe('the first start without PARLEY_ADMIN_PASSWORD', () => {
  it('writes the generated password to bootstrap.json', async () => {
    const t = await createTestApp();
    try {
      const { readFile } = await import('node:fs/promises');
      const file = JSON.parse(await readFile(`${t.dataDir}/bootstrap.json`, 'utf8')) as { password?: string };
      expect(file.password).toBe(t.owner.password);
      expect(file.password?.length).toBeGreaterThanOrEqual(12);
    } finally {
      await t.close();
    }
  });
});
