import type { AuditRecord, ListMeta } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { caller, withTestApp } from '../../../../testkit/src/server/admin-calls.js';
import { readAllPages } from '../../../../testkit/src/server/admin-pages.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import type { TestApp } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

/** A page of audit records. */
type Page = { records: AuditRecord[]; meta: ListMeta };

describe('audit records', () => {
  const t = useTestApp();

  const auditUrl = (workspaceId: string, query = '') =>
    `/v1/admin/workspaces/${workspaceId}/audit-records${query}`;

  /** Every audit record of the bootstrap workspace, newest first, read as the owner. */
  async function allRecords(app: TestApp = t): Promise<AuditRecord[]> {
    const res = await app.asOwner('GET', auditUrl(app.workspaceId, '?pageSize=100'));
    expect(res.statusCode).toBe(200);
    const page = res.json() as Page;
    expect(page.meta).toEqual({});
    return page.records;
  }

  /** The newest record, after a mutation. */
  async function newest(): Promise<AuditRecord> {
    const res = await t.asOwner('GET', auditUrl(t.workspaceId, '?pageSize=1'));
    expect(res.statusCode).toBe(200);
    const [record] = (res.json() as Page).records;
    expect(record).toBeDefined();
    return record as AuditRecord;
  }

  /** Shape of a record made by the bootstrap owner. */
  const byOwner = (action: string, resourceId: string, resourceName?: string) => ({
    id: expect.stringMatching(/^audit_/),
    recordedAt: expect.any(String),
    userId: t.owner.accountId,
    userEmail: t.owner.email,
    resourceId,
    ...(resourceName !== undefined ? { resourceName } : {}),
    action,
  });

  describe('every Admin mutation is recorded', () => {
    it('records creating, updating and deleting a bot', async () => {
      const created = await t.asOwner('POST', '/v1/admin/bots', { name: 'Audited bot' });
      const botId = (created.json() as { bot: { id: string } }).bot.id;
      expect(await newest()).toMatchObject(byOwner('CREATE_BOT', botId, 'Audited bot'));

      expect((await t.asOwner('PUT', `/v1/admin/bots/${botId}`, { name: 'Renamed bot' })).statusCode).toBe(
        200,
      );
      const updated = await newest();
      expect(updated).toMatchObject(byOwner('UPDATE_BOT', botId, 'Renamed bot'));
      expect(JSON.parse(updated.value ?? '{}')).toEqual({ name: 'Renamed bot' });

      expect((await t.asOwner('DELETE', `/v1/admin/bots/${botId}`)).statusCode).toBe(200);
      expect(await newest()).toMatchObject(byOwner('DELETE_BOT', botId, 'Renamed bot'));
    });

    it('records adding, updating and removing a member', async () => {
      const email = `audited-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const added = await t.asOwner('POST', '/v1/admin/workspace-members', { email, role: 'viewer' });
      const memberId = (added.json() as { id: string }).id;
      const add = await newest();
      expect(add).toMatchObject(byOwner('ADD_WORKSPACE_MEMBER', memberId, email));
      expect(JSON.parse(add.value ?? '{}')).toEqual({ role: 'viewer' });

      await t.asOwner('PUT', `/v1/admin/workspace-members/${memberId}`, { role: 'developer' });
      const update = await newest();
      expect(update).toMatchObject(byOwner('UPDATE_WORKSPACE_MEMBER', memberId, email));
      expect(JSON.parse(update.value ?? '{}')).toEqual({ from: 'viewer', to: 'developer' });

      await t.asOwner('DELETE', `/v1/admin/workspace-members/${memberId}`);
      expect(await newest()).toMatchObject(byOwner('REMOVE_WORKSPACE_MEMBER', memberId, email));
    });

    it('records updating the workspace settings', async () => {
      const res = await t.asOwner('PUT', `/v1/admin/workspaces/${t.workspaceId}`, {
        name: 'Audited workspace',
        about: 'about',
      });
      expect(res.statusCode).toBe(200);
      const record = await newest();
      expect(record).toMatchObject(byOwner('UPDATE_WORKSPACE', t.workspaceId, 'Audited workspace'));
      expect(JSON.parse(record.value ?? '{}')).toEqual({ name: 'Audited workspace', about: 'about' });
    });

    it('records creating and revoking a bot access key, never with the key value', async () => {
      const created = await t.asOwner('POST', `/v1/admin/bots/${t.botId}/access-keys`, { note: 'audited' });
      const key = (created.json() as { key: { id: string; value: string } }).key;
      expect(await newest()).toMatchObject(byOwner('CREATE_BOT_ACCESS_KEY', key.id, 'Demo bot'));
      await t.asOwner('DELETE', `/v1/admin/bots/${t.botId}/access-keys/${key.id}`);
      expect(await newest()).toMatchObject(byOwner('REVOKE_BOT_ACCESS_KEY', key.id, 'Demo bot'));
      const res = await t.asOwner('GET', auditUrl(t.workspaceId, '?pageSize=100'));
      expect(res.body).not.toContain(key.value);
    });

    it('records a webchat configuration update', async () => {
      const res = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, {
        configuration: { botName: 'Helper', themeMode: 'dark' },
      });
      expect(res.statusCode).toBe(200);
      expect(await newest()).toMatchObject(byOwner('UPDATE_BOT_WEBCHAT', t.botId, 'Demo bot'));
    });

    it('records creating and installing an integration', async () => {
      const created = await t.asOwner('POST', '/v1/admin/integrations', { name: 'audited-integration' });
      const integrationId = (created.json() as { integration: { id: string } }).integration.id;
      expect(await newest()).toMatchObject(
        byOwner('CREATE_INTEGRATION', integrationId, 'audited-integration'),
      );
      const installed = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/integrations/${integrationId}`);
      expect(installed.statusCode).toBe(200);
      const record = await newest();
      expect(record).toMatchObject(byOwner('INSTALL_INTEGRATION', integrationId, 'audited-integration'));
      expect(JSON.parse(record.value ?? '{}')).toEqual({ botId: t.botId });
    });

    it('records a mutation by another member under that member', async () => {
      const admin = await t.addMember('administrator');
      const res = await caller(t, admin.token)('POST', '/v1/admin/bots', { name: 'By admin' });
      const botId = (res.json() as { bot: { id: string } }).bot.id;
      expect(await newest()).toMatchObject({
        userId: admin.accountId,
        userEmail: admin.email,
        action: 'CREATE_BOT',
        resourceId: botId,
      });
    });

    it('records nothing for a mutation that is refused', async () => {
      const viewer = await t.addMember('viewer');
      const before = await newest();
      const refused = await caller(t, viewer.token)('POST', '/v1/admin/bots', { name: 'Refused' });
      expectError(refused, 403, 'Forbidden');
      const invalid = await t.asOwner('PUT', `/v1/admin/workspaces/${t.workspaceId}`, {
        contactEmail: 'bad',
      });
      expectError(invalid, 400, 'InvalidPayload');
      expect((await newest()).id).toBe(before.id);
    });

    it('records the bootstrap: the workspace and its demo bot', async () => {
      await withTestApp(async (app) => {
        const records = await allRecords(app);
        expect(records.map((r) => r.action)).toEqual(['CREATE_BOT', 'CREATE_WORKSPACE']);
        expect(records[0]).toMatchObject({ resourceId: app.botId, userId: app.owner.accountId });
        expect(records[1]).toMatchObject({ resourceId: app.workspaceId, userEmail: app.owner.email });
      });
    });
  });

  describe('GET /v1/admin/workspaces/{id}/audit-records', () => {
    it('answers records newest first', async () => {
      const records = await allRecords();
      expect(records.length).toBeGreaterThan(5);
      const ids = records.map((r) => r.id);
      expect(ids).toEqual([...ids].sort().reverse());
      for (let i = 1; i < records.length; i += 1) {
        const prev = records[i - 1] as AuditRecord;
        const cur = records[i] as AuditRecord;
        expect(Date.parse(prev.recordedAt)).toBeGreaterThanOrEqual(Date.parse(cur.recordedAt));
      }
      for (const r of records) {
        expect(Object.keys(r)).toEqual(
          expect.arrayContaining(['id', 'recordedAt', 'userId', 'resourceId', 'action']),
        );
      }
    });

    it('pages through every record three at a time without duplicates or gaps', async () => {
      await withTestApp(async (app) => {
        for (let i = 0; i < 6; i += 1) await app.asOwner('POST', '/v1/admin/bots', { name: `Bot ${i}` });
        const all = await allRecords(app);
        expect(all).toHaveLength(8);
        const { items: paged, pages } = await readAllPages<AuditRecord>(
          (q) => app.asOwner('GET', auditUrl(app.workspaceId, `?${q}`)),
          'records',
          3,
        );
        expect(pages).toBe(3);
        const ids = paged.map((r) => r.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toEqual(all.map((r) => r.id));
      });
    });

    it('rejects a malformed nextToken with 400 InvalidQuery', async () => {
      const res = await t.asOwner('GET', auditUrl(t.workspaceId, '?nextToken=garbage'));
      expectError(res, 400, 'InvalidQuery');
    });

    it.each(['manager', 'administrator'] as const)('lets a %s read the audit records', async (role) => {
      const m = await t.addMember(role);
      const res = await caller(t, m.token)('GET', auditUrl(t.workspaceId));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ records: expect.any(Array), meta: expect.any(Object) });
    });

    it('lets the owner read the audit records', async () => {
      expect((await t.asOwner('GET', auditUrl(t.workspaceId))).statusCode).toBe(200);
    });

    it.each(['developer', 'viewer', 'billing'] as const)(
      'forbids a %s to read the audit records (403)',
      async (role) => {
        const m = await t.addMember(role);
        const res = await caller(t, m.token)('GET', auditUrl(t.workspaceId));
        const body = expectError(res, 403, 'Forbidden');
        expect(body.message).toContain(role);
      },
    );

    it('forbids a bot access key (403)', async () => {
      const res = await caller(t, t.botKey)('GET', auditUrl(t.workspaceId));
      expectError(res, 403, 'Forbidden');
    });

    it("answers 404 for another workspace's id, without leaking its records", async () => {
      const other = await t.otherTenant();
      const res = await t.asOwner('GET', auditUrl(other.workspaceId));
      const body = expectError(res, 404, 'ResourceNotFound');
      expect(body).not.toHaveProperty('records');
    });

    it('answers 401 when x-workspace-id names a workspace the caller is not in', async () => {
      const other = await t.otherTenant();
      const res = await caller(t, t.owner.token, other.workspaceId)('GET', auditUrl(other.workspaceId));
      expectError(res, 401, 'Unauthorized');
    });

    it("keeps each workspace's records apart", async () => {
      const other = await t.otherTenant();
      const res = await caller(
        t,
        other.token,
        other.workspaceId,
      )('GET', auditUrl(other.workspaceId, '?pageSize=100'));
      expect(res.statusCode).toBe(200);
      const records = (res.json() as Page).records;
      expect(records.map((r) => r.action)).toEqual(['CREATE_BOT', 'CREATE_WORKSPACE']);
      expect(records.map((r) => r.userEmail)).toEqual([other.email, other.email]);
      expect((await allRecords()).map((r) => r.resourceId)).not.toContain(other.botId);
    });
  });
});
