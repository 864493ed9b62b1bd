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
import { type Browser, chromium } from 'playwright-core';
import { intOption, makeWorkFolder } from './lib/args.js';
import { ratio, table } from './lib/format.js';
import { loadAverage } from './lib/machine.js';
import {
  apiAlone,
  BOTS_READY,
  FILES_READY,
  navigate,
  type Target,
  type Timeline,
} from './lib/page-timing.js';
import { onInterrupt, runMain, sleep } from './lib/run.js';
import { createBots, seedFiles, signIn } from './lib/seed-files.js';
import { callApi, repoRoot, running, startParleyWithBot } from './lib/server.js';
import { median } from './lib/stats.js';

const CHROMIUM = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];
const consoleDir = join(repoRoot, 'packages', 'console');

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '–');

/** The first load's bytes: the page and the files it names (built fresh from the sources). */
/**
 * Builds the Console and reads the page and the files it names. Tried three times: a browser test running in
 * the same working tree may rebuild dist/ at the same moment.
 */
async function buildConsole(attempt = 1): Promise<Array<[string, Buffer]>> {
  try {
    const started = performance.now();
    execFileSync(process.execPath, [join(consoleDir, 'build.mjs')], { stdio: 'pipe' });
    console.log(
      `built the Console from its sources in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const html = await readFile(join(consoleDir, 'dist', 'index.html'));
    const named = [...html.toString().matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.(?:js|css))"/g)];
    const rows: Array<[string, Buffer]> = [['index.html', html]];
    for (const [, path = ''] of named)
      rows.push([path.replace('assets/', ''), await readFile(join(consoleDir, 'dist', path))]);
    return rows;
  } catch (error) {
    if (attempt >= 3) throw error;
    console.log(`building the Console failed, trying again: ${(error as Error).message.split('\n')[0]}`);
    await sleep(3000);
    return buildConsole(attempt + 1);
  }
}

async function firstLoad(): Promise<void> {
  const rows = await buildConsole();
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

interface Figures {
  cold: number[];
  warm: number[];
  /** The cold navigations' timelines. */
  timelines: Timeline[];
  api: number[];
  apiUrl?: string;
}

/** One round in a fresh browser profile: a first visit (nothing cached), a second one, the API call alone. */
async function round(browser: Browser, origin: string, cookie: string, target: Target) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: 'parley_session', value: cookie, url: origin }]);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
  const visit = () =>
    navigate(page, origin, target, 30_000).catch((error: Error) => {
      const what = error.message.split('\n')[0];
      throw new Error(`${target.name}: ${what}; on the page: ${problems.join('; ') || 'no error'}`);
    });
  try {
    const cold = await visit();
    const warm = await visit();
    const api = cold.api;
    if (api.length === 0) throw new Error(`${target.name}: the page made no request matching ${target.api}`);
    return { cold, warm, api, alone: await apiAlone(page, api) };
  } finally {
    await context.close();
  }
}

/**
 * `runs` rounds (after one not counted). A failed round is run again, twice at most (the Console's dist/ may
 * be rebuilt under the server by a test running in the same tree): the failure is printed.
 */
async function measure(browser: Browser, origin: string, cookie: string, target: Target, runs: number) {
  const figures: Figures = { cold: [], warm: [], timelines: [], api: [] };
  let retries = 0;
  for (let n = 0; n <= runs; n++) {
    let result: Awaited<ReturnType<typeof round>>;
    try {
      result = await round(browser, origin, cookie, target);
    } catch (error) {
      if (++retries > 2) throw error;
      console.log(`${target.name}, run ${n}/${runs} failed, run again: ${(error as Error).message}`);
      n--;
      continue;
    }
    const { cold, warm, api, alone } = result;
    if (n === 0) continue;
    figures.cold.push(cold.readyMs);
    figures.timelines.push(cold);
    figures.warm.push(warm.readyMs);
    figures.api.push(alone);
    figures.apiUrl = `${new URL(api[0]?.url ?? '').pathname}${new URL(api[0]?.url ?? '').search}${api.length > 1 ? ` and ${api.length - 1} more page(s)` : ''}`;
    console.log(
      `${target.name}, run ${n}/${runs}: cold ${ms(cold.readyMs)} ms, cached ${ms(warm.readyMs)} ms, API call alone ${ms(alone)} ms`,
    );
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
  const botCount = intOption('bots', 'BENCH_BOTS', 20, 0, 1000);
  console.log(
    `Console benchmark: ${botCount + 1} bots, ${fileCount} files, ${runs} runs (+1 not counted); load average ${loadAverage()}`,
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
      token: string;
    };
    await createBots(server.url, boot, botCount);
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
