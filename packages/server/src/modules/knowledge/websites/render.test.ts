import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KnowledgeSource } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, haveChromium } from '../../../../../testkit/src/e2e/browser.js';
import { callAs } from '../../../../../testkit/src/server/files-api.js';
import { settled } from '../../../../../testkit/src/server/files-indexing.js';
import { useTestApp } from '../../../../../testkit/src/server/fixtures.js';
import { testSite } from '../../../../../testkit/src/server/test-site.js';
import { crawlFinished } from '../../../../../testkit/src/server/website-sources.js';
import { expectError } from '../../../../../testkit/src/server/wire.js';
import { findChromium } from '../../../config/chromium.js';
import { ConfigError, loadConfig } from '../../../config/config.js';
import { outboundFetch } from '../../../http/outbound.js';
import { chromiumRenderer, pageHtml } from './render.js';
import type { UrlRules } from './url-rules.js';

/**
 * Pages rendered by JavaScript (issue #36, item 5) in the real system Chromium: a page whose text a script writes
 * is indexed with that text when its source asks for `render: "javascript"`, and without it otherwise; the page's
 * requests go through the crawl's outbound guard; and the errors when rendering is off or Chromium is missing.
 */

const KB = '/v1/files/knowledge-bases';
const canRender = haveChromium('page rendering tests');

/** A help page whose answer is written by its script, from a JSON document it fetches from its own host. */
const SCRIPTED = {
  '/help/scripted': {
    title: 'Scripted help',
    body: `<p>Loading the answer about delivery times for every order placed with the shop…</p><div id="answer"></div>
<script>fetch('/help/answer.json').then((r) => r.json()).then((a) => {
  document.getElementById('answer').innerHTML = '<p>' + a.text + '</p>';
});</script>`,
  },
};
const ANSWER = 'Parcels scriptword arrive within four working days after the order leaves the warehouse.';

/** A test site with the scripted page and the JSON it fetches. */
function scriptedSite() {
  return testSite({
    pages: 1,
    extra: SCRIPTED,
    files: {
      '/help/answer.json': { contentType: 'application/json', body: JSON.stringify({ text: ANSWER }) },
    },
  });
}

describe.runIf(canRender)('website sources rendered by JavaScript (Chromium)', () => {
  const rendered = scriptedSite();
  const plain = scriptedSite();
  const bases = { rendered: '', plain: '' };
  beforeAll(async () => {
    bases.rendered = await rendered.start();
    bases.plain = await plain.start();
  });
  afterAll(async () => {
    await rendered.stop();
    await plain.stop();
  });
  const t = useTestApp({
    workers: true,
    env: {
      PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES: 'true',
      PARLEY_CRAWL_RENDER_JS: 'true',
      PARLEY_CRAWL_CHROMIUM_PATH: CHROMIUM,
    },
  });

  it("indexes the text a page's script writes with render javascript, and not without", async () => {
    const kb = await callAs(t, t.botKey, 'POST', KB, { name: 'Scripted' });
    const kbId = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    const add = async (url: string, render?: string) => {
      const res = await callAs(t, t.botKey, 'POST', `${KB}/${kbId}/sources`, {
        type: 'website',
        url,
        maxPages: 1,
        ...(render ? { render } : {}),
      });
      expect(res.statusCode, res.body).toBe(201);
      const source = (res.json() as { source: KnowledgeSource }).source;
      expect(source.render).toBe(render ?? 'html');
      return crawlFinished(t, kbId, source.id);
    };
    const list = await callAs(t, t.botKey, 'GET', `${KB}/${kbId}/sources`);
    expect(list.json()).toEqual({ sources: [], rendersJavaScript: true });
    const js = await add(`${bases.rendered}/help/scripted`, 'javascript');
    const html = await add(`${bases.plain}/help/scripted`);
    expect(js.runs[0]).toMatchObject({ outcome: 'completed', counts: { indexed: 1 } });
    expect(html.runs[0]).toMatchObject({ outcome: 'completed', counts: { indexed: 1 } });
    // The rendered page fetched its JSON through the crawl (the plain one never ran its script).
    expect(rendered.requests.some((r) => r.startsWith('/help/answer.json '))).toBe(true);
    expect(plain.requests.some((r) => r.startsWith('/help/answer.json '))).toBe(false);
    const files = (await callAs(t, t.botKey, 'GET', `${KB}/${kbId}/files`)).json() as {
      files: Array<{ fileId: string }>;
    };
    for (const f of files.files) await settled(t, f.fileId, 2400);
    const res = await callAs(t, t.botKey, 'GET', '/v1/files/search?query=scriptword&limit=10');
    expect(res.statusCode, res.body).toBe(200);
    const passages = (res.json() as { passages: Array<{ content: string; file: { key: string } }> }).passages;
    const withAnswer = passages.filter((p) => p.content.includes('scriptword'));
    expect(withAnswer.map((p) => p.file.key)).toEqual([`web/${new URL(bases.rendered).host}/help/scripted`]);
  });
});

describe.runIf(canRender)("the renderer: a page's requests through the outbound guard", () => {
  const site = scriptedSite();
  let base = '';
  beforeAll(async () => {
    base = await site.start();
  });
  afterAll(() => site.stop());
  const log = { debug() {}, warn() {} } as unknown as Parameters<typeof chromiumRenderer>[0]['log'];

  it("refuses the page's request to a private address, and other hosts' scripts", async () => {
    const renderer = chromiumRenderer({
      executablePath: CHROMIUM,
      fetch: outboundFetch({ blockPrivate: true }),
      log,
    });
    try {
      const url = new URL(`${base}/help/scripted`);
      const other = base.replace('127.0.0.1', 'localhost');
      const html = Buffer.from(
        `<html><body><main><p id="t">before</p></main><script src="${other}/other.js"></script>
<script>fetch('/help/answer.json').then(() => { document.getElementById('t').textContent = 'REACHED'; },
  () => { document.getElementById('t').textContent = 'REFUSED'; });</script></body></html>`,
      );
      const rules: UrlRules = { host: '127.0.0.1', include: [], exclude: [], subdomains: false };
      const page = await renderer.render(url, html, {
        rules,
        userAgent: 'Parley/test',
        maxBytes: 1024 * 1024,
        timeoutMs: 20_000,
        signal: new AbortController().signal,
      });
      expect(page).toMatchObject({ kind: 'ok', bytes: 0 });
      expect(page.kind === 'ok' && page.html).toContain('REFUSED');
      // Nothing reached the site: the document came from the crawl, its JSON was refused by the guard.
      expect(site.requests).toEqual([]);
    } finally {
      await renderer.close();
    }
  });
});

describe.runIf(canRender)("the renderer: a page's bytes and time caps", () => {
  const big = 'x'.repeat(64 * 1024);
  const site = testSite({
    pages: 1,
    files: { '/big.json': { contentType: 'application/json', body: JSON.stringify({ big }) } },
  });
  let base = '';
  beforeAll(async () => {
    base = await site.start();
  });
  afterAll(() => site.stop());
  const log = { debug() {}, warn() {} } as unknown as Parameters<typeof chromiumRenderer>[0]['log'];
  const renderer = chromiumRenderer({
    executablePath: CHROMIUM,
    fetch: outboundFetch({ blockPrivate: false }),
    log,
  });
  afterAll(() => renderer.close());
  const rules: UrlRules = { host: '127.0.0.1', include: [], exclude: [], subdomains: false };
  const render = (html: string, limits: { maxBytes: number; timeoutMs: number }) =>
    renderer.render(new URL(`${base}/page`), Buffer.from(html), {
      rules,
      userAgent: 'Parley/test',
      ...limits,
      signal: new AbortController().signal,
    });

  it('fetches what the page asks for within its bytes, and skips it as too_large beyond them', async () => {
    const html = `<main id="t">before</main><script>fetch('/big.json').then((r) => r.json())
      .then((j) => { document.getElementById('t').textContent = 'GOT ' + j.big.length; });</script>`;
    const fits = await render(html, { maxBytes: 1024 * 1024, timeoutMs: 20_000 });
    expect(fits).toMatchObject({ kind: 'ok', html: expect.stringContaining(`GOT ${big.length}`) });
    expect(fits.bytes).toBeGreaterThan(big.length);
    expect(await render(html, { maxBytes: 16 * 1024, timeoutMs: 20_000 })).toMatchObject({
      kind: 'skipped',
      reason: 'too_large',
    });
  });

  it('skips a page that does not load within its time as timeout', async () => {
    // A script that never arrives holds the page's load event.
    const never = createServer(() => undefined);
    await new Promise<void>((resolve) => never.listen(0, '127.0.0.1', resolve));
    try {
      const port = (never.address() as AddressInfo).port;
      const page = await renderer.render(
        new URL(`http://127.0.0.1:${port}/page`),
        Buffer.from(`<main>text</main><script src="/never.js"></script>`),
        {
          rules,
          userAgent: 'Parley/test',
          maxBytes: 1024 * 1024,
          timeoutMs: 1_500,
          signal: new AbortController().signal,
        },
      );
      expect(page).toMatchObject({ kind: 'skipped', reason: 'timeout' });
    } finally {
      never.closeAllConnections();
      await new Promise<void>((resolve) => never.close(() => resolve()));
    }
  });
});

describe('rendering by JavaScript: the errors', () => {
  const t = useTestApp({ workers: false });

  it('answers 400 naming PARLEY_CRAWL_RENDER_JS when the server does not render pages', async () => {
    const kb = await callAs(t, t.botKey, 'POST', KB, { name: 'Off' });
    const kbId = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    const res = await callAs(t, t.botKey, 'POST', `${KB}/${kbId}/sources`, {
      type: 'website',
      url: 'https://example.com/',
      render: 'javascript',
    });
    expect(expectError(res, 400, 'InvalidPayload').message).toContain('PARLEY_CRAWL_RENDER_JS=true');
    // The Console offers the checkbox only where the list says the server renders.
    const list = await callAs(t, t.botKey, 'GET', `${KB}/${kbId}/sources`);
    expect(list.json()).toEqual({ sources: [], rendersJavaScript: false });
  });

  it('fails a crawl of a source asking for JavaScript where the server does not render, saying so', async () => {
    await expect(
      pageHtml(undefined, 'javascript', new URL('https://example.com/'), Buffer.from('<p>x</p>'), {
        rules: { host: 'example.com', include: [], exclude: [], subdomains: false },
        userAgent: 'Parley/test',
        maxBytes: 1024,
        timeoutMs: 1000,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow('set PARLEY_CRAWL_RENDER_JS=true');
  });

  it('refuses to start when the Chromium named is missing, naming the setting and the path', () => {
    const env = { PARLEY_CRAWL_RENDER_JS: 'true', PARLEY_CRAWL_CHROMIUM_PATH: '/nonexistent/chromium' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as ConfigError).issues).toEqual([
        {
          variable: 'PARLEY_CRAWL_CHROMIUM_PATH',
          message: expect.stringContaining('PARLEY_CRAWL_CHROMIUM_PATH names /nonexistent/chromium'),
        },
      ]);
    }
  });

  it('names every path tried on PATH when none holds a Chromium', () => {
    const found = findChromium(undefined, '/nonexistent/a:/nonexistent/b');
    expect(found).toEqual({
      message: expect.stringContaining(
        'none of chromium, chromium-browser, google-chrome on PATH: /nonexistent/a/chromium, /nonexistent/a/chromium-browser, /nonexistent/a/google-chrome, /nonexistent/b/chromium',
      ),
    });
  });
});

describe('rendering by JavaScript: Chromium gone since the server started', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-chromium-'));
  const chromium = join(dir, 'chromium');
  writeFileSync(chromium, '#!/bin/sh\n', { mode: 0o755 });
  const t = useTestApp({
    workers: false,
    env: { PARLEY_CRAWL_RENDER_JS: 'true', PARLEY_CRAWL_CHROMIUM_PATH: chromium },
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers 409 naming the missing path on creating or syncing a source rendered by JavaScript', async () => {
    const kb = await callAs(t, t.botKey, 'POST', KB, { name: 'Gone' });
    const kbId = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    const body = { type: 'website', url: 'https://example.com/', render: 'javascript' };
    const made = await callAs(t, t.botKey, 'POST', `${KB}/${kbId}/sources`, body);
    expect(made.statusCode, made.body).toBe(201);
    const id = (made.json() as { source: KnowledgeSource }).source.id;
    rmSync(chromium);
    const again = await callAs(t, t.botKey, 'POST', `${KB}/${kbId}/sources`, body);
    expect(expectError(again, 409, 'ResourceLockedConflict').message).toContain(
      `${chromium} (PARLEY_CRAWL_CHROMIUM_PATH`,
    );
    const sync = await callAs(t, t.botKey, 'POST', `${KB}/${kbId}/sources/${id}/sync`);
    expect(expectError(sync, 409, 'ResourceLockedConflict').message).toContain(
      'no longer an executable file',
    );
  });
});
