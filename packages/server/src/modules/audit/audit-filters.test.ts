import type { AuditRecord, ListMeta } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { caller, newBot, withTestApp } from '../../../../testkit/src/server/admin-calls.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

/** A page of audit records. */
type Page = { records: AuditRecord[]; meta: ListMeta };

const auditUrl = (workspaceId: string, query: string) =>
  `/v1/admin/workspaces/${workspaceId}/audit-records${query}`;

describe('GET /v1/admin/workspaces/{id}/audit-records filters', () => {
  it('narrows to one action, one actor, or both, paging within the filter', async () => {
    await withTestApp(async (t) => {
      const developer = await t.addMember('developer');
      const asDeveloper = caller(t, developer.token);
      const ownerBots = [await newBot(t, 'one'), await newBot(t, 'two'), await newBot(t, 'three')];
      const developerBot = await newBot(t, 'mine', asDeveloper);
      await t.asOwner('PUT', `/v1/admin/bots/${ownerBots[0]}`, { name: 'renamed' });
      const list = async (query: string) => {
        const res = await t.asOwner('GET', auditUrl(t.workspaceId, query));
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as Page;
      };

      const created = await list('?action=CREATE_BOT&pageSize=100');
      expect(created.records.every((r) => r.action === 'CREATE_BOT')).toBe(true);
      expect(created.records.map((r) => r.resourceId)).toEqual(
        expect.arrayContaining([...ownerBots, developerBot]),
      );

      const byDeveloper = await list(`?userId=${developer.accountId}&pageSize=100`);
      expect(byDeveloper.records.map((r) => [r.action, r.resourceId])).toEqual([
        ['CREATE_BOT', developerBot],
        ['ACCEPT_WORKSPACE_INVITATION', expect.any(String)],
      ]);

      const both = await list(`?action=CREATE_BOT&userId=${t.owner.accountId}&pageSize=2`);
      expect(both.records.map((r) => r.resourceId)).toEqual([ownerBots[2], ownerBots[1]]);
      expect(both.meta.nextToken).toEqual(expect.any(String));
      const rest = await list(
        `?action=CREATE_BOT&userId=${t.owner.accountId}&pageSize=100&nextToken=${both.meta.nextToken}`,
      );
      expect(rest.records.map((r) => r.resourceId)).toContain(ownerBots[0]);
      expect(rest.records.every((r) => r.action === 'CREATE_BOT' && r.userId === t.owner.accountId)).toBe(
        true,
      );

      expect((await list('?action=NO_SUCH_ACTION')).records).toEqual([]);
    });
  });

  it('refuses an empty filter value with 400 InvalidQuery', async () => {
    await withTestApp(async (t) => {
      expectError(await t.asOwner('GET', auditUrl(t.workspaceId, '?action=')), 400, 'InvalidQuery');
      expectError(await t.asOwner('GET', auditUrl(t.workspaceId, '?userId=')), 400, 'InvalidQuery');
    });
  });
});
