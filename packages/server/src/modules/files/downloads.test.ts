import type { FileObject } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { useClockedApp } from '../../../../testkit/src/server/clocked-app-fixture.js';
import {
  api,
  fetchUrl,
  getFile,
  pathOf,
  sha256,
  store,
  tamper,
  type Upserted,
} from '../../../../testkit/src/server/files-api.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import type { TestApp } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

const CONTENT = Buffer.from('hello world!');
const KEY = 'reports/Grüße résumé 日本.txt';

/** A fresh url of a file (a GET of it as the bot). */
async function freshUrl(t: TestApp, id: string): Promise<string> {
  return (await getFile(t, id)).url;
}

describe('downloading through a file’s url', () => {
  const t = useTestApp();
  let file: FileObject;
  let url: string;
  beforeAll(async () => {
    file = await store(t, KEY, CONTENT);
    url = await freshUrl(t, file.id);
  });

  it('answers 200 with the exact bytes and the stored Content-Type, nosniff, Content-Disposition and ETag', async () => {
    const res = await fetchUrl(t, url);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(CONTENT)).toBe(true);
    expect(file.contentType).toBe('text/plain');
    // Uploaded without a charset, and UTF-8: served as UTF-8 (charset.test.ts).
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-length']).toBe('12');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toBe(`"${sha256(CONTENT)}"`);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('names a non-ASCII file correctly in Content-Disposition (RFC 6266 with an RFC 8187 filename*)', async () => {
    const res = await fetchUrl(t, url);
    const disposition = res.headers['content-disposition'] as string;
    expect(disposition).toBe(
      `inline; filename="Gr__e r_sum_ __.txt"; filename*=UTF-8''${encodeURIComponent('Grüße résumé 日本.txt')}`,
    );
    // The header is ASCII only, and filename* decodes back to the key's last segment.
    expect(/^[\x20-\x7e]*$/.test(disposition)).toBe(true);
    const star = /filename\*=UTF-8''(.+)$/.exec(disposition)?.[1] as string;
    expect(decodeURIComponent(star)).toBe('Grüße résumé 日本.txt');
  });

  it('sends the stored Content-Type given at upsert, and HTML as an attachment, never inline', async () => {
    const csv = await store(t, 'data.bin', Buffer.from('a,b\n1,2\n'), { contentType: 'text/csv' });
    const csvRes = await fetchUrl(t, csv.url);
    expect(csvRes.headers['content-type']).toBe('text/csv; charset=utf-8');
    const html = await store(t, 'page.html', Buffer.from('<script>alert(1)</script>'));
    const res = await fetchUrl(t, html.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="page.html"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain('sandbox');
  });

  it('answers HEAD with the headers and content-length, and no body', async () => {
    const res = await fetchUrl(t, url, {}, 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('12');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers.etag).toBe(`"${sha256(CONTENT)}"`);
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''");
    expect(res.rawPayload.length).toBe(0);
  });

  /** Ranges answered 206: the Content-Range and Content-Length they answer, and the bytes (none to HEAD). */
  const partials: Array<{
    name: string;
    range: string;
    method?: 'HEAD';
    contentRange: string;
    contentLength?: string;
    body?: string;
  }> = [
    {
      name: 'answers Range bytes=0-4 with 206, Content-Range and those bytes',
      range: 'bytes=0-4',
      contentRange: 'bytes 0-4/12',
      contentLength: '5',
      body: 'hello',
    },
    {
      name: 'answers a suffix range bytes=-3 with the last 3 bytes',
      range: 'bytes=-3',
      contentRange: 'bytes 9-11/12',
      body: 'ld!',
    },
    {
      name: 'answers an open range bytes=5- with the rest of the file',
      range: 'bytes=5-',
      contentRange: 'bytes 5-11/12',
      contentLength: '7',
      body: ' world!',
    },
    {
      name: 'clamps a range past the end to the file',
      range: 'bytes=6-100',
      contentRange: 'bytes 6-11/12',
      body: 'world!',
    },
    {
      name: 'answers HEAD with a Range with 206 headers and no body',
      range: 'bytes=0-4',
      method: 'HEAD',
      contentRange: 'bytes 0-4/12',
      contentLength: '5',
    },
  ];
  for (const c of partials) {
    it(c.name, async () => {
      const res = await fetchUrl(t, url, { range: c.range }, c.method);
      expect(res.statusCode).toBe(206);
      expect(res.headers['content-range']).toBe(c.contentRange);
      if (c.contentLength !== undefined) expect(res.headers['content-length']).toBe(c.contentLength);
      if (c.method === 'HEAD') expect(res.rawPayload.length).toBe(0);
      else expect(res.body).toBe(c.body);
    });
  }

  it('answers an unsatisfiable range (bytes=100-200 on 12 bytes) with 416 and Content-Range bytes */12', async () => {
    const res = await fetchUrl(t, url, { range: 'bytes=100-200' });
    const error = expectError(res, 416, 'InvalidQuery');
    expect(res.headers['content-range']).toBe('bytes */12');
    expect(error.message).toContain('12 bytes');
  });

  it('ignores a Range that is not a bytes range, and answers the whole file', async () => {
    const res = await fetchUrl(t, url, { range: 'lines=1-2' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(CONTENT)).toBe(true);
  });

  it('answers 304 without a body to If-None-Match with the ETag, and 200 to another ETag', async () => {
    const etag = `"${sha256(CONTENT)}"`;
    const notModified = await fetchUrl(t, url, { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    expect(notModified.headers.etag).toBe(etag);
    expect((await fetchUrl(t, url, { 'if-none-match': `"other", ${etag}` })).statusCode).toBe(304);
    const changed = await fetchUrl(t, url, { 'if-none-match': '"something-else"' });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.equals(CONTENT)).toBe(true);
  });

  it('answers 404 for a file whose content was not uploaded yet', async () => {
    const up = await api(t, 'PUT', '/v1/files', { key: 'pending.txt', size: 3 });
    const pending = (up.json() as { file: Upserted }).file;
    expectError(await fetchUrl(t, pending.url), 404, 'ResourceNotFound');
  });

  it('answers GET /v1/files/{id} without a token with 401: metadata is never public', async () => {
    const res = await t.call({
      method: 'GET',
      url: `/v1/files/${file.id}`,
      headers: { 'x-bot-id': t.botId },
    });
    expectError(res, 401, 'Unauthorized');
  });
});

describe('private and public download urls', () => {
  const { t, clock } = useClockedApp({ env: { PARLEY_DOWNLOAD_URL_TTL_SECONDS: '60' } });

  it('hands out a new private url on every getFile', async () => {
    const file = await store(t, 'private.txt', CONTENT);
    const urls = new Set([file.url, await freshUrl(t, file.id), await freshUrl(t, file.id)]);
    expect(urls.size).toBe(3);
    for (const url of urls) expect((await fetchUrl(t, url)).rawPayload.equals(CONTENT)).toBe(true);
  });

  it('downloads a private file without a token while its url is valid', async () => {
    const file = await store(t, 'no-token.txt', CONTENT);
    const res = await t.app.inject({ method: 'GET', url: pathOf(await freshUrl(t, file.id)) });
    expect(res.statusCode).toBe(200);
  });

  it('expires a private url after PARLEY_DOWNLOAD_URL_TTL_SECONDS with 403 saying so', async () => {
    const file = await store(t, 'short-lived.txt', CONTENT);
    const url = await freshUrl(t, file.id);
    clock.advance(59_000);
    expect((await fetchUrl(t, url)).statusCode).toBe(200);
    clock.advance(2_000);
    const error = expectError(await fetchUrl(t, url), 403, 'Forbidden');
    expect(error.message).toMatch(/expired/);
    expectError(await fetchUrl(t, url, {}, 'GET'), 403, 'Forbidden');
    const head = await fetchUrl(t, url, {}, 'HEAD');
    expect(head.statusCode).toBe(403);
    // A fresh getFile gives a working url again.
    expect((await fetchUrl(t, await freshUrl(t, file.id))).statusCode).toBe(200);
  });

  for (const [what, change] of [
    ['the signature is changed', (u: URL) => u.searchParams.set('signature', 'x'.repeat(43))],
    ['the expiry is extended', (u: URL) => u.searchParams.set('expires', String(Date.now() + 86_400_000))],
    ['the nonce is changed', (u: URL) => u.searchParams.set('nonce', 'AAAAAAAAAAAA')],
    ['the signature is removed', (u: URL) => u.searchParams.delete('signature')],
    ['public=1 is added', (u: URL) => u.searchParams.set('public', '1')],
  ] as const) {
    it(`answers 403 with a clear message when ${what} in a private url`, async () => {
      const file = await store(t, `tamper-${what}.txt`, CONTENT);
      const error = expectError(await fetchUrl(t, tamper(file.url, change)), 403, 'Forbidden');
      expect(error.message).toMatch(/not valid/);
      expect(error.message).toMatch(/altered/);
    });
  }

  it('answers 403 when a private url is moved to another file', async () => {
    const one = await store(t, 'one.txt', Buffer.from('one'));
    const two = await store(t, 'two.txt', Buffer.from('two'));
    const moved = tamper(one.url, (u) => {
      u.pathname = `/v1/files/${two.id}/content`;
    });
    expectError(await fetchUrl(t, moved), 403, 'Forbidden');
  });

  it('gives a public_content file a permanent url: the same across calls, no token, valid after the TTL', async () => {
    const file = await store(t, 'public/logo.png', Buffer.from('PNG-bytes'), {
      accessPolicies: ['public_content'],
    });
    const first = await freshUrl(t, file.id);
    expect(file.url).toBe(first);
    expect(await freshUrl(t, file.id)).toBe(first);
    const res = await fetchUrl(t, first);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('PNG-bytes');
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe('inline; filename="logo.png"');
    expect(res.headers['cache-control']).toMatch(/^public/);
    clock.advance(3 * 3600_000);
    expect(await freshUrl(t, file.id)).toBe(first);
    const later = await fetchUrl(t, first, { range: 'bytes=0-2' });
    expect(later.statusCode).toBe(206);
    expect(later.body).toBe('PNG');
  });

  it('answers 403 for a public url with a changed signature, and for one moved to another file', async () => {
    const one = await store(t, 'public/one.txt', Buffer.from('one'), { accessPolicies: ['public_content'] });
    const two = await store(t, 'public/two.txt', Buffer.from('two'), { accessPolicies: ['public_content'] });
    const altered = tamper(one.url, (u) => u.searchParams.set('signature', 'x'.repeat(43)));
    expect(expectError(await fetchUrl(t, altered), 403, 'Forbidden').message).toMatch(/not valid/);
    const moved = tamper(one.url, (u) => {
      u.pathname = `/v1/files/${two.id}/content`;
    });
    expectError(await fetchUrl(t, moved), 403, 'Forbidden');
  });

  it('stops serving a public url once public_content is removed, and serves a private url instead', async () => {
    const file = await store(t, 'public/unshared.txt', CONTENT, { accessPolicies: ['public_content'] });
    const publicUrl = file.url;
    expect((await fetchUrl(t, publicUrl)).statusCode).toBe(200);
    const res = await api(t, 'PUT', `/v1/files/${file.id}`, { accessPolicies: [] });
    expect(res.statusCode, res.body).toBe(200);
    const updated = (res.json() as { file: FileObject }).file;
    expect(updated.url).not.toBe(publicUrl);
    expectError(await fetchUrl(t, publicUrl), 404, 'ResourceNotFound');
    expect((await fetchUrl(t, updated.url)).statusCode).toBe(200);
  });

  it('answers GET /v1/files/{id} of a public_content file without a token with 401: metadata is never public', async () => {
    const file = await store(t, 'public/meta.txt', CONTENT, { accessPolicies: ['public_content'] });
    const res = await t.call({
      method: 'GET',
      url: `/v1/files/${file.id}`,
      headers: { 'x-bot-id': t.botId },
    });
    expectError(res, 401, 'Unauthorized');
    const list = await t.call({ method: 'GET', url: '/v1/files', headers: { 'x-bot-id': t.botId } });
    expectError(list, 401, 'Unauthorized');
  });
});
