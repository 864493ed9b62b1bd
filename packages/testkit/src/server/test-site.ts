import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How many `/docs/p{n}` pages the test site has by default. */
export const SITE_PAGES = 50;

/**
 * A website for crawl tests, served on 127.0.0.1 (issue #36): robots.txt with a Disallow and a Sitemap line,
 * a sitemap index, 50 pages sharing a menu, a cookie banner and a footer, a redirect, an external link, a 404,
 * a PDF and an image. `edits[n]` changes page n's text; `pageDelayMs` holds each docs page back that long
 * (a crawl slow enough to watch or stop), until `setPageDelay` changes it (a crawl that need not be watched any
 * more runs at full speed).
 */
export function testSite(
  options: {
    pages?: number;
    pageDelayMs?: number;
    /** More pages by path, linked from the home page. */
    extra?: Record<string, { title: string; body: string }>;
    /** Other documents by path, served as they are (the JSON a page's script fetches). */
    files?: Record<string, { contentType: string; body: string }>;
  } = {},
) {
  const extra = options.extra ?? {};
  const PAGES = options.pages ?? SITE_PAGES;
  const edits = new Map<number, number>();
  const requests: string[] = [];
  let pageDelayMs = options.pageDelayMs ?? 0;
  /** Requests being answered now, and the most at once so far. */
  const load = { now: 0, most: 0 };
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
    load.now++;
    load.most = Math.max(load.most, load.now);
    res.once('close', () => {
      load.now--;
    });
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
    if (path === '/sitemap-1.xml') return send(200, 'application/xml', urlset(docs(1, Math.min(25, PAGES))));
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
<a href="/files/guide.pdf">guide</a> <a href="/logo.png">logo</a>${Object.keys(extra)
            .map((p) => ` <a href="${p}">${p}</a>`)
            .join('')}`,
        ),
      );
    const answerDoc = (n: number, version: number) =>
      send(
        200,
        'text/html',
        page(
          `Topic ${n}`,
          `<p>Article about zebra${n}quokka: the answer for topic number ${n} is written here at length, revision ${version}, so that readers find what they need about it.</p>`,
        ),
      );
    const file = options.files?.[path];
    if (file) return send(200, file.contentType, file.body);
    const more = extra[path];
    if (more) return send(200, 'text/html', page(more.title, more.body));
    const doc = /^\/docs\/p(\d+)$/.exec(path);
    if (doc) {
      const n = Number(doc[1]);
      const version = edits.get(n) ?? 0;
      const delay = pageDelayMs;
      if (delay > 0) return void setTimeout(() => answerDoc(n, version), delay);
      return answerDoc(n, version);
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
    /** The most requests it answered at once. */
    mostAtOnce: () => load.most,
    /** Holds each docs page requested from now on back `ms` (0: answered at once). */
    setPageDelay(ms: number) {
      pageDelayMs = ms;
    },
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return base;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
