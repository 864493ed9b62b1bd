import { describe, expect, it } from 'vitest';
import {
  accountCaller,
  caller,
  expectInvalid,
  withTestApp,
} from '../../../../testkit/src/server/admin-calls.js';
import { readAllPages } from '../../../../testkit/src/server/admin-pages.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

interface WorkspaceBody {
  id: string;
  name: string;
  ownerId: string;
  about: string;
  contactEmail: string;
  website: string;
  createdAt: string;
  updatedAt: string;
  botCount: number;
  role?: string;
}

describe('workspaces', () => {
  const t = useTestApp();

  /** Creates a workspace as the bootstrap owner and answers it. */
  async function newWorkspace(name: string): Promise<WorkspaceBody> {
    const res = await accountCaller(t, t.owner.token)('POST', '/v1/admin/workspaces', { name });
    expect(res.statusCode).toBe(201);
    return res.json() as WorkspaceBody;
  }

  describe('POST /v1/admin/workspaces', () => {
    it('creates a workspace owned by the caller and answers it at top level, without a wrapper', async () => {
      const res = await accountCaller(t, t.owner.token)('POST', '/v1/admin/workspaces', {
        name: 'Created workspace',
      });
      expect(res.statusCode).toBe(201);
      const ws = res.json() as WorkspaceBody;
      expect(ws).toMatchObject({
        name: 'Created workspace',
        ownerId: t.owner.accountId,
        role: 'owner',
        botCount: 0,
        about: '',
        contactEmail: '',
        website: '',
      });
      expect(ws.id).toMatch(/^wkspace_/);
      expect(Date.parse(ws.createdAt)).not.toBeNaN();
      expect(res.json()).not.toHaveProperty('workspace');

      const me = await caller(t, t.owner.token, ws.id)('GET', '/v1/admin/workspace-members/me');
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ userId: t.owner.accountId, role: 'owner', status: 'active' });
    });

    it('rejects an empty name with 400 naming the name field', async () => {
      const res = await accountCaller(t, t.owner.token)('POST', '/v1/admin/workspaces', { name: '' });
      expectInvalid(res, 'InvalidPayload', 'name');
    });

    it('rejects a missing name with 400 naming the name field', async () => {
      const res = await accountCaller(t, t.owner.token)('POST', '/v1/admin/workspaces', {});
      expectInvalid(res, 'InvalidPayload', 'name');
    });

    it('answers 401 without a token', async () => {
      const res = await t.call({ method: 'POST', url: '/v1/admin/workspaces', body: { name: 'x' } });
      expectError(res, 401, 'Unauthorized');
    });

    it('answers 403 to a bot access key, which has no account', async () => {
      const res = await accountCaller(t, t.botKey)('POST', '/v1/admin/workspaces', { name: 'x' });
      expectError(res, 403, 'Forbidden');
    });
  });

  describe('GET /v1/admin/workspaces', () => {
    it('lists only the workspaces the caller belongs to, page by page', async () => {
      await withTestApp(async (app) => {
        const other = await app.otherTenant();
        const created: string[] = [];
        for (const name of ['A', 'B', 'C', 'D']) {
          const res = await accountCaller(app, app.owner.token)('POST', '/v1/admin/workspaces', { name });
          expect(res.statusCode).toBe(201);
          created.push((res.json() as WorkspaceBody).id);
        }
        const { items: seen, pages } = await readAllPages<WorkspaceBody>(
          (q) => accountCaller(app, app.owner.token)('GET', `/v1/admin/workspaces?${q}`),
          'workspaces',
          2,
        );
        expect(pages).toBe(3);
        const ids = seen.map((w) => w.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toEqual([app.workspaceId, ...created]);
        expect(ids).not.toContain(other.workspaceId);
        for (const w of seen) expect(w.role).toBe('owner');
        expect(seen[0]).toMatchObject({ id: app.workspaceId, botCount: 1 });
      });
    });

    it('answers the last page without a nextToken', async () => {
      const res = await accountCaller(t, t.owner.token)('GET', '/v1/admin/workspaces?pageSize=100');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ meta: {} });
      expect((res.json() as { meta: object }).meta).not.toHaveProperty('nextToken');
    });

    it("shows a member the workspace it was added to, with the member's role", async () => {
      const dev = await t.addMember('developer');
      const res = await t.call({ method: 'GET', url: '/v1/admin/workspaces', token: dev.token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        workspaces: [expect.objectContaining({ id: t.workspaceId, role: 'developer' })],
        meta: {},
      });
    });

    it('rejects a malformed nextToken with 400 InvalidQuery', async () => {
      const res = await accountCaller(t, t.owner.token)('GET', '/v1/admin/workspaces?nextToken=not-a-token');
      expectInvalid(res, 'InvalidQuery', 'nextToken');
    });

    it('rejects a page size out of range with 400 InvalidQuery naming pageSize', async () => {
      const res = await accountCaller(t, t.owner.token)('GET', '/v1/admin/workspaces?pageSize=0');
      expectInvalid(res, 'InvalidQuery', 'pageSize');
    });

    it('answers 401 to an unknown token', async () => {
      const res = await t.call({ method: 'GET', url: '/v1/admin/workspaces', token: 'pat_nope' });
      expectError(res, 401, 'Unauthorized');
    });
  });

  describe('GET /v1/admin/workspaces/{id}', () => {
    it('answers the workspace named by x-workspace-id at top level', async () => {
      const res = await t.asOwner('GET', `/v1/admin/workspaces/${t.workspaceId}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: t.workspaceId,
        ownerId: t.owner.accountId,
        role: 'owner',
        botCount: expect.any(Number),
      });
    });

    it('answers 404 when the path names another workspace than x-workspace-id, even one of mine', async () => {
      const mine = await newWorkspace('Second of mine');
      const res = await t.asOwner('GET', `/v1/admin/workspaces/${mine.id}`);
      const body = expectError(res, 404, 'ResourceNotFound');
      expect(body.message).toContain(mine.id);
    });

    it("answers 404 for another tenant's workspace", async () => {
      const other = await t.otherTenant();
      const res = await t.asOwner('GET', `/v1/admin/workspaces/${other.workspaceId}`);
      expectError(res, 404, 'ResourceNotFound');
    });

    it('answers 401 without x-workspace-id', async () => {
      const res = await accountCaller(t, t.owner.token)('GET', `/v1/admin/workspaces/${t.workspaceId}`);
      const body = expectError(res, 401, 'Unauthorized');
      expect(body.message).toContain('x-workspace-id');
    });

    it('answers 401 when x-workspace-id names a workspace the caller does not belong to', async () => {
      const other = await t.otherTenant();
      const res = await caller(
        t,
        t.owner.token,
        other.workspaceId,
      )('GET', `/v1/admin/workspaces/${other.workspaceId}`);
      expectError(res, 401, 'Unauthorized');
    });
  });

  describe('PUT /v1/admin/workspaces/{id}', () => {
    it('updates name, about, contact e-mail and website and answers the workspace', async () => {
      const ws = await newWorkspace('Settings');
      const settings = {
        name: 'Renamed',
        about: 'We build bots',
        contactEmail: 'ops@example.com',
        website: 'https://example.com/bots',
      };
      const res = await caller(t, t.owner.token, ws.id)('PUT', `/v1/admin/workspaces/${ws.id}`, settings);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: ws.id, ...settings, role: 'owner' });
      const again = await caller(t, t.owner.token, ws.id)('GET', `/v1/admin/workspaces/${ws.id}`);
      expect(again.json()).toMatchObject(settings);
    });

    it('keeps fields that are not sent and clears contact e-mail and website with empty strings', async () => {
      const ws = await newWorkspace('Partial');
      const put = (body: unknown) =>
        t.call({
          method: 'PUT',
          url: `/v1/admin/workspaces/${ws.id}`,
          token: t.owner.token,
          workspaceId: ws.id,
          body,
        });
      await put({ contactEmail: 'a@example.com', website: 'https://a.example.com' });
      const res = await put({ about: 'only about', contactEmail: '', website: '' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        name: 'Partial',
        about: 'only about',
        contactEmail: '',
        website: '',
      });
    });

    it('rejects a bad contact e-mail with 400 naming contactEmail', async () => {
      const res = await t.asOwner('PUT', `/v1/admin/workspaces/${t.workspaceId}`, {
        contactEmail: 'not-an-email',
      });
      const body = expectInvalid(res, 'InvalidPayload', 'contactEmail');
      expect(body.message).toContain('contactEmail');
    });

    it('rejects a website that is not a URL with 400 naming website', async () => {
      const res = await t.asOwner('PUT', `/v1/admin/workspaces/${t.workspaceId}`, { website: 'not a url' });
      expectInvalid(res, 'InvalidPayload', 'website');
    });

    it('rejects an empty name with 400 naming name', async () => {
      const res = await t.asOwner('PUT', `/v1/admin/workspaces/${t.workspaceId}`, { name: '' });
      expectInvalid(res, 'InvalidPayload', 'name');
    });

    it('leaves the workspace unchanged when validation fails', async () => {
      const before = (
        await t.asOwner('GET', `/v1/admin/workspaces/${t.workspaceId}`)
      ).json() as WorkspaceBody;
      await t.asOwner('PUT', `/v1/admin/workspaces/${t.workspaceId}`, {
        name: 'Should not stick',
        contactEmail: 'bad',
      });
      const after = (await t.asOwner('GET', `/v1/admin/workspaces/${t.workspaceId}`)).json() as WorkspaceBody;
      expect(after.name).toBe(before.name);
    });

    it('lets an administrator update the settings', async () => {
      const admin = await t.addMember('administrator');
      const res = await caller(t, admin.token)('PUT', `/v1/admin/workspaces/${t.workspaceId}`, {
        about: 'set by an administrator',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ about: 'set by an administrator', role: 'administrator' });
    });

    it.each(['developer', 'manager', 'viewer', 'billing'] as const)(
      'forbids a %s to update the settings (403)',
      async (role) => {
        const m = await t.addMember(role);
        const res = await caller(t, m.token)('PUT', `/v1/admin/workspaces/${t.workspaceId}`, {
          about: `set by ${role}`,
        });
        const body = expectError(res, 403, 'Forbidden');
        expect(body.message).toContain(role);
        const ws = (await t.asOwner('GET', `/v1/admin/workspaces/${t.workspaceId}`)).json() as WorkspaceBody;
        expect(ws.about).not.toBe(`set by ${role}`);
      },
    );

    it('answers 404 when the path names another workspace than x-workspace-id', async () => {
      const mine = await newWorkspace('Not this one');
      const res = await t.asOwner('PUT', `/v1/admin/workspaces/${mine.id}`, { name: 'x' });
      expectError(res, 404, 'ResourceNotFound');
    });
  });

  describe('DELETE /v1/admin/workspaces/{id}', () => {
    it('forbids an administrator to delete the workspace (403)', async () => {
      const admin = await t.addMember('administrator');
      const res = await caller(t, admin.token)('DELETE', `/v1/admin/workspaces/${t.workspaceId}`);
      const body = expectError(res, 403, 'Forbidden');
      expect(body.message).toContain('administrator');
      expect((await t.asOwner('GET', `/v1/admin/workspaces/${t.workspaceId}`)).statusCode).toBe(200);
    });

    it('answers 404 when the path names another workspace than x-workspace-id', async () => {
      const mine = await newWorkspace('Kept');
      const res = await t.asOwner('DELETE', `/v1/admin/workspaces/${mine.id}`);
      expectError(res, 404, 'ResourceNotFound');
      const still = await caller(t, t.owner.token, mine.id)('GET', `/v1/admin/workspaces/${mine.id}`);
      expect(still.statusCode).toBe(200);
    });

    it('lets the owner delete it; then it is gone and its bot keys stop working', async () => {
      const ws = await newWorkspace('Doomed');
      const as = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
        t.call({ method, url, token: t.owner.token, workspaceId: ws.id, body });
      const bot = await as('POST', '/v1/admin/bots', { name: 'Doomed bot' });
      expect(bot.statusCode).toBe(201);
      const botId = (bot.json() as { bot: { id: string } }).bot.id;
      const key = await as('POST', `/v1/admin/bots/${botId}/access-keys`, { note: 'k' });
      expect(key.statusCode).toBe(201);
      const botKey = (key.json() as { key: { value: string } }).key.value;

      // While the workspace lives, the bot key is known but has no Admin API rights.
      const before = await caller(t, botKey, ws.id)('GET', '/v1/admin/bots');
      expectError(before, 403, 'Forbidden');

      const del = await as('DELETE', `/v1/admin/workspaces/${ws.id}`);
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual({});

      const after = await t.call({ method: 'GET', url: '/v1/admin/bots', token: botKey, workspaceId: ws.id });
      expectError(after, 401, 'Unauthorized');
      expect(await t.app.services.identity.resolver.resolveToken(botKey)).toBeUndefined();

      expectError(await as('GET', `/v1/admin/workspaces/${ws.id}`), 401, 'Unauthorized');
      expectError(await as('GET', `/v1/admin/bots/${botId}`), 401, 'Unauthorized');
      const list = await accountCaller(t, t.owner.token)('GET', '/v1/admin/workspaces?pageSize=100');
      const ids = (list.json() as { workspaces: WorkspaceBody[] }).workspaces.map((w) => w.id);
      expect(ids).not.toContain(ws.id);
      expect(ids).toContain(t.workspaceId);
      // The owner's own token keeps working elsewhere.
      expect((await t.asOwner('GET', `/v1/admin/bots/${t.botId}`)).statusCode).toBe(200);
    });
  });

  describe('GET /v1/admin/workspaces/{id}/usages', () => {
    it('answers usage figures with the bot count and the bot quota from PARLEY_QUOTA_BOTS_PER_WORKSPACE', async () => {
      await withTestApp(
        async (app) => {
          await app.asOwner('POST', '/v1/admin/bots', { name: 'Second' });
          await app.asOwner('POST', '/v1/admin/bots', { name: 'Third' });
          const res = await app.asOwner('GET', `/v1/admin/workspaces/${app.workspaceId}/usages`);
          expect(res.statusCode).toBe(200);
          const { usages } = res.json() as {
            usages: Array<{ id: string; period: string; type: string; value: number; quota: number | null }>;
          };
          for (const u of usages) {
            expect(u.id).toBe(app.workspaceId);
            expect(u.period).toMatch(/^\d{4}-\d{2}$/);
            expect(Object.keys(u).sort()).toEqual(['id', 'period', 'quota', 'type', 'value']);
          }
          expect(usages.find((u) => u.type === 'bot_count')).toMatchObject({ value: 3, quota: 5 });
          expect(usages.find((u) => u.type === 'workspace_member_count')).toMatchObject({ value: 1 });
        },
        { env: { PARLEY_QUOTA_BOTS_PER_WORKSPACE: '5' } },
      );
    });

    it('answers a null bot quota when no quota is set, and a bot count matching the list of bots', async () => {
      const res = await t.asOwner('GET', `/v1/admin/workspaces/${t.workspaceId}/usages`);
      expect(res.statusCode).toBe(200);
      const bots = (await t.asOwner('GET', '/v1/admin/bots?pageSize=100')).json() as { bots: unknown[] };
      const { usages } = res.json() as { usages: Array<{ type: string; value: number; quota: unknown }> };
      expect(usages.find((u) => u.type === 'bot_count')).toMatchObject({
        value: bots.bots.length,
        quota: null,
      });
    });

    it('lets a billing member read usages but not bots', async () => {
      const billing = await t.addMember('billing');
      const as = (url: string) =>
        t.call({ method: 'GET', url, token: billing.token, workspaceId: t.workspaceId });
      const usages = await as(`/v1/admin/workspaces/${t.workspaceId}/usages`);
      expect(usages.statusCode).toBe(200);
      expect(usages.json()).toMatchObject({
        usages: expect.arrayContaining([{ ...usageShape('bot_count') }]),
      });
      expectError(await as('/v1/admin/bots'), 403, 'Forbidden');
      expectError(await as(`/v1/admin/bots/${t.botId}`), 403, 'Forbidden');
    });

    it("answers 404 for another workspace's usages", async () => {
      const other = await t.otherTenant();
      const res = await t.asOwner('GET', `/v1/admin/workspaces/${other.workspaceId}/usages`);
      expectError(res, 404, 'ResourceNotFound');
    });

    it('answers 401 without a token', async () => {
      const res = await t.call({
        method: 'GET',
        url: `/v1/admin/workspaces/${t.workspaceId}/usages`,
        workspaceId: t.workspaceId,
      });
      expectError(res, 401, 'Unauthorized');
    });
  });
});

function usageShape(type: string) {
  return {
    id: expect.any(String),
    period: expect.any(String),
    type,
    value: expect.any(Number),
    quota: null,
  };
}
