// @parley/client in a real browser: the package bundled for browsers (esbuild, as a web app would), loaded by a
// page on another origin than the server's, calling the Admin and Files APIs through CORS: listing bots,
// uploading a Blob and a string with progress, waiting for indexing, searching, downloading, paging, errors.
// Then a server whose PARLEY_CORS_ORIGINS leaves the page's origin out: the browser refuses, and the client
// reports a ConnectionError (a browser tells a page nothing more about a CORS failure).
import { createServer, type RequestListener, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, launchChromium, listeningTestApp } from '../packages/testkit/src/e2e/browser.js';
import { freePort } from '../packages/testkit/src/e2e/server.js';
import type { TestApp } from '../packages/testkit/src/server/harness.js';

const chromiumHere = haveChromium('client browser tests');
const esbuild = await import('esbuild').catch(() => undefined);

const PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>@parley/client in a browser</title></head>
  <body>
    <script type="module">
      import * as parley from './client.js';
      window.parley = parley;
    </script>
  </body>
</html>`;

const MANUAL = `Espresso machine manual.

Descaling: run the descaling program every 200 cups, with citric acid dissolved in one litre of water.
The pump pressure of nine bars is reached after thirty seconds of heating.
`;

/** The client bundled for browsers from its sources, as one ES module. */
async function bundleClient(): Promise<string> {
  const result = await esbuild?.build({
    entryPoints: [fileURLToPath(new URL('../packages/client/src/index.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = result?.outputFiles?.[0]?.text;
  if (!code) throw new Error('esbuild produced no bundle');
  return code;
}

/** A static site on its own port (so its own origin): the page and the bundle. */
async function serveSite(handler: RequestListener): Promise<{ server: Server; origin: string }> {
  const port = await freePort();
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${port}` };
}

/**
 * Runs `body` (JavaScript, awaited) in the page with `parley` (the client module) and `args` in scope, and
 * answers what it returns (JSON). Written as a string: the test file's own transform never reaches the page.
 */
function inPage<T>(page: Page, args: Record<string, unknown>, body: string): Promise<T> {
  return page.evaluate(
    `(async (args) => { const parley = window.parley; ${body} })(${JSON.stringify(args)})`,
  ) as Promise<T>;
}

describe.skipIf(!chromiumHere || !esbuild)('@parley/client in Chromium, on another origin', () => {
  let t: TestApp;
  let apiUrl: string;
  let refusing: { t: TestApp; origin: string };
  let sites: Server[] = [];
  let siteOrigin: string;
  let browser: Browser;
  let page: Page;
  let files: Record<string, unknown>;

  beforeAll(async () => {
    const bundle = await bundleClient();
    const handler: RequestListener = (req, res) => {
      if (req.url === '/client.js') {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
      } else if (req.url === '/' || req.url === '/index.html') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      } else res.writeHead(404).end();
    };
    const site = await serveSite(handler);
    sites = [site.server];
    siteOrigin = site.origin;
    let origin: string;
    ({ t, origin } = await listeningTestApp({ workers: true }));
    apiUrl = origin;
    // A second server that answers only another origin's pages.
    refusing = await listeningTestApp({ env: { PARLEY_CORS_ORIGINS: 'https://elsewhere.example' } });
    expect(siteOrigin).not.toBe(apiUrl);

    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`${siteOrigin}/`);
    await page.waitForFunction('typeof window.parley?.Client === "function"');
    files = { apiUrl, token: t.botKey, botId: t.botId };
  });

  afterAll(async () => {
    await browser?.close();
    for (const s of sites) await new Promise((resolve) => s.close(resolve));
    await refusing?.t.close();
    await t?.close();
  });

  it('runs on the page origin, not the server one', async () => {
    expect(await page.evaluate('location.origin')).toBe(siteOrigin);
    expect(await page.evaluate('typeof process')).toBe('undefined');
  });

  it('lists bots with a personal access token and a workspace id (Admin API)', async () => {
    const bots = await inPage<Array<{ id: string; name: string }>>(
      page,
      { apiUrl, token: t.owner.token, workspaceId: t.workspaceId },
      `const client = new parley.Client(args);
       const { bots } = await client.listBots();
       return bots.map((b) => ({ id: b.id, name: b.name }));`,
    );
    expect(bots.map((b) => b.id)).toContain(t.botId);
  });

  it('uploads a Blob with index: true and progress, waits for indexing, finds and downloads it', async () => {
    const result = await inPage<{
      uploaded: { id: string; key: string; size: number; status: string; contentType: string };
      progress: Array<{ loaded: number; total: number }>;
      indexed: { status: string };
      hits: Array<{ key: string; content: string }>;
      download: { text: string; size: number; contentType: string };
    }>(
      page,
      { ...files, manual: MANUAL },
      `const files = new parley.Client({ apiUrl: args.apiUrl, token: args.token, botId: args.botId });
       const progress = [];
       const uploaded = await files.uploadFile({
         key: 'manuals/espresso.txt',
         content: new Blob([args.manual], { type: 'text/plain' }),
         index: true,
         tags: { kind: 'manual' },
         onProgress: (p) => progress.push({ loaded: p.loaded, total: p.total }),
       });
       const indexed = await files.waitForIndexing(uploaded.id, { timeoutMs: 25000, intervalMs: 200 });
       const { passages } = await files.searchFiles({ query: 'how often should I descale', limit: 3 });
       const d = await files.downloadFile(uploaded.id);
       const text = await new Response(d.stream).text();
       return {
         uploaded: { id: uploaded.id, key: uploaded.key, size: uploaded.size, status: uploaded.status, contentType: uploaded.contentType },
         progress,
         indexed: { status: indexed.status },
         hits: passages.map((p) => ({ key: p.file.key, content: p.content })),
         download: { text, size: d.size, contentType: d.contentType },
       };`,
    );
    const size = new TextEncoder().encode(MANUAL).byteLength;
    expect(result.uploaded).toMatchObject({ key: 'manuals/espresso.txt', size, status: 'indexing_pending' });
    expect(result.uploaded.contentType).toMatch(/^text\/plain/);
    expect(result.progress[0]).toEqual({ loaded: 0, total: size });
    expect(result.progress.at(-1)).toEqual({ loaded: size, total: size });
    expect(result.indexed.status).toBe('indexing_completed');
    expect(result.hits[0]?.key).toBe('manuals/espresso.txt');
    expect(result.hits[0]?.content).toContain('descaling program every 200 cups');
    expect(result.download).toEqual({
      text: MANUAL,
      size,
      contentType: expect.stringMatching(/^text\/plain/),
    });
  });

  it('uploads strings and pages through listFiles with for await', async () => {
    const result = await inPage<{ keys: string[]; pages: number[]; firstBytes: number[] }>(
      page,
      files,
      `const files = new parley.Client({ apiUrl: args.apiUrl, token: args.token, botId: args.botId });
       for (const n of [1, 2, 3, 4, 5]) {
         await files.uploadFile({ key: 'notes/note-' + n + '.txt', content: 'Note number ' + n + ' ✓', tags: { kind: 'note' } });
       }
       const query = { tags: { kind: 'note' }, pageSize: 2, sortField: 'key', sortDirection: 'asc' };
       const keys = [];
       for await (const f of files.listFiles(query)) keys.push(f.key);
       const pages = [];
       for await (const p of files.listFiles(query).pages()) pages.push(p.files.length);
       const d = await files.downloadFile('notes/note-1.txt');
       const firstBytes = Array.from(new Uint8Array(await new Response(d.stream).arrayBuffer()));
       return { keys, pages, firstBytes };`,
    );
    expect(result.keys).toEqual([1, 2, 3, 4, 5].map((n) => `notes/note-${n}.txt`));
    expect(result.pages).toEqual([2, 2, 1]);
    expect(result.firstBytes).toEqual([...Buffer.from('Note number 1 ✓')]);
  });

  it('throws the API error classes, with the request id the server exposes', async () => {
    const error = await inPage<Record<string, unknown>>(
      page,
      files,
      `const files = new parley.Client({ apiUrl: args.apiUrl, token: args.token, botId: args.botId });
       try {
         await files.getFile({ id: 'file_00000000000000000000000000' });
         return { thrown: false };
       } catch (e) {
         return {
           thrown: true,
           notFound: e instanceof parley.ResourceNotFoundError,
           apiError: e instanceof parley.ApiError,
           isApiError: parley.isApiError(e),
           type: e.type,
           status: e.status,
           requestId: e.requestId,
         };
       }`,
    );
    expect(error).toMatchObject({
      thrown: true,
      notFound: true,
      apiError: true,
      isApiError: true,
      type: 'ResourceNotFound',
      status: 404,
    });
    expect(error.requestId).toMatch(/^req_/);
  });

  it('reports a ConnectionError when the server does not allow the page origin', async () => {
    const refused = await inPage<Record<string, unknown>>(
      page,
      { apiUrl: refusing.origin, token: refusing.t.owner.token, workspaceId: refusing.t.workspaceId },
      `const client = new parley.Client({ ...args, retry: { attempts: 1 } });
       try {
         await client.listBots();
         return { thrown: false };
       } catch (e) {
         return {
           thrown: true,
           connection: e instanceof parley.ConnectionError,
           isApiError: parley.isApiError(e),
           message: e.message,
         };
       }`,
    );
    expect(refused).toMatchObject({ thrown: true, connection: true, isApiError: false });
    expect(String(refused.message)).toContain('/v1/admin/bots');
    // Node, which knows no CORS, is answered as usual: the server refuses nothing, the browser hides it.
    const direct = await fetch(`${refusing.origin}/v1/admin/bots`, {
      headers: {
        authorization: `Bearer ${refusing.t.owner.token}`,
        'x-workspace-id': refusing.t.workspaceId,
        origin: siteOrigin,
      },
    });
    expect(direct.status).toBe(200);
    expect(direct.headers.get('access-control-allow-origin')).toBeNull();
  });
});
