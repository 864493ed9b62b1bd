import { describe, expect, it } from 'vitest';
import { caller } from '../../../../testkit/src/server/admin-calls.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';

describe('harness', () => {
  const t = useTestApp();
  it('lists the bootstrap demo bot for the owner', async () => {
    const res = await t.asOwner('GET', '/v1/admin/bots');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ bots: [{ id: t.botId, name: 'Demo bot' }], meta: {} });
  });
  it('adds a viewer who can read but not create bots', async () => {
    const viewer = await t.addMember('viewer');
    const list = await caller(t, viewer.token)('GET', '/v1/admin/bots');
    expect(list.statusCode).toBe(200);
    const create = await caller(t, viewer.token)('POST', '/v1/admin/bots', { name: 'x' });
    expect(create.statusCode).toBe(403);
    expect(create.json()).toMatchObject({ code: 403, type: 'Forbidden' });
  });
});
