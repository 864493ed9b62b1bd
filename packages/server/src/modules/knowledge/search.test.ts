import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/harness.js';
import { expectError } from '../../test-support/wire.js';

const GUIDE = `# Parley handbook

## Refunds

Customers may ask for a refund within 30 days of purchase. Refunds go back to the original card.

## Shipping

Parcels leave the warehouse every weekday at noon. International shipping takes five to ten days.
`;

async function upload(
  t: TestApp,
  key: string,
  text: string,
  extra: Record<string, unknown> = {},
  token = t.botKey,
) {
  const bytes = Buffer.from(text);
  const upsert = await t.call({
    method: 'PUT',
    url: '/v1/files',
    token,
    headers: { 'x-bot-id': t.botId },
    body: { key, size: bytes.length, index: true, ...extra },
  });
  expect(upsert.statusCode).toBe(200);
  const url = new URL((upsert.json() as { file: { uploadUrl: string } }).file.uploadUrl);
  const up = await t.app.inject({
    method: 'PUT',
    url: `${url.pathname}${url.search}`,
    payload: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(up.statusCode).toBe(200);
  return (up.json() as { file: { id: string; status: string } }).file;
}

async function waitIndexed(t: TestApp, id: string) {
  for (let i = 0; i < 200; i++) {
    const res = await t.call({
      method: 'GET',
      url: `/v1/files/${id}`,
      token: t.botKey,
      headers: { 'x-bot-id': t.botId },
    });
    const file = (res.json() as { file: { status: string; failedStatusReason?: string } }).file;
    if (file.status !== 'indexing_pending') return file;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('indexing did not finish');
}

const search = (t: TestApp, query: string, extra = '', token = t.botKey) =>
  t.call({
    method: 'GET',
    url: `/v1/files/search?query=${encodeURIComponent(query)}${extra}`,
    token,
    headers: { 'x-bot-id': t.botId },
  });

describe('indexing and searchFiles (lexical, SQLite)', () => {
  let t: TestApp;
  let fileId: string;
  beforeAll(async () => {
    t = await createTestApp({ workers: true });
    const file = await upload(t, 'handbook.md', GUIDE, { tags: { team: 'support' } });
    expect(file.status).toBe('indexing_pending');
    fileId = file.id;
    expect(await waitIndexed(t, fileId)).toMatchObject({ status: 'indexing_completed' });
  });
  afterAll(() => t.close());

  it('finds the passage that answers a question, with its file and section', async () => {
    const res = await search(t, 'how long do I have to ask for a refund?');
    expect(res.statusCode).toBe(200);
    const passages = (
      res.json() as {
        passages: Array<{
          content: string;
          score: number;
          meta: { type: string; subtype: string };
          file: { id: string; key: string; tags: Record<string, string> };
        }>;
      }
    ).passages;
    expect(passages[0]?.content).toContain('refund within 30 days');
    expect(passages[0]).toMatchObject({
      meta: { type: 'chunk' },
      file: { id: fileId, key: 'handbook.md', tags: { team: 'support' } },
    });
  });

  it('prefixes the section path with includeBreadcrumb and returns neighbours apart with withContext', async () => {
    const crumb = (await search(t, 'warehouse parcels', '&includeBreadcrumb=true')).json() as {
      passages: Array<{ content: string }>;
    };
    expect(crumb.passages[0]?.content).toMatch(/Shipping/);
    const ctx = (await search(t, 'warehouse parcels', '&withContext=true&contextDepth=1')).json() as {
      passages: Array<{ context?: Array<{ type: string }> }>;
    };
    expect(ctx.passages[0]?.context?.some((c) => c.type === 'current')).toBe(true);
  });

  it('lists the file passages in order and pages them', async () => {
    const res = await t.call({
      method: 'GET',
      url: `/v1/files/${fileId}/passages?limit=1`,
      token: t.botKey,
      headers: { 'x-bot-id': t.botId },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      passages: Array<{ meta: { position: number } }>;
      meta: { nextToken?: string };
    };
    expect(body.passages).toHaveLength(1);
    expect(body.meta.nextToken).toEqual(expect.any(String));
  });

  it('refuses a query over 1 KB, a limit over 50 and a missing query with 400', async () => {
    expectError(await search(t, 'x'.repeat(1025)), 400, 'InvalidPayload');
    expectError(await search(t, 'refund', '&limit=51'), 400, 'InvalidPayload');
    const missing = await t.call({
      method: 'GET',
      url: '/v1/files/search',
      token: t.botKey,
      headers: { 'x-bot-id': t.botId },
    });
    expect(missing.statusCode).toBe(400);
  });

  it('stops finding a file at once when it is deleted', async () => {
    const other = await upload(t, 'temp.md', 'The zebra migration happens in July.');
    await waitIndexed(t, other.id);
    expect(((await search(t, 'zebra')).json() as { passages: unknown[] }).passages.length).toBeGreaterThan(0);
    await t.call({
      method: 'DELETE',
      url: `/v1/files/${other.id}`,
      token: t.botKey,
      headers: { 'x-bot-id': t.botId },
    });
    expect(((await search(t, 'zebra')).json() as { passages: unknown[] }).passages).toEqual([]);
  });

  it('ends a file it cannot read indexing_failed with a reason, and keeps it downloadable', async () => {
    const bad = await upload(t, 'broken.pdf', '%PDF-1.7 this is not really a pdf');
    const file = await waitIndexed(t, bad.id);
    expect(file.status).toBe('indexing_failed');
    expect(file.failedStatusReason).toMatch(/^unreadable_document: /);
  });

  it('groups files in a knowledge base, indexes a linked file, and scopes search to it', async () => {
    const plain = Buffer.from('Opening hours are nine to five on weekdays.');
    const upsert = await t.call({
      method: 'PUT',
      url: '/v1/files',
      token: t.botKey,
      headers: { 'x-bot-id': t.botId },
      body: { key: 'hours.txt', size: plain.length },
    });
    const url = new URL((upsert.json() as { file: { uploadUrl: string } }).file.uploadUrl);
    const done = await t.app.inject({ method: 'PUT', url: `${url.pathname}${url.search}`, payload: plain });
    const hours = (done.json() as { file: { id: string; status: string } }).file;
    expect(hours.status).toBe('upload_completed');
    const kb = await t.call({
      method: 'POST',
      url: '/v1/files/knowledge-bases',
      token: t.botKey,
      headers: { 'x-bot-id': t.botId },
      body: { name: 'Support' },
    });
    expect(kb.statusCode).toBe(201);
    const kbId = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    const linked = await t.call({
      method: 'PUT',
      url: `/v1/files/knowledge-bases/${kbId}/files/${hours.id}`,
      token: t.botKey,
      headers: { 'x-bot-id': t.botId },
    });
    expect(linked.statusCode).toBe(200);
    expect((await waitIndexed(t, hours.id)).status).toBe('indexing_completed');
    const got = await t.call({
      method: 'GET',
      url: `/v1/files/knowledge-bases/${kbId}`,
      token: t.botKey,
      headers: { 'x-bot-id': t.botId },
    });
    expect((got.json() as { knowledgeBase: { files: unknown } }).knowledgeBase.files).toEqual({
      total: 1,
      indexed: 1,
      pending: 0,
      failed: 0,
    });
    const scoped = (await search(t, 'weekdays', `&knowledgeBaseIds=${kbId}`)).json() as {
      passages: Array<{ file: { id: string } }>;
    };
    expect(scoped.passages.map((p) => p.file.id)).toEqual([hours.id]);
  });
});
