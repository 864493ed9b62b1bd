import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-support/fixtures.js';
import type { TestApp } from '../test-support/harness.js';
import { expectError, type WireError } from '../test-support/wire.js';

const ERROR_ID = /^err_\d{14}x[0-9a-f]{8}$/;

/** An Admin request with raw headers, so tests control Authorization and x-workspace-id exactly. */
function raw(t: TestApp, url: string, headers: Record<string, string>, method: 'GET' | 'DELETE' = 'GET') {
  return t.app.inject({ method, url, headers });
}

describe('Admin API authentication', () => {
  const t = useTestApp();

  describe('the Authorization header', () => {
    it('answers 401 Unauthorized mentioning Authorization when the header is missing', async () => {
      const res = await raw(t, '/v1/admin/bots', { 'x-workspace-id': t.workspaceId });
      const body = expectError(res, 401, 'Unauthorized');
      expect(body.message).toContain('Authorization');
    });

    it('answers 401 when the header is blank', async () => {
      const res = await raw(t, '/v1/admin/bots', { authorization: '   ', 'x-workspace-id': t.workspaceId });
      expect(expectError(res, 401, 'Unauthorized').message).toContain('Authorization');
    });

    it('answers 401 Malformed for a Basic scheme', async () => {
      const res = await raw(t, '/v1/admin/bots', {
        authorization: 'Basic x',
        'x-workspace-id': t.workspaceId,
      });
      const body = expectError(res, 401, 'Unauthorized');
      expect(body.message).toMatch(/malformed authorization/i);
    });

    it('answers 401 Malformed for "Bearer" without a token', async () => {
      const res = await raw(t, '/v1/admin/bots', {
        authorization: 'Bearer',
        'x-workspace-id': t.workspaceId,
      });
      expect(expectError(res, 401, 'Unauthorized').message).toMatch(/malformed authorization/i);
    });

    it('answers 401 Malformed for a header with two tokens', async () => {
      const res = await raw(t, '/v1/admin/bots', {
        authorization: `Bearer ${t.owner.token} extra`,
        'x-workspace-id': t.workspaceId,
      });
      expect(expectError(res, 401, 'Unauthorized').message).toMatch(/malformed authorization/i);
    });

    it('answers 401 mentioning an invalid token when the token is unknown', async () => {
      const res = await t.call({
        method: 'GET',
        url: '/v1/admin/bots',
        token: 'pat_doesnotexist',
        workspaceId: t.workspaceId,
      });
      const body = expectError(res, 401, 'Unauthorized');
      expect(body.message).toMatch(/invalid token/i);
    });

    it('accepts the lowercase "bearer" scheme', async () => {
      const res = await raw(t, '/v1/admin/bots', {
        authorization: `bearer ${t.owner.token}`,
        'x-workspace-id': t.workspaceId,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ bots: [{ id: t.botId }] });
    });

    it('accepts an upper-case "BEARER" scheme', async () => {
      const res = await raw(t, '/v1/admin/bots', {
        authorization: `BEARER ${t.owner.token}`,
        'x-workspace-id': t.workspaceId,
      });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('the x-workspace-id header', () => {
    it('answers 401 naming x-workspace-id when it is missing on a workspace-scoped operation', async () => {
      const res = await t.call({ method: 'GET', url: '/v1/admin/bots', token: t.owner.token });
      const body = expectError(res, 401, 'Unauthorized');
      expect(body.message).toContain('x-workspace-id');
    });

    it('answers 401 naming x-workspace-id when it is blank', async () => {
      const res = await raw(t, '/v1/admin/bots', {
        authorization: `Bearer ${t.owner.token}`,
        'x-workspace-id': ' ',
      });
      expect(expectError(res, 401, 'Unauthorized').message).toContain('x-workspace-id');
    });

    it('answers 401 naming the workspace when the caller is not a member of it', async () => {
      const other = await t.otherTenant();
      const res = await t.call({
        method: 'GET',
        url: '/v1/admin/bots',
        token: t.owner.token,
        workspaceId: other.workspaceId,
      });
      const body = expectError(res, 401, 'Unauthorized');
      expect(body.message).toContain('x-workspace-id');
      expect(body.message).toContain(other.workspaceId);
    });

    it('answers 401 for a workspace id that does not exist at all', async () => {
      const res = await t.call({
        method: 'GET',
        url: '/v1/admin/bots',
        token: t.owner.token,
        workspaceId: 'wkspace_nope',
      });
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
      const created = await t.call({
        method: 'POST',
        url: '/v1/admin/account/pats',
        token: t.owner.token,
        body: { note: 'to revoke' },
      });
      expect(created.statusCode).toBe(201);
      const pat = (created.json() as { pat: { id: string; value: string } }).pat;
      const before = await t.call({
        method: 'GET',
        url: '/v1/admin/bots',
        token: pat.value,
        workspaceId: t.workspaceId,
      });
      expect(before.statusCode).toBe(200);

      const revoked = await t.call({
        method: 'DELETE',
        url: `/v1/admin/account/pats/${pat.id}`,
        token: t.owner.token,
      });
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json()).toEqual({});

      const after = await t.call({
        method: 'GET',
        url: '/v1/admin/bots',
        token: pat.value,
        workspaceId: t.workspaceId,
      });
      expect(expectError(after, 401, 'Unauthorized').message).toMatch(/invalid token/i);
      const me = await t.call({ method: 'GET', url: '/v1/admin/account/me', token: pat.value });
      expectError(me, 401, 'Unauthorized');
    });

    it('answers 404 when revoking a PAT twice', async () => {
      const created = await t.call({
        method: 'POST',
        url: '/v1/admin/account/pats',
        token: t.owner.token,
        body: {},
      });
      const id = (created.json() as { pat: { id: string } }).pat.id;
      const first = await t.call({
        method: 'DELETE',
        url: `/v1/admin/account/pats/${id}`,
        token: t.owner.token,
      });
      expect(first.statusCode).toBe(200);
      const second = await t.call({
        method: 'DELETE',
        url: `/v1/admin/account/pats/${id}`,
        token: t.owner.token,
      });
      expectError(second, 404, 'ResourceNotFound');
    });

    it("answers 404 when revoking another account's PAT, and the PAT keeps working", async () => {
      const other = await t.otherTenant();
      const created = await t.call({
        method: 'POST',
        url: '/v1/admin/account/pats',
        token: other.token,
        body: {},
      });
      const pat = (created.json() as { pat: { id: string; value: string } }).pat;
      const res = await t.call({
        method: 'DELETE',
        url: `/v1/admin/account/pats/${pat.id}`,
        token: t.owner.token,
      });
      expectError(res, 404, 'ResourceNotFound');
      const still = await t.call({ method: 'GET', url: '/v1/admin/account/me', token: pat.value });
      expect(still.statusCode).toBe(200);
    });
  });

  describe('bot access keys on the Admin API', () => {
    it('answers 403 Forbidden to a bot access key of the workspace', async () => {
      const res = await t.call({
        method: 'GET',
        url: '/v1/admin/bots',
        token: t.botKey,
        workspaceId: t.workspaceId,
      });
      const body = expectError(res, 403, 'Forbidden');
      expect(body.message).toMatch(/bot access key/i);
    });

    it('answers 403 to a bot access key trying to create a bot, and creates nothing', async () => {
      const res = await t.call({
        method: 'POST',
        url: '/v1/admin/bots',
        token: t.botKey,
        workspaceId: t.workspaceId,
        body: { name: 'from a key' },
      });
      expectError(res, 403, 'Forbidden');
      const list = await t.asOwner('GET', '/v1/admin/bots?name=from%20a%20key');
      expect((list.json() as { bots: unknown[] }).bots).toEqual([]);
    });

    it('answers 401 to a bot access key naming another workspace', async () => {
      const other = await t.otherTenant();
      const res = await t.call({
        method: 'GET',
        url: '/v1/admin/bots',
        token: t.botKey,
        workspaceId: other.workspaceId,
      });
      expectError(res, 401, 'Unauthorized');
    });
  });

  describe('tenant isolation', () => {
    it("answers 404 ResourceNotFound, never 403, for another workspace's bot by id", async () => {
      const other = await t.otherTenant();
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const res = await t.call({
          method,
          url: `/v1/admin/bots/${other.botId}`,
          token: t.owner.token,
          workspaceId: t.workspaceId,
          ...(method === 'PUT' ? { body: { name: 'hijacked' } } : {}),
        });
        const body = expectError(res, 404, 'ResourceNotFound');
        expect(body.message).toContain(other.botId);
      }
      const webchat = await t.call({
        method: 'GET',
        url: `/v1/admin/bots/${other.botId}/webchat`,
        token: t.owner.token,
        workspaceId: t.workspaceId,
      });
      expectError(webchat, 404, 'ResourceNotFound');
      const untouched = await t.call({
        method: 'GET',
        url: `/v1/admin/bots/${other.botId}`,
        token: other.token,
        workspaceId: other.workspaceId,
      });
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
      const a = expectError(await raw(t, '/v1/admin/bots', {}), 401, 'Unauthorized');
      const b = expectError(await raw(t, '/v1/admin/bots', {}), 401, 'Unauthorized');
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
    const created = await t.call({
      method: 'POST',
      url: '/v1/admin/account/pats',
      token: t.owner.token,
      body: { note: 'short-lived', expiresAt },
    });
    expect(created.statusCode).toBe(201);
    const pat = (created.json() as { pat: { value: string; expiresAt: string } }).pat;
    expect(pat.expiresAt).toBe(expiresAt);

    const fresh = await t.call({
      method: 'GET',
      url: '/v1/admin/bots',
      token: pat.value,
      workspaceId: t.workspaceId,
    });
    expect(fresh.statusCode).toBe(200);

    now = new Date(now.getTime() + 10_000);
    const stale = await t.call({
      method: 'GET',
      url: '/v1/admin/bots',
      token: pat.value,
      workspaceId: t.workspaceId,
    });
    expect(expectError(stale, 401, 'Unauthorized').message).toMatch(/invalid token/i);
    const me = await t.call({ method: 'GET', url: '/v1/admin/account/me', token: pat.value });
    expectError(me, 401, 'Unauthorized');

    const owner = await t.asOwner('GET', '/v1/admin/bots');
    expect(owner.statusCode).toBe(200);
  });

  it('refuses to create a PAT that has already expired with 400 naming expiresAt', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/admin/account/pats',
      token: t.owner.token,
      body: { expiresAt: new Date(now.getTime() - 1_000).toISOString() },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json() as WireError & { metadata: { errors: Array<{ field: string }> } };
    expect(body).toMatchObject({ code: 400, type: 'InvalidPayload' });
    expect(body.id).toMatch(ERROR_ID);
    expect(body.metadata.errors.map((e) => e.field)).toContain('expiresAt');
  });
});
