// Knowledge bases and files in the audit trail: a member's create, rename and delete of a knowledge base, and
// upload, tag change and delete of a file, are recorded with the file's key or the knowledge base's name; a
// bot key's changes to files are not (the bot's own traffic). The action filter finds each new type.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { callAs } from '../../../../testkit/src/server/files-api.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { AUDIT_ACTIONS } from './service.js';

interface Record_ {
  action: string;
  userId: string | null;
  resourceId: string | null;
  resourceName?: string;
  value?: string;
}

describe('knowledge and file events in the audit trail', () => {
  const t = useTestApp();

  async function records(action?: string): Promise<Record_[]> {
    const query = action ? `&action=${action}` : '';
    const res = await t.asOwner(
      'GET',
      `/v1/admin/workspaces/${t.workspaceId}/audit-records?pageSize=50${query}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { records: Record_[] }).records;
  }

  it("records a member's knowledge base created, renamed and deleted, with its name", async () => {
    const created = await callAs(t, t.owner.token, 'POST', '/v1/files/knowledge-bases', { name: 'Manuals' });
    expect(created.statusCode, created.body).toBe(201);
    const kb = (created.json() as { knowledgeBase: { id: string } }).knowledgeBase;
    const renamed = await callAs(t, t.owner.token, 'PUT', `/v1/files/knowledge-bases/${kb.id}`, {
      name: 'Product manuals',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await callAs(t, t.owner.token, 'DELETE', `/v1/files/knowledge-bases/${kb.id}`)).statusCode).toBe(
      200,
    );

    const ours = (await records()).filter((r) => r.resourceId === kb.id);
    expect(ours.map((r) => [r.action, r.resourceName, r.userId])).toEqual([
      ['DELETE_KNOWLEDGE_BASE', 'Product manuals', t.owner.accountId],
      ['UPDATE_KNOWLEDGE_BASE', 'Product manuals', t.owner.accountId],
      ['CREATE_KNOWLEDGE_BASE', 'Manuals', t.owner.accountId],
    ]);
    expect(JSON.parse(ours[1]?.value ?? '{}')).toEqual({ botId: t.botId, previousName: 'Manuals' });
    expect((await records('UPDATE_KNOWLEDGE_BASE')).map((r) => r.resourceId)).toEqual([kb.id]);
  });

  it("records a member's file upload, tag change and deletion with the file's key, not a bot key's", async () => {
    const up = await callAs(t, t.owner.token, 'PUT', '/v1/files', { key: 'guides/setup.md', size: 12 });
    expect(up.statusCode, up.body).toBe(200);
    const file = (up.json() as { file: { id: string } }).file;
    const tagged = await callAs(t, t.owner.token, 'PUT', `/v1/files/${file.id}`, {
      tags: { topic: 'setup' },
    });
    expect(tagged.statusCode, tagged.body).toBe(200);
    expect((await callAs(t, t.owner.token, 'DELETE', `/v1/files/${file.id}`)).statusCode).toBe(200);
    // The bot's own upload is its traffic, not a person's change.
    const byBot = await callAs(t, t.botKey, 'PUT', '/v1/files', { key: 'bot/upload.txt', size: 3 });
    expect(byBot.statusCode, byBot.body).toBe(200);

    const all = await records();
    const ours = all.filter((r) => r.resourceId === file.id);
    expect(ours.map((r) => [r.action, r.resourceName, r.userId])).toEqual([
      ['DELETE_FILE', 'guides/setup.md', t.owner.accountId],
      ['UPDATE_FILE', 'guides/setup.md', t.owner.accountId],
      ['UPLOAD_FILE', 'guides/setup.md', t.owner.accountId],
    ]);
    expect(JSON.parse(ours[1]?.value ?? '{}')).toEqual({ botId: t.botId, tags: { topic: 'setup' } });
    expect(JSON.parse(ours[2]?.value ?? '{}')).toEqual({ botId: t.botId, size: 12 });
    expect(all.some((r) => r.resourceName === 'bot/upload.txt')).toBe(false);
    expect((await records('UPLOAD_FILE')).map((r) => r.resourceName)).toEqual(['guides/setup.md']);
  });

  it('lists every recorded action type in the Admin API reference', async () => {
    const doc = await readFile(new URL('../../../../../docs/admin-api.md', import.meta.url), 'utf8');
    for (const action of AUDIT_ACTIONS) expect(doc, action).toContain(`\`${action}\``);
  });
});
