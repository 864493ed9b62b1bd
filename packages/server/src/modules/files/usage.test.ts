import { describe, expect, it } from 'vitest';
import { caller } from '../../../../testkit/src/server/admin-calls.js';
import { api, store } from '../../../../testkit/src/server/files-api.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';

describe('File Storage usage per bot', () => {
  const t = useTestApp({ env: { PARLEY_QUOTA_BOT_FILE_STORAGE_BYTES: '1000' } });

  it('reports the bytes of the bot’s uploaded files against the per-bot quota', async () => {
    await store(t, 'a.bin', Buffer.alloc(100, 1));
    await store(t, 'b.bin', Buffer.alloc(250, 2));
    const res = await t.asOwner('GET', `/v1/admin/bots/${t.botId}/usages`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      usages: [
        {
          id: t.botId,
          period: expect.stringMatching(/^\d{4}-\d{2}$/),
          type: 'storage_count',
          value: 350,
          quota: 1000,
        },
        {
          id: t.botId,
          period: expect.stringMatching(/^\d{4}-\d{2}$/),
          type: 'chat_storage_count',
          value: 0,
          quota: null,
        },
        {
          id: t.botId,
          period: expect.stringMatching(/^\d{4}-\d{2}$/),
          type: 'knowledgebase_vector_storage',
          value: 0,
          quota: null,
        },
      ],
    });
  });

  it('refuses a file that would pass the per-bot quota with 403 QuotaExceeded and creates nothing', async () => {
    const res = await api(t, 'PUT', '/v1/files', { key: 'too-big.bin', size: 651 });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 403, type: 'QuotaExceeded' });
    const get = await api(t, 'GET', '/v1/files/too-big.bin');
    expect(get.statusCode).toBe(404);
  });

  it('answers 404 for another workspace’s bot and 403 for a role without usage rights', async () => {
    const other = await t.otherTenant();
    const res = await t.asOwner('GET', `/v1/admin/bots/${other.botId}/usages`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ type: 'ResourceNotFound' });
    const billing = await t.addMember('billing');
    const denied = await caller(t, billing.token)('GET', `/v1/admin/bots/${t.botId}/usages`);
    expect(denied.statusCode).toBe(403);
  });
});
