import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../testkit/src/server/files-api.js';
import { HANDBOOK, settled, uploadText } from '../../../../testkit/src/server/files-indexing.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import type { TestApp } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

const search = (t: TestApp, query: string, extra = '', token = t.botKey) =>
  t.call({
    method: 'GET',
    url: `/v1/files/search?query=${encodeURIComponent(query)}${extra}`,
    token,
    headers: { 'x-bot-id': t.botId },
  });

describe('indexing and searchFiles (lexical, SQLite)', () => {
  const t = useTestApp({ workers: true });
  let fileId: string;
  beforeAll(async () => {
    const file = await uploadText(t, 'handbook.md', HANDBOOK, { tags: { team: 'support' } });
    expect(file.status).toBe('indexing_pending');
    fileId = file.id;
    expect(await settled(t, fileId, 200)).toMatchObject({ status: 'indexing_completed' });
  });

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
    const res = await api(t, 'GET', `/v1/files/${fileId}/passages?limit=1`);
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
    const missing = await api(t, 'GET', '/v1/files/search');
    expect(missing.statusCode).toBe(400);
  });

  it('stops finding a file at once when it is deleted', async () => {
    const other = await uploadText(t, 'temp.md', 'The zebra migration happens in July.');
    await settled(t, other.id, 200);
    expect(((await search(t, 'zebra')).json() as { passages: unknown[] }).passages.length).toBeGreaterThan(0);
    await api(t, 'DELETE', `/v1/files/${other.id}`);
    expect(((await search(t, 'zebra')).json() as { passages: unknown[] }).passages).toEqual([]);
  });

  it('ends a file it cannot read indexing_failed with a reason, and keeps it downloadable', async () => {
    const bad = await uploadText(t, 'broken.pdf', '%PDF-1.7 this is not really a pdf');
    const file = await settled(t, bad.id, 200);
    expect(file.status).toBe('indexing_failed');
    expect(file.failedStatusReason).toMatch(/^unreadable_document: /);
  });

  it('groups files in a knowledge base, indexes a linked file, and scopes search to it', async () => {
    const plain = Buffer.from('Opening hours are nine to five on weekdays.');
    const upsert = await api(t, 'PUT', '/v1/files', { key: 'hours.txt', size: plain.length });
    const url = new URL((upsert.json() as { file: { uploadUrl: string } }).file.uploadUrl);
    const done = await t.app.inject({ method: 'PUT', url: `${url.pathname}${url.search}`, payload: plain });
    const hours = (done.json() as { file: { id: string; status: string; size: number } }).file;
    expect(hours.status).toBe('upload_completed');
    const kb = await api(t, 'POST', '/v1/files/knowledge-bases', { name: 'Support' });
    expect(kb.statusCode).toBe(201);
    const kbId = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    const linked = await api(t, 'PUT', `/v1/files/knowledge-bases/${kbId}/files/${hours.id}`);
    expect(linked.statusCode).toBe(200);
    expect((await settled(t, hours.id, 200)).status).toBe('indexing_completed');
    const got = await api(t, 'GET', `/v1/files/knowledge-bases/${kbId}`);
    expect((got.json() as { knowledgeBase: { files: unknown } }).knowledgeBase.files).toEqual({
      total: 1,
      indexed: 1,
      pending: 0,
      failed: 0,
      size: hours.size,
    });
    const scoped = (await search(t, 'weekdays', `&knowledgeBaseIds=${kbId}`)).json() as {
      passages: Array<{ file: { id: string } }>;
    };
    expect(scoped.passages.map((p) => p.file.id)).toEqual([hours.id]);
  });
});
