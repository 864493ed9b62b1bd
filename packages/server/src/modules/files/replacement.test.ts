import type { FileObject } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import {
  api,
  fetchUrl,
  getFile,
  pathOf,
  putBytes,
  store,
  type Upserted,
  upsert,
} from '../../../../testkit/src/server/files-api.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { postgresTestUrl } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

const postgresUrl = postgresTestUrl();
const backends: Array<[string, string | undefined]> = [
  ['SQLite', undefined],
  ...(postgresUrl ? [['PostgreSQL', postgresUrl] as [string, string]] : []),
];

/**
 * README: "The old content of a replaced key is deleted only after the new one is committed". A re-upsert
 * answers like a fresh upsert (API-COMPAT: status upload_pending, size null until uploaded), while the
 * file's URLs keep serving the previous bytes, as they were published, until the new upload commits.
 */
describe.each(backends)('replacing the content of a key on %s', (_name, databaseUrl) => {
  const t = useTestApp({ ...(databaseUrl ? { databaseUrl } : {}) });
  let n = 0;
  const nextKey = (name: string) => `replace/${++n}-${name}`;

  it('keeps serving the old bytes (download and public URL) until the new upload completes, then the new ones', async () => {
    const key = nextKey('doc.txt');
    const v1 = Buffer.from('version one of the document');
    const v2 = Buffer.from('version two, somewhat longer than the first');
    const first = await store(t, key, v1, { accessPolicies: ['public_content'], contentType: 'text/plain' });
    const publicUrl = first.url;

    const pending = await upsert(t, {
      key,
      size: v2.length,
      accessPolicies: ['public_content'],
      contentType: 'text/markdown',
    });
    // The answer is that of a fresh upsert (API-COMPAT): the new content is not there yet.
    expect(pending).toMatchObject({
      id: first.id,
      status: 'upload_pending',
      size: null,
      contentType: 'text/markdown',
    });
    expect(pending).not.toHaveProperty('checksum');
    expect(await getFile(t, key)).toMatchObject({ status: 'upload_pending', size: null });
    // But the content is still the old one, with its own headers, through every URL.
    for (const url of [publicUrl, pending.url, (await getFile(t, key)).url]) {
      const res = await fetchUrl(t, url);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.rawPayload.equals(v1)).toBe(true);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['content-length']).toBe(String(v1.length));
    }

    expect((await putBytes(t, pending.uploadUrl, v2)).statusCode).toBe(200);
    for (const url of [publicUrl, (await getFile(t, key)).url]) {
      const res = await fetchUrl(t, url);
      expect(res.rawPayload.equals(v2)).toBe(true);
      expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    }
    expect(await getFile(t, key)).toMatchObject({ status: 'upload_completed', size: v2.length });
  });

  it('keeps the old bytes when the new upload fails or is abandoned', async () => {
    const key = nextKey('kept.txt');
    const v1 = Buffer.from('the bytes that must survive');
    const first = await store(t, key, v1);
    const short = await upsert(t, { key, size: 100 });
    expectError(await putBytes(t, short.uploadUrl, Buffer.from('too few')), 400, 'InvalidPayload');
    const failed = await getFile(t, key);
    expect(failed).toMatchObject({ id: first.id, status: 'upload_failed', size: null });
    expect((await fetchUrl(t, failed.url)).rawPayload.equals(v1)).toBe(true);
    // Abandoned: upserted again and never uploaded.
    await upsert(t, { key, size: 5 });
    expect((await fetchUrl(t, (await getFile(t, key)).url)).rawPayload.equals(v1)).toBe(true);
  });

  it('never publishes old private bytes through a re-upsert that adds public_content', async () => {
    const key = nextKey('secret.txt');
    const secret = Buffer.from('private bytes of the first writer');
    const open = Buffer.from('public bytes of the second writer');
    await store(t, key, secret);
    const pending = await upsert(t, { key, size: open.length, accessPolicies: ['public_content'] });
    expect(new URL(pending.url).searchParams.get('public')).toBe('1');
    const meanwhile = await fetchUrl(t, pending.url);
    expectError(meanwhile, 404, 'ResourceNotFound');
    expect(meanwhile.rawPayload.includes(secret)).toBe(false);
    // The file's url is its permanent public URL now (API-COMPAT), and it serves nothing until the new bytes.
    expect((await getFile(t, key)).url).toBe(pending.url);
    expect((await putBytes(t, pending.uploadUrl, open)).statusCode).toBe(200);
    expect((await fetchUrl(t, pending.url)).rawPayload.equals(open)).toBe(true);
  });

  it('stops serving through the public URL at once when a re-upsert drops public_content', async () => {
    const key = nextKey('was-public.txt');
    const first = await store(t, key, Buffer.from('once public'), { accessPolicies: ['public_content'] });
    await upsert(t, { key, size: 3, accessPolicies: [] });
    expectError(await fetchUrl(t, first.url), 404, 'ResourceNotFound');
  });

  it('lets an explicit access change apply to the bytes served meanwhile', async () => {
    const key = nextKey('explicit.txt');
    const bytes = Buffer.from('published on purpose');
    await store(t, key, bytes);
    await upsert(t, { key, size: 1 });
    const res = await api(t, 'PUT', `/v1/files/${encodeURIComponent(key)}`, {
      accessPolicies: ['public_content'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const url = (res.json() as { file: FileObject }).file.url;
    expect((await fetchUrl(t, url)).rawPayload.equals(bytes)).toBe(true);
  });

  it('gives an integration only the old bytes it could download before a re-upsert shared the file', async () => {
    const { integration } = (
      await t.asOwner('POST', '/v1/admin/integrations', {
        name: `int-${Math.random().toString(36).slice(2, 8)}`,
      })
    ).json() as { integration: { id: string } };
    expect(
      (await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/integrations/${integration.id}`)).statusCode,
    ).toBe(200);
    const keyRes = await t.asOwner('POST', `/v1/admin/bots/${t.botId}/integrations/${integration.id}/keys`, {
      note: 'replacement',
    });
    const integrationKey = (keyRes.json() as { key: { value: string } }).key.value;

    const key = nextKey('not-shared-yet.txt');
    const secret = Buffer.from('never shared with integrations');
    const shared = Buffer.from('shared with integrations now!!');
    await store(t, key, secret);
    const pending = await upsert(t, { key, size: shared.length, accessPolicies: ['integrations'] });
    const seen = await getFile(t, key, integrationKey);
    expect(seen.status).toBe('upload_pending');
    expectError(await fetchUrl(t, seen.url), 404, 'ResourceNotFound');
    expect((await putBytes(t, pending.uploadUrl, shared)).statusCode).toBe(200);
    expect((await fetchUrl(t, (await getFile(t, key, integrationKey)).url)).rawPayload.equals(shared)).toBe(
      true,
    );
    // Its own files it reads as before.
    const own = await store(t, nextKey('own.txt'), Buffer.from('mine'), {}, integrationKey);
    expect((await fetchUrl(t, own.url)).rawPayload.toString()).toBe('mine');
  });

  it('answers 409 for a copy of a file whose new content is not uploaded yet', async () => {
    const key = nextKey('copy-source.txt');
    await store(t, key, Buffer.from('old'));
    await upsert(t, { key, size: 3 });
    expectError(
      await api(
        t,
        'POST',
        `/v1/files/${encodeURIComponent(key)}/${encodeURIComponent(nextKey('copy.txt'))}`,
        {},
      ),
      409,
      'ResourceLockedConflict',
    );
  });
});

describe('the quota while a re-upload is pending', () => {
  const t = useTestApp({ env: { PARLEY_QUOTA_FILE_STORAGE_BYTES: '1000' } });

  it('counts the larger of the declared size and the bytes still served, so abandoning a re-upload frees nothing', async () => {
    const call = (body: Record<string, unknown>) =>
      t.call({ method: 'PUT', url: '/v1/files', token: t.botKey, headers: { 'x-bot-id': t.botId }, body });
    const first = await call({ key: 'big.bin', size: 600 });
    const uploadUrl = (first.json() as { file: Upserted }).file.uploadUrl;
    const up = await t.app.inject({ method: 'PUT', url: pathOf(uploadUrl), payload: Buffer.alloc(600, 1) });
    expect(up.statusCode, up.body).toBe(200);
    // Re-upserted as 1 byte and never uploaded: the 600 bytes are still stored and served.
    expect((await call({ key: 'big.bin', size: 1 })).statusCode).toBe(200);
    expectError(await call({ key: 'other.bin', size: 600 }), 403, 'QuotaExceeded');
    expect((await call({ key: 'other.bin', size: 400 })).statusCode).toBe(200);
  });
});
