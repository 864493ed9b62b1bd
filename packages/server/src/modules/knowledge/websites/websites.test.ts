import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KnowledgeSource } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test-support/files-api.js';
import { settled } from '../../../test-support/files-indexing.js';
import { useTestApp } from '../../../test-support/fixtures.js';
import { postgresTestUrl, type TestApp } from '../../../test-support/harness.js';
import { expectError } from '../../../test-support/wire.js';

/**
 * Website sources (issue #36) against a real site served on 127.0.0.1: robots.txt with a Disallow and a
 * Sitemap line, a sitemap index, 50 pages sharing a menu and a footer, a redirect, an external link, a 404, a
 * PDF and an image. The crawl takes exactly the allowed pages, keeps no menu or footer text, re-indexes only
 * the pages that changed, stops when asked, and the outbound guard refuses 127.0.0.1 by default.
 */

const PAGES = 50;
const KB = '/v1/files/knowledge-bases';

/** The test site: `edits[n]` changes page n's text. */
function testSite() {
  const edits = new Map<number, number>();
  const requests: string[] = [];
  let base = '';
  const page = (
    title: string,
    body: string,
  ) => `<!doctype html><html><head><title>${title}</title></head><body>
<header><nav><a href="/">Home</a> <a href="/docs/p1">Docs</a> MENUWORD navigation for everyone</nav></header>
<div class="cookie-banner">COOKIEWORD we use cookies</div>
<main><h1>${title}</h1>${body}</main>
<footer>FOOTERWORD copyright ACME, all rights reserved</footer></body></html>`;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    requests.push(`${path} ${req.headers['user-agent'] ?? ''}`);
    const send = (
      status: number,
      type: string,
      body: string | Buffer,
      headers: Record<string, string> = {},
    ) => {
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
    if (path === '/robots.txt')
      return send(
        200,
        'text/plain',
        `User-agent: *\nDisallow: /private/\nSitemap: ${base}/sitemap-index.xml\n`,
      );
    if (path === '/sitemap-index.xml')
      return send(
        200,
        'application/xml',
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/sitemap-1.xml</loc></sitemap><sitemap><loc>${base}/sitemap-2.xml</loc></sitemap></sitemapindex>`,
      );
    const urlset = (paths: string[]) =>
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${base}${p}</loc></url>`).join('')}</urlset>`;
    const docs = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `/docs/p${from + i}`);
    if (path === '/sitemap-1.xml') return send(200, 'application/xml', urlset(docs(1, 25)));
    if (path === '/sitemap-2.xml')
      return send(200, 'application/xml', urlset([...docs(26, PAGES), '/private/secret', '/old']));
    if (path === '/')
      return send(
        200,
        'text/html',
        page(
          'Welcome',
          `<p>Welcome to the ACME help centre, where every answer about our products lives in one place for you.</p>
<a href="http://example.invalid/elsewhere">partner</a> <a href="/missing">gone</a>
<a href="/files/guide.pdf">guide</a> <a href="/logo.png">logo</a>`,
        ),
      );
    const doc = /^\/docs\/p(\d+)$/.exec(path);
    if (doc) {
      const n = Number(doc[1]);
      const version = edits.get(n) ?? 0;
      return send(
        200,
        'text/html',
        page(
          `Topic ${n}`,
          `<p>Article about zebra${n}quokka: the answer for topic number ${n} is written here at length, revision ${version}, so that readers find what they need about it.</p>`,
        ),
      );
    }
    if (path === '/old') return send(301, 'text/html', '', { location: '/docs/new' });
    if (path === '/docs/new')
      return send(
        200,
        'text/html',
        page('New page', '<p>The page that moved here explains the warranty.</p>'),
      );
    if (path === '/private/secret') return send(200, 'text/html', page('Secret', '<p>secret</p>'));
    if (path === '/files/guide.pdf') return send(200, 'application/pdf', '%PDF-1.4\n% a guide\n%%EOF');
    if (path === '/logo.png') return send(200, 'image/png', Buffer.from([137, 80, 78, 71]));
    return send(404, 'text/html', 'not found');
  });
  return {
    server,
    edits,
    requests,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return base;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The source, polled 25 ms apart, once its run count reaches `runs` and it is idle. */
async function finished(t: TestApp, kbId: string, sourceId: string, runs: number): Promise<KnowledgeSource> {
  for (let i = 0; i < 2400; i++) {
    const res = await callAs(t, t.botKey, 'GET', `${KB}/${kbId}/sources/${sourceId}`);
    expect(res.statusCode, res.body).toBe(200);
    const { source } = res.json() as { source: KnowledgeSource };
    if (source.state === 'idle' && source.runs.length >= runs) return source;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the crawl did not end');
}

function websiteSuite(databaseUrl?: string) {
  const site = testSite();
  let base = '';
  beforeAll(async () => {
    base = await site.start();
  });
  afterAll(() => site.stop());
  const t = useTestApp({
    workers: true,
    env: { PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES: 'true' },
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  const as = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
    callAs(t, t.botKey, method, url, body);
  let kbId = '';
  let source: KnowledgeSource;

  beforeAll(async () => {
    const kb = await as('POST', KB, { name: 'Help centre' });
    kbId = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
  });

  const linkedKeys = async () => {
    const res = await as('GET', `${KB}/${kbId}/files`);
    return (res.json() as { files: Array<{ key: string; fileId: string }> }).files;
  };

  it('crawls exactly the allowed pages into files of the bot, with title and URL', async () => {
    const res = await as('POST', `${KB}/${kbId}/sources`, { type: 'website', url: `${base}/` });
    expect(res.statusCode, res.body).toBe(201);
    const created = (res.json() as { source: KnowledgeSource }).source;
    expect(created).toMatchObject({ state: 'queued', maxPages: 500, schedule: 'off', url: `${base}/` });
    source = await finished(t, kbId, created.id, 1);
    const host = new URL(base).host;
    const expected = [
      `web/${host}/index`,
      `web/${host}/docs/new`,
      `web/${host}/files/guide.pdf`,
      ...Array.from({ length: PAGES }, (_, i) => `web/${host}/docs/p${i + 1}`),
    ].sort();
    const files = await linkedKeys();
    expect(files.map((f) => f.key).sort()).toEqual(expected);
    expect(source.runs[0]).toMatchObject({ outcome: 'completed', counts: { indexed: expected.length } });
    expect(source.pages).toBe(expected.length);
    const reasons = Object.fromEntries(source.skipped.map((s) => [new URL(s.url).pathname, s.reason]));
    expect(reasons).toMatchObject({
      '/private/secret': 'robots',
      '/elsewhere': 'other_host',
      '/missing': 'http_404',
      '/logo.png': 'content_type image/png',
    });
    // An honest User-Agent naming Parley, on every request.
    expect(site.requests.every((r) => / Parley\/\d+\.\d+\.\d+ \(knowledge crawler/.test(r))).toBe(true);
    expect(site.requests.some((r) => r.startsWith('/private/'))).toBe(false);
    const file = files.find((f) => f.key.endsWith('/docs/p17')) as { fileId: string };
    const p17 = await callAs(t, t.botKey, 'GET', `/v1/files/${file.fileId}`);
    expect((p17.json() as { file: { metadata: unknown; tags: unknown } }).file).toMatchObject({
      metadata: { title: 'Topic 17', sourceUrl: `${base}/docs/p17` },
      tags: { webSource: source.id },
    });
  });

  it('keeps the main content only: no passage holds the menu, cookie banner or footer', async () => {
    for (const f of await linkedKeys()) if (!f.key.endsWith('.pdf')) await settled(t, f.fileId, 2400);
    const search = async (q: string) => {
      const res = await as('GET', `/v1/files/search?query=${encodeURIComponent(q)}&limit=50`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { passages: Array<{ content: string; file: { key: string } }> }).passages;
    };
    const found = await search('zebra17quokka');
    expect(found[0]?.file.key).toMatch(/\/docs\/p17$/);
    for (const word of ['MENUWORD', 'FOOTERWORD', 'COOKIEWORD'])
      expect((await search(word)).filter((p) => p.content.includes(word))).toEqual([]);
  });

  it('re-indexes exactly the 3 pages that changed on a sync', async () => {
    for (const n of [3, 14, 41]) site.edits.set(n, 1);
    const res = await as('POST', `${KB}/${kbId}/sources/${source.id}/sync`);
    expect(res.statusCode, res.body).toBe(200);
    const again = await finished(t, kbId, source.id, 2);
    expect(again.runs[0]?.counts).toMatchObject({ indexed: 3, unchanged: again.pages - 3 });
    expect(again.runs).toHaveLength(2);
  });

  it('stops a crawl when asked, and deleting the source removes its pages', async () => {
    const kb = await as('POST', KB, { name: 'Stopped' });
    const stoppedKb = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    const res = await as('POST', `${KB}/${stoppedKb}/sources`, { type: 'website', url: `${base}/` });
    const id = (res.json() as { source: KnowledgeSource }).source.id;
    const stop = await as('POST', `${KB}/${stoppedKb}/sources/${id}/stop`);
    expect(stop.statusCode, stop.body).toBe(200);
    const stopped = await finished(t, stoppedKb, id, 1);
    expect(stopped.runs[0]?.outcome).toBe('stopped');
    expect(stopped.pages).toBe(0);

    const del = await as('DELETE', `${KB}/${kbId}/sources/${source.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(await linkedKeys()).toEqual([]);
    expectError(await as('GET', `${KB}/${kbId}/sources/${source.id}`), 404, 'ResourceNotFound');
  });
}

describe('website sources (SQLite)', () => websiteSuite());
const pgUrl = postgresTestUrl();
describe.skipIf(!pgUrl)('website sources (PostgreSQL)', () => websiteSuite(pgUrl));

describe('website sources: bad input, rights and the outbound guard', () => {
  const site = testSite();
  let base = '';
  beforeAll(async () => {
    base = await site.start();
  });
  afterAll(() => site.stop());
  const t = useTestApp({ workers: true });
  let kbId = '';
  let viewer = '';
  beforeAll(async () => {
    const kb = await callAs(t, t.botKey, 'POST', KB, { name: 'Guarded' });
    kbId = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    viewer = (await t.addMember('viewer')).token;
  });
  const add = (body: Record<string, unknown>, token = t.botKey, kb = kbId) =>
    callAs(t, token, 'POST', `${KB}/${kb}/sources`, { type: 'website', ...body });

  it('answers 400 for a bad URL or another scheme, 404 for an unknown knowledge base, 403 for a viewer', async () => {
    expect(expectError(await add({ url: 'not a url' }), 400, 'InvalidPayload').message).toContain('url');
    expect(expectError(await add({ url: 'ftp://127.0.0.1/x' }), 400, 'InvalidPayload').message).toContain(
      'http',
    );
    expectError(await add({ url: `${base}/`, maxPages: 0 }), 400, 'InvalidPayload');
    expectError(await add({ url: `${base}/` }, t.botKey, 'kb_unknown'), 404, 'ResourceNotFound');
    expectError(await add({ url: `${base}/` }, viewer), 403, 'Forbidden');
    const list = await callAs(t, t.botKey, 'GET', `${KB}/${kbId}/sources`);
    expect((list.json() as { sources: unknown[] }).sources).toEqual([]);
    const viewed = await callAs(t, viewer, 'GET', `${KB}/${kbId}/sources`);
    expect(viewed.statusCode, viewed.body).toBe(200);
  });

  it('refuses to crawl 127.0.0.1 without PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES', async () => {
    const res = await add({ url: `${base}/` });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { source: KnowledgeSource }).source.id;
    const source = await finished(t, kbId, id, 1);
    expect(source.pages).toBe(0);
    expect(source.skipped).toEqual([{ url: `${base}/`, reason: 'blocked_address' }]);
    expect(site.requests).toEqual([]);
  });
});
