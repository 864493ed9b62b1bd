// What the Console costs a person: its first load (JS + CSS, raw, gzip, brotli), and in headless Chromium against
// a real `parley serve` process, the time from navigation until the Bots page is usable and until the first page
// of a 10,000-file bot's files table is shown, each beside the same page's API call alone, timed in the same
// browser in the same run.
//
//   npm run -w @parley/bench console                      # 10,000 files, 5 runs
//   npm run -w @parley/bench console -- --files 2000 --runs 3
import { execFileSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright-core';
import { intOption, makeWorkFolder } from './lib/args.js';
import { ratio, table } from './lib/format.js';
import { loadAverage } from './lib/machine.js';
import { onInterrupt, runMain } from './lib/run.js';
import { seedFiles } from './lib/seed-files.js';
import { callApi, type ParleyServer, repoRoot, running, startParleyWithBot } from './lib/server.js';
import { median } from './lib/stats.js';

const CHROMIUM = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];
const consoleDir = join(repoRoot, 'packages', 'console');

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '–');

/** The first load's bytes: the page and the files it names (built fresh from the sources). */
async function firstLoad(): Promise<void> {
  const started = performance.now();
  execFileSync(process.execPath, [join(consoleDir, 'build.mjs')], { stdio: 'pipe' });
  console.log(`built the Console from its sources in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const html = await readFile(join(consoleDir, 'dist', 'index.html'));
  const named = [...html.toString().matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1] as string,
  );
  const rows: Array<[string, Buffer]> = [['index.html', html]];
  for (const path of named)
    rows.push([path.replace('assets/', ''), await readFile(join(consoleDir, 'dist', path))]);
  const sizes = rows.map(([name, bytes]) => ({
    name,
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }));
  const assets = sizes.filter((s) => s.name !== 'index.html');
  const sum = (key: 'raw' | 'gzip' | 'brotli') => assets.reduce((a, s) => a + s[key], 0);
  const total = { name: 'JS + CSS', raw: sum('raw'), gzip: sum('gzip'), brotli: sum('brotli') };
  console.log(
    '\n## First load (what a browser downloads for any Console page, once: hashed names, cached a year)',
  );
  console.log(
    table([
      ['file', 'raw', 'gzip -9', 'brotli 11', 'gzip share'],
      ...[...sizes, total].map((s) => [
        s.name,
        kB(s.raw),
        kB(s.gzip),
        kB(s.brotli),
        s.name === 'index.html' ? '' : `${((100 * s.gzip) / total.gzip).toFixed(1)} %`,
      ]),
    ]),
  );
}

/** The owner's session cookie, from signing in with the bootstrap password (as the Sign in page does). */
async function signIn(server: ParleyServer, email: string, password: string): Promise<string> {
  const res = await fetch(`${server.url}/v1/admin/account/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ email, password }),
  });
  const cookie = /parley_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!res.ok || !cookie) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return cookie;
}

/** A page and when it is usable: `ready` runs in the page and answers true once it is. */
interface Target {
  name: string;
  path: string;
  /** The page's API call (matched on the requests the page makes), replayed alone as the baseline. */
  api: RegExp;
  ready: string;
}

/** In the page: the Bots page offers "Create bot" (the own role is known) and lists the bots. */
const BOTS_READY = `(() => {
  const create = [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Create bot');
  return create && document.querySelector('ul[aria-label="Bots"] li') !== null;
})()`;

/** In the page: a table named "Files" (aria-label, aria-labelledby or caption) shows a row of data. */
const FILES_READY = `(() => [...document.querySelectorAll('table')].some((t) => {
  const by = t.getAttribute('aria-labelledby');
  const name = t.getAttribute('aria-label') ?? (by ? document.getElementById(by)?.textContent : t.caption?.textContent) ?? '';
  return name.trim() === 'Files' && t.querySelector('tbody tr td') !== null;
}))()`;

/** One measured navigation: ms from navigation start to ready (the page's own clock), and the API call seen. */
async function navigate(page: Page, origin: string, target: Target, timeoutMs: number) {
  let api: { url: string; headers: Record<string, string> } | undefined;
  const onRequest = (request: { url(): string; method(): string; headers(): Record<string, string> }) => {
    if (!api && request.method() === 'GET' && target.api.test(new URL(request.url()).pathname)) {
      const headers = Object.fromEntries(
        Object.entries(request.headers()).filter(([k]) => /^(x-|accept$)/.test(k)),
      );
      api = { url: request.url(), headers };
    }
  };
  page.on('request', onRequest);
  try {
    await page.goto(`${origin}${target.path}`, { waitUntil: 'domcontentloaded' });
    // Polled on every frame in the page (evaluated through the DevTools protocol: the CSP refuses eval).
    const readyMs = (await page.evaluate(`new Promise((resolve, reject) => {
      const give = setTimeout(() => reject(new Error('not ready in ${timeoutMs} ms')), ${timeoutMs});
      const tick = () => {
        if (!${target.ready}) return requestAnimationFrame(tick);
        clearTimeout(give);
        resolve(performance.now());
      };
      tick();
    })`)) as number;
    return { readyMs, api, ...(await timeline(page, target, readyMs)) };
  } finally {
    page.off('request', onRequest);
  }
}

/** Where a navigation's time went, by the page's Resource Timing: assets loaded, the page's API call, calls. */
interface Timeline {
  /** When the last of the HTML, JS and CSS had arrived. */
  assetsMs: number;
  /** When the page's own API call was sent and answered. */
  apiSentMs: number;
  apiDoneMs: number;
  /** API calls (`/v1/…`) answered before the page was ready. */
  calls: number;
}

async function timeline(page: Page, target: Target, readyMs: number): Promise<Timeline> {
  const entries = (await page.evaluate(`[
    ...performance.getEntriesByType('navigation'),
    ...performance.getEntriesByType('resource'),
  ].map((e) => ({ name: e.name, start: e.startTime, end: e.responseEnd }))`)) as Array<{
    name: string;
    start: number;
    end: number;
  }>;
  const path = (name: string) => new URL(name).pathname;
  const assets = entries.filter((e) => !path(e.name).startsWith('/v1/'));
  const calls = entries.filter((e) => path(e.name).startsWith('/v1/') && e.end <= readyMs);
  const own = entries.find((e) => target.api.test(path(e.name)));
  return {
    assetsMs: Math.max(...assets.map((e) => e.end)),
    apiSentMs: own?.start ?? Number.NaN,
    apiDoneMs: own?.end ?? Number.NaN,
    calls: calls.length,
  };
}

/** The page's API call alone, from the same page (same cookie, same connection): ms to the parsed answer. */
async function apiAlone(page: Page, api: { url: string; headers: Record<string, string> }): Promise<number> {
  return (await page.evaluate(async ({ url, headers }) => {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    await res.json();
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    return performance.now() - t0;
  }, api)) as number;
}

interface Figures {
  cold: number[];
  warm: number[];
  /** The cold navigations' timelines. */
  timelines: Timeline[];
  api: number[];
  apiUrl?: string;
}

/**
 * `runs` rounds (after one not counted): a fresh browser profile (nothing cached) navigates to the page; the
 * same profile navigates again (the hashed assets from its cache); the page's API call alone.
 */
async function measure(browser: Browser, origin: string, cookie: string, target: Target, runs: number) {
  const figures: Figures = { cold: [], warm: [], timelines: [], api: [] };
  for (let round = 0; round <= runs; round++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'parley_session', value: cookie, url: origin }]);
    const page = await context.newPage();
    try {
      const cold = await navigate(page, origin, target, 60_000);
      const warm = await navigate(page, origin, target, 60_000);
      const api = cold.api ?? warm.api;
      if (!api) throw new Error(`${target.name}: the page made no request matching ${target.api}`);
      const alone = await apiAlone(page, api);
      if (round === 0) continue;
      figures.cold.push(cold.readyMs);
      figures.timelines.push(cold);
      figures.warm.push(warm.readyMs);
      figures.api.push(alone);
      figures.apiUrl = new URL(api.url).pathname + new URL(api.url).search;
      console.log(
        `${target.name}, run ${round}/${runs}: cold ${ms(cold.readyMs)} ms, cached ${ms(warm.readyMs)} ms, API call alone ${ms(alone)} ms`,
      );
    } finally {
      await context.close();
    }
  }
  return figures;
}

function report(target: Target, f: Figures): string[][] {
  const api = median(f.api);
  const range = (values: number[]) => `${ms(Math.min(...values))}–${ms(Math.max(...values))}`;
  return [
    [
      `${target.name}: first visit (nothing cached)`,
      ms(median(f.cold)),
      range(f.cold),
      ratio(median(f.cold), api),
    ],
    [`${target.name}: again (assets cached)`, ms(median(f.warm)), range(f.warm), ratio(median(f.warm), api)],
    [`${target.name}: its API call alone`, ms(api), range(f.api), '1.00×'],
  ];
}

/** The medians of the first visits' timelines: where the time before "ready" goes. */
function breakdown(target: Target, f: Figures): string[] {
  const of = (key: keyof Timeline) => median(f.timelines.map((t) => t[key]));
  return [
    target.name,
    ms(of('assetsMs')),
    ms(of('apiSentMs')),
    ms(of('apiDoneMs')),
    ms(median(f.cold)),
    String(of('calls')),
  ];
}

async function main(): Promise<void> {
  const fileCount = intOption('files', 'BENCH_FILES', 10_000, 1, 1_000_000);
  const runs = intOption('runs', 'BENCH_RUNS', 5, 1, 100);
  console.log(
    `Console benchmark: ${fileCount} files, ${runs} runs (+1 not counted); load average ${loadAverage()}`,
  );
  await firstLoad();

  const work = await makeWorkFolder('parley-console-bench-');
  const dataDir = join(work, 'data');
  let browser: Browser | undefined;
  const cleanup = async () => {
    await browser?.close();
    for (const proc of [...running]) await proc.stop();
    await rm(work, { recursive: true, force: true });
  };
  onInterrupt(cleanup);
  try {
    // The first start bootstraps the owner, workspace and bot; the files go in while no server runs.
    let server = await startParleyWithBot('parley', dataDir);
    const boot = JSON.parse(await readFile(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      email: string;
      password: string;
      workspaceId: string;
    };
    const kb = await callApi<{ knowledgeBase?: { id: string }; id?: string }>(
      server,
      'POST',
      '/v1/files/knowledge-bases',
      { name: 'Bench knowledge base' },
    );
    const knowledgeBaseId = kb.knowledgeBase?.id ?? kb.id;
    await server.stop();
    const seedMs = await seedFiles(
      {
        dataDir,
        botId: server.botId,
        workspaceId: boot.workspaceId,
        ...(knowledgeBaseId ? { knowledgeBaseId } : {}),
      },
      fileCount,
    );
    console.log(
      `\nseeded ${fileCount} file rows (metadata only, linked to one knowledge base) in ${ms(seedMs)} ms`,
    );
    server = await startParleyWithBot('parley', dataDir);
    const cookie = await signIn(server, boot.email, boot.password);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });

    const bots: Target = {
      name: 'Bots page',
      path: '/console/bots',
      api: /^\/v1\/admin\/bots$/,
      ready: BOTS_READY,
    };
    const files: Target = {
      name: 'Files page',
      path: `/console/bots/${encodeURIComponent(server.botId)}/files`,
      api: /^\/v1\/files$/,
      ready: FILES_READY,
    };
    console.log('');
    const rows = [['page (Chromium, 1280 px, signed in)', 'median ms', 'min–max', '÷ API call alone']];
    const botFigures = await measure(browser, server.url, cookie, bots, runs);
    rows.push(...report(bots, botFigures));
    const steps = [
      ['first visit (medians, ms)', 'HTML+JS+CSS in', 'API call sent', 'answered', 'ready', 'API calls'],
      breakdown(bots, botFigures),
    ];
    let filesNote = '';
    try {
      const fileFigures = await measure(browser, server.url, cookie, files, runs);
      rows.push(...report(files, fileFigures));
      steps.push(breakdown(files, fileFigures));
      filesNote = `files API call: GET ${fileFigures.apiUrl}`;
    } catch (error) {
      filesNote = `the files page showed no table named "Files" with a row (${(error as Error).message.split('\n')[0]})`;
    }
    console.log(`\nMedian of ${runs} runs; from navigation start (the page's performance.now()) to ready:`);
    console.log('- Bots page ready: "Create bot" offered (the own role known) and the bots listed.');
    console.log(
      `- Files page ready: the table named "Files" shows its first row, ${fileCount} files behind it.`,
    );
    console.log(table(rows));
    console.log(
      '\nWhere the time of a first visit goes (Resource Timing; API calls: /v1/ requests answered before ready):',
    );
    console.log(table(steps));
    console.log(`bots API call: GET ${botFigures.apiUrl}; ${filesNote}; load average ${loadAverage()}`);
  } finally {
    await cleanup();
  }
}

runMain(main);
