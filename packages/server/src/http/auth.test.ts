import { describe, expect, it } from 'vitest';
import { accountCaller, caller } from '../../../testkit/src/server/admin-calls.js';
import { useTestApp } from '../../../testkit/src/server/fixtures.js';
import type { TestApp } from '../../../testkit/src/server/harness.js';
import { rawRequest, workspaceHeaders } from '../../../testkit/src/server/raw-requests.js';
import { expectError, type WireError } from '../../../testkit/src/server/wire.js';

const ERROR_ID = /^err_\d{14}x[0-9a-f]{8}$/;

const MALFORMED = /malformed authorization/i;

/** Creates a personal access token on the account of `token` (the owner's unless named); answers the response. */
const createPat = (t: TestApp, body: object, token: string = t.owner.token) =>
  accountCaller(t, token)('POST', '/v1/admin/account/pats', body);

/** Revokes a personal access token as the account of `token` (the owner's unless named); answers the response. */
const revokePat = (t: TestApp, id: string, token: string = t.owner.token) =>
  accountCaller(t, token)('DELETE', `/v1/admin/account/pats/${id}`);

/** Lists the bots of the bootstrap workspace with `token`. */
const botsWith = (t: TestApp, token: string) => caller(t, token)('GET', '/v1/admin/bots');

/** Asserts that `token` is refused: 401 invalid token on the workspace's bots, 401 on its own account. */
async function expectTokenRefused(t: TestApp, token: string): Promise<void> {
  expect(expectError(await botsWith(t, token), 401, 'Unauthorized').message).toMatch(/invalid token/i);
  expectError(await accountCaller(t, token)('GET', '/v1/admin/account/me'), 401, 'Unauthorized');
}

describe('Admin API authentication', () => {
  const t = useTestApp();

  describe('the Authorization header', () => {
    /** [test name, the Authorization header for the owner's token (none when undefined), what the 401 says] */
    const refusals: Array<[string, ((token: string) => string) | undefined, string | RegExp]> = [
      [
        'answers 401 Unauthorized mentioning Authorization when the header is missing',
        undefined,
        'Authorization',
      ],
      ['answers 401 when the header is blank', () => '   ', 'Authorization'],
      ['answers 401 Malformed for a Basic scheme', () => 'Basic x', MALFORMED],
      ['answers 401 Malformed for "Bearer" without a token', () => 'Bearer', MALFORMED],
      ['answers 401 Malformed for a header with two tokens', (token) => `Bearer ${token} extra`, MALFORMED],
    ];
    for (const [name, authorization, says] of refusals) {
      it(name, async () => {
        const headers = workspaceHeaders(t, authorization?.(t.owner.token));
        const body = expectError(await rawRequest(t, '/v1/admin/bots', headers), 401, 'Unauthorized');
        if (typeof says === 'string') expect(body.message).toContain(says);
        else expect(body.message).toMatch(says);
      });
    }

    it('answers 401 mentioning an invalid token when the token is unknown', async () => {
      const res = await botsWith(t, 'pat_doesnotexist');
      const body = expectError(res, 401, 'Unauthorized');
      expect(body.message).toMatch(/invalid token/i);
    });

    /** The owner's bots, the scheme of the Authorization header spelt `scheme`. */
    const botsWithScheme = (scheme: string) =>
      rawRequest(t, '/v1/admin/bots', workspaceHeaders(t, `${scheme} ${t.owner.token}`));

    it('accepts the lowercase "bearer" scheme', async () => {
      const res = await botsWithScheme('bearer');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ bots: [{ id: t.botId }] });
    });

    it('accepts an upper-case "BEARER" scheme', async () => {
      expect((await botsWithScheme('BEARER')).statusCode).toBe(200);
    });
  });

  describe('the x-workspace-id header', () => {
    it('answers 401 naming x-workspace-id when it is missing on a workspace-scoped operation', async () => {
      const res = await t.call({ method: 'GET', url: '/v1/admin/bots', token: t.owner.token });
      const body = expectError(res, 401, 'Unauthorized');
      expect(body.message).toContain('x-workspace-id');
    });

    it('answers 401 naming x-workspace-id when it is blank', async () => {
      const res = await rawRequest(t, '/v1/admin/bots', {
        authorization: `Bearer ${t.owner.token}`,
        'x-workspace-id': ' ',
      });
      expect(expectError(res, 401, 'Unauthorized').message).toContain('x-workspace-id');
    });

    it('answers 401 naming the workspace when the caller is not a member of it', async () => {
      const other = await t.otherTenant();
      const res = await caller(t, t.owner.token, other.workspaceId)('GET', '/v1/admin/bots');
      const body = expectError(res, 401, 'Unauthorized');
      expect(body.message).toContain('x-workspace-id');
      expect(body.message).toContain(other.workspaceId);
    });

    it('answers 401 for a workspace id that does not exist at all', async () => {
      const res = await caller(t, t.owner.token, 'wkspace_nope')('GET', '/v1/admin/bots');
      expect(expectError(res, 401, 'Unauthorized').message).toContain('wkspace_nope');
    });

    it('checks the token before the workspace: a bad token with a missing workspace says token', async () => {
      const res = await t.call({ method: 'GET', url: '/v1/admin/bots', token: 'pat_unknown' });
      expect(expectError(res, 401, 'Unauthorized').message).toMatch(/invalid token/i);
    });

    it('lists workspaces without x-workspace-id', async () => {
      const res = await t.call({ method: 'GET', url: '/v1/admin/workspaces', token: t.owner.token });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { workspaces: Array<{ id: string }>; meta: object };
      expect(body.workspaces.map((w) => w.id)).toContain(t.workspaceId);
      expect(body.meta).toBeDefined();
    });

    it('answers the account without x-workspace-id', async () => {
      const res = await t.call({ method: 'GET', url: '/v1/admin/account/me', token: t.owner.token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ account: { id: t.owner.accountId, email: t.owner.email } });
    });

    it('still needs a token on account operations', async () => {
      const res = await t.call({ method: 'GET', url: '/v1/admin/account/me' });
      expect(expectError(res, 401, 'Unauthorized').message).toContain('Authorization');
    });

    it('still needs a token to list workspaces', async () => {
      const res = await t.call({ method: 'GET', url: '/v1/admin/workspaces', token: 'pat_nope' });
      expect(expectError(res, 401, 'Unauthorized').message).toMatch(/invalid token/i);
    });
  });

  describe('personal access tokens', () => {
    it('rejects a PAT with 401 once it is revoked', async () => {
      const created = await createPat(t, { note: 'to revoke' });
      expect(created.statusCode).toBe(201);
      const pat = (created.json() as { pat: { id: string; value: string } }).pat;
      expect((await botsWith(t, pat.value)).statusCode).toBe(200);

      const revoked = await revokePat(t, pat.id);
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json()).toEqual({});

      await expectTokenRefused(t, pat.value);
    });

    it('answers 404 when revoking a PAT twice', async () => {
      const created = await createPat(t, {});
      const id = (created.json() as { pat: { id: string } }).pat.id;
      expect((await revokePat(t, id)).statusCode).toBe(200);
      expectError(await revokePat(t, id), 404, 'ResourceNotFound');
    });

    it("answers 404 when revoking another account's PAT, and the PAT keeps working", async () => {
      const other = await t.otherTenant();
      const created = await createPat(t, {}, other.token);
      const pat = (created.json() as { pat: { id: string; value: string } }).pat;
      expectError(await revokePat(t, pat.id), 404, 'ResourceNotFound');
      const still = await accountCaller(t, pat.value)('GET', '/v1/admin/account/me');
      expect(still.statusCode).toBe(200);
    });
  });

  describe('bot access keys on the Admin API', () => {
    it('answers 403 Forbidden to a bot access key of the workspace', async () => {
      const body = expectError(await botsWith(t, t.botKey), 403, 'Forbidden');
      expect(body.message).toMatch(/bot access key/i);
    });

    it('answers 403 to a bot access key trying to create a bot, and creates nothing', async () => {
      const res = await caller(t, t.botKey)('POST', '/v1/admin/bots', { name: 'from a key' });
      expectError(res, 403, 'Forbidden');
      const list = await t.asOwner('GET', '/v1/admin/bots?name=from%20a%20key');
      expect((list.json() as { bots: unknown[] }).bots).toEqual([]);
    });

    it('answers 401 to a bot access key naming another workspace', async () => {
      const other = await t.otherTenant();
      expectError(await caller(t, t.botKey, other.workspaceId)('GET', '/v1/admin/bots'), 401, 'Unauthorized');
    });
  });

  describe('tenant isolation', () => {
    it("answers 404 ResourceNotFound, never 403, for another workspace's bot by id", async () => {
      const other = await t.otherTenant();
      const url = `/v1/admin/bots/${other.botId}`;
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const res = await t.asOwner(method, url, method === 'PUT' ? { name: 'hijacked' } : undefined);
        const body = expectError(res, 404, 'ResourceNotFound');
        expect(body.message).toContain(other.botId);
      }
      expectError(await t.asOwner('GET', `${url}/webchat`), 404, 'ResourceNotFound');
      const untouched = await caller(t, other.token, other.workspaceId)('GET', url);
      expect(untouched.statusCode).toBe(200);
      expect(untouched.json()).toMatchObject({ bot: { id: other.botId, name: 'Other bot' } });
    });

    it("never lists another workspace's bots", async () => {
      const other = await t.otherTenant();
      const res = await t.asOwner('GET', '/v1/admin/bots?pageSize=100');
      const ids = (res.json() as { bots: Array<{ id: string }> }).bots.map((b) => b.id);
      expect(ids).toContain(t.botId);
      expect(ids).not.toContain(other.botId);
    });
  });

  describe('error ids', () => {
    it('gives every error a fresh id of the form err_<UTC stamp>x<8 hex>', async () => {
      const a = expectError(await rawRequest(t, '/v1/admin/bots', {}), 401, 'Unauthorized');
      const b = expectError(await rawRequest(t, '/v1/admin/bots', {}), 401, 'Unauthorized');
      expect(a.id).not.toBe(b.id);
      const s = a.id.slice(4, 18);
      const stamped = Date.parse(
        `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(8, 10)}:${s.slice(10, 12)}:${s.slice(12, 14)}Z`,
      );
      expect(Math.abs(Date.now() - stamped)).toBeLessThan(60_000);
    });
  });
});

describe('Admin API authentication with a moving clock', () => {
  const t = useTestApp({ clock: () => now });
  let now = new Date('2030-01-01T00:00:00.000Z');

  it('accepts a PAT until it expires, then answers 401', async () => {
    const expiresAt = new Date(now.getTime() + 5_000).toISOString();
    const created = await createPat(t, { note: 'short-lived', expiresAt });
    expect(created.statusCode).toBe(201);
    const pat = (created.json() as { pat: { value: string; expiresAt: string } }).pat;
    expect(pat.expiresAt).toBe(expiresAt);
    expect((await botsWith(t, pat.value)).statusCode).toBe(200);

    now = new Date(now.getTime() + 10_000);
    await expectTokenRefused(t, pat.value);

    const owner = await t.asOwner('GET', '/v1/admin/bots');
    expect(owner.statusCode).toBe(200);
  });

  it('refuses to create a PAT that has already expired with 400 naming expiresAt', async () => {
    const res = await createPat(t, { expiresAt: new Date(now.getTime() - 1_000).toISOString() });
    expect(res.statusCode).toBe(400);
    const body = res.json() as WireError & { metadata: { errors: Array<{ field: string }> } };
    expect(body).toMatchObject({ code: 400, type: 'InvalidPayload' });
    expect(body.id).toMatch(ERROR_ID);
    expect(body.metadata.errors.map((e) => e.field)).toContain('expiresAt');
  });
});
