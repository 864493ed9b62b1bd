import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/harness.js';

describe('harness', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  it('lists the bootstrap demo bot for the owner', async () => {
    const res = await t.asOwner('GET', '/v1/admin/bots');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ bots: [{ id: t.botId, name: 'Demo bot' }], meta: {} });
  });
  it('adds a viewer who can read but not create bots', async () => {
    const viewer = await t.addMember('viewer');
    const list = await t.call({
      method: 'GET',
      url: '/v1/admin/bots',
      token: viewer.token,
      workspaceId: t.workspaceId,
    });
    expect(list.statusCode).toBe(200);
    const create = await t.call({
      method: 'POST',
      url: '/v1/admin/bots',
      token: viewer.token,
      workspaceId: t.workspaceId,
      body: { name: 'x' },
    });
    expect(create.statusCode).toBe(403);
    expect(create.json()).toMatchObject({ code: 403, type: 'Forbidden' });
  });
});
