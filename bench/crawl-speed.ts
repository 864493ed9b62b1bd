// Crawl speed benchmark (issue #36): a website source crawled and indexed end to end by a real `parley serve`
// process, in pages per second, and the search API's latency while a crawl runs against its latency idle, in
// the same run. The site is the crawl tests' (packages/testkit/src/server/test-site.ts: robots.txt, a sitemap
// index, pages sharing a menu, a cookie banner and a footer), served on 127.0.0.1 by a process of its own, so
// the event loop that times the searches does not also serve the pages. See docs/benchmarks/crawl-speed.md.
//
//   npm run -w @parley/bench crawl-speed
//   npm run -w @parley/bench crawl-speed -- --pages 200 --runs 3 --docs 300
//
// Options (flags win over environment): --pages / BENCH_PAGES (pages of the site; default 200), --runs /
// BENCH_RUNS (crawls, each of a fresh site into a fresh knowledge base; default 3), --docs / BENCH_DOCS (SciFact
// abstracts indexed first, what the searches find; default 300), --idle-queries / BENCH_IDLE_QUERIES (searches
// timed idle before each crawl, and as many again after it: the idle figures are both windows'; default 100),
// --search-every-ms / BENCH_SEARCH_EVERY_MS (searches start this far apart, idle and crawling alike, as
// requests arriving now and then rather than one right after another; default 0: back to back),
// --quiet-runs / BENCH_QUIET_RUNS (crawls after those, with no search meanwhile, each printing the CPU the
// server's request thread and its whole process spent a page, from /proc; default 1),
// --parley-main / BENCH_PARLEY_MAIN (the server build to run, e.g. an
// older checkout's, for a before/after), --site / BENCH_SITE (`process`, the default: the site in a child
// process; `inline`: served by this process, as before 2026-12-06 17:00, whose searches then waited for the
// pages it served). After the runs, a table of where the server's threads spent each search's time, idle and
// crawling (/proc schedstat: CPU and run-queue wait of the request thread, the other normal-priority threads and the
// lowered ones). Server settings: any PARLEY_* variable of the environment, and
// PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES=true (the site is on 127.0.0.1).
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { testSite } from '../packages/testkit/src/server/test-site.js';
import { intOption, makeWorkFolder, option } from './lib/args.js';
import { pool, readJsonl } from './lib/corpus.js';
import { table } from './lib/format.js';
import {
  cpuSeconds,
  loadAverage,
  mainThreadCpuSeconds,
  type ThreadTimesPerSearch,
  threadTimes,
  threadTimesPerSearch,
} from './lib/machine.js';
import { runMain, sleep } from './lib/run.js';
import { callApi, type ParleyServer, repoRoot, serverMain, startParleyWithBot } from './lib/server.js';
import { type SiteProcess, startSiteProcess } from './lib/site-process.js';
import { median, summarize } from './lib/stats.js';

const KB = '/v1/files/knowledge-bases';
const WAITING = 'status=upload_pending&status=upload_completed&status=indexing_pending';

/** The server's settings: the environment's PARLEY_* variables, and private addresses allowed to crawl. */
function serverSettings(): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (k.startsWith('PARLEY_') && !/^(PARLEY_DATA_DIR|PARLEY_LOG_LEVEL)$/.test(k) && v !== undefined)
      settings[k] = v;
  return { ...settings, PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES: 'true' };
}

/** Whether any file of the bot still waits for its upload or its indexing. */
async function anyWaiting(server: ParleyServer): Promise<boolean> {
  const page = await callApi<{ files: unknown[] }>(server, 'GET', `/v1/files?${WAITING}&pageSize=1`);
  return page.files.length > 0;
}

/** Uploads `texts` for indexing, 8 at a time, and waits until every one is indexed. */
async function indexTexts(server: ParleyServer, texts: Array<{ key: string; text: string }>): Promise<void> {
  await pool(texts, 8, async ({ key, text }) => {
    const body = Buffer.from(text, 'utf8');
    const { file } = await callApi<{ file: { uploadUrl: string } }>(server, 'PUT', '/v1/files', {
      key,
      size: body.length,
      index: true,
      contentType: 'text/plain',
    });
    const res = await fetch(file.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
      body,
    });
    if (!res.ok) throw new Error(`upload of ${key} answered ${res.status}`);
    await res.arrayBuffer();
  });
  while (await anyWaiting(server)) await sleep(200);
}

/** Where the site is served: a process of its own (default) or this one (`--site inline`). */
let siteWhere: 'process' | 'inline' = 'process';

/** A fresh test site of `pages` pages, where `--site` says. */
async function startSite(pages: number): Promise<SiteProcess> {
  if (siteWhere === 'process') return startSiteProcess(pages);
  const site = testSite({ pages });
  return { base: await site.start(), stop: site.stop };
}

/** Milliseconds between the starts of searches (0: back to back); see --search-every-ms. */
let searchEveryMs = 0;
let lastSearch = 0;

/** One search through the API, started `searchEveryMs` after the last one began: its latency in ms. */
async function timedSearch(server: ParleyServer, query: string): Promise<number> {
  if (searchEveryMs > 0) await sleep(Math.max(0, lastSearch + searchEveryMs - performance.now()));
  const start = performance.now();
  lastSearch = start;
  await callApi(server, 'GET', `/v1/files/search?query=${encodeURIComponent(query)}&limit=10`);
  return performance.now() - start;
}

interface SourceView {
  state: string;
  runs: Array<{ outcome: string; counts: { found: number; indexed: number; skipped: number } }>;
}

interface CrawlRun {
  pages: number;
  seconds: number;
  idle: number[];
  during: number[];
  /** CPU seconds the server's request thread, and the whole server process, used from adding the source to the end. */
  cpu: { requestThread: number; process: number };
  /** The server's threads' CPU and run-queue wait per search, in the idle windows and while crawling. */
  threads: { idle: ThreadTimesPerSearch; crawling: ThreadTimesPerSearch };
}

/** Two windows' thread times per search, added (each already divided by the searches of both). */
function addTimes(a: ThreadTimesPerSearch, b: ThreadTimesPerSearch): ThreadTimesPerSearch {
  const add = (x: { cpuMs: number; waitMs: number }, y: { cpuMs: number; waitMs: number }) => ({
    cpuMs: x.cpuMs + y.cpuMs,
    waitMs: x.waitMs + y.waitMs,
  });
  return {
    request: add(a.request, b.request),
    otherNormal: add(a.otherNormal, b.otherNormal),
    lowered: add(a.lowered, b.lowered),
  };
}

/**
 * One crawl of a fresh site into a fresh knowledge base: searches timed idle first, then the source added and
 * searches timed one after another until the crawl has ended and every page it wrote is indexed, then idle
 * searches again (the idle figures are both windows', so a machine whose load drifts during the run moves
 * both sides of the ratio alike). The time is from adding the source to the last page file's
 * `indexing_completed` (its updatedAt).
 */
async function crawlOnce(
  server: ParleyServer,
  pages: number,
  queries: string[],
  idleQueries: number,
  quiet = false,
): Promise<CrawlRun> {
  const site = await startSite(pages);
  const base = site.base;
  try {
    const idle: number[] = [];
    const idleStart = threadTimes(server.pid);
    for (let i = 0; i < idleQueries; i++)
      idle.push(await timedSearch(server, queries[i % queries.length] as string));
    const crawlStart = threadTimes(server.pid);
    const { knowledgeBase } = await callApi<{ knowledgeBase: { id: string } }>(server, 'POST', KB, {
      name: `site ${base}`,
    });
    const cpuBefore = { requestThread: mainThreadCpuSeconds(server.pid), process: cpuSeconds(server.pid) };
    const start = Date.now();
    const { source } = await callApi<{ source: { id: string } }>(
      server,
      'POST',
      `${KB}/${knowledgeBase.id}/sources`,
      {
        type: 'website',
        url: `${base}/`,
        maxPages: pages + 20,
      },
    );
    const during: number[] = [];
    let view: SourceView;
    for (let i = 0; ; i++) {
      // A quiet crawl: no search, the source looked at every 100 ms.
      if (quiet) await sleep(100);
      else during.push(await timedSearch(server, queries[i % queries.length] as string));
      if (!quiet && i % 5 !== 4) continue;
      view = (
        await callApi<{ source: SourceView }>(server, 'GET', `${KB}/${knowledgeBase.id}/sources/${source.id}`)
      ).source;
      if (view.state === 'idle' && view.runs.length > 0 && !(await anyWaiting(server))) break;
    }
    const [last] = (
      await callApi<{ files: Array<{ updatedAt: string }> }>(
        server,
        'GET',
        `/v1/files?status=indexing_completed&pageSize=1&sortField=updatedAt&sortDirection=desc`,
      )
    ).files;
    const cpu = {
      requestThread: mainThreadCpuSeconds(server.pid) - cpuBefore.requestThread,
      process: cpuSeconds(server.pid) - cpuBefore.process,
    };
    const crawlEnd = threadTimes(server.pid);
    const run = view.runs[0];
    if (run?.outcome !== 'completed') throw new Error(`the crawl ended ${run?.outcome ?? 'without a run'}`);
    for (let i = 0; i < idleQueries; i++)
      idle.push(await timedSearch(server, queries[(idleQueries + i) % queries.length] as string));
    const idleEnd = threadTimes(server.pid);
    // The two idle windows as one: the threads' times in each, over both windows' searches.
    const idleBefore = threadTimesPerSearch(server.pid, idleStart, crawlStart, Math.max(1, idle.length));
    const idleAfter = threadTimesPerSearch(server.pid, crawlEnd, idleEnd, Math.max(1, idle.length));
    return {
      pages: run.counts.indexed,
      seconds: ((last ? Date.parse(last.updatedAt) : Date.now()) - start) / 1000,
      idle,
      during,
      cpu,
      threads: {
        idle: addTimes(idleBefore, idleAfter),
        crawling: threadTimesPerSearch(server.pid, crawlStart, crawlEnd, Math.max(1, during.length)),
      },
    };
  } finally {
    await site.stop();
  }
}

async function main(): Promise<void> {
  const pages = intOption('pages', 'BENCH_PAGES', 200, 1, 10_000);
  const runs = intOption('runs', 'BENCH_RUNS', 3, 1, 50);
  const docs = intOption('docs', 'BENCH_DOCS', 300, 0, 5183);
  const idleQueries = intOption('idle-queries', 'BENCH_IDLE_QUERIES', 100, 1, 10_000);
  const quietRuns = intOption('quiet-runs', 'BENCH_QUIET_RUNS', 1, 0, 50);
  searchEveryMs = intOption('search-every-ms', 'BENCH_SEARCH_EVERY_MS', 0, 0, 10_000);
  const where = option('site', 'BENCH_SITE') ?? 'process';
  if (where !== 'process' && where !== 'inline')
    throw new Error(`--site must be process or inline, got "${where}"`);
  siteWhere = where;
  const corpus = readJsonl<{ _id: string; title?: string; text: string }>(
    join(repoRoot, '..', 'shared', 'eval', 'scifact', 'corpus.jsonl'),
  );
  const queries = readJsonl<{ text: string }>(
    join(repoRoot, '..', 'shared', 'eval', 'scifact', 'queries.jsonl'),
  ).map((q) => q.text);
  const main = option('parley-main', 'BENCH_PARLEY_MAIN') ?? serverMain;
  console.log(
    `server ${main}; crawl speed: a test site of ${pages} pages, ${runs} crawls, ${docs} SciFact abstracts indexed first, searches ${searchEveryMs > 0 ? `${searchEveryMs} ms apart` : 'back to back'}, the site served ${siteWhere === 'process' ? 'by a process of its own' : 'by this process'}; load average at start: ${loadAverage()}`,
  );
  const dataDir = await makeWorkFolder('parley-crawl-');
  const server = await startParleyWithBot('parley', dataDir, serverSettings(), main);
  try {
    await indexTexts(
      server,
      corpus
        .slice(0, docs)
        .map((d) => ({ key: `abstracts/${d._id}.txt`, text: `${d.title ?? ''}\n\n${d.text}` })),
    );
    // The query side warm (the model loads for the first query embedding) before anything is timed.
    for (const query of queries.slice(0, 20)) await timedSearch(server, query);
    const rows: string[][] = [
      [
        'run',
        'pages',
        'seconds',
        'pages/s',
        'search p50 idle / crawling (ms)',
        'p95 idle / crawling (ms)',
        'p95 ÷ idle',
        'load',
      ],
    ];
    const results: CrawlRun[] = [];
    for (let r = 1; r <= runs; r++) {
      const run = await crawlOnce(server, pages, queries, idleQueries);
      results.push(run);
      const idle = summarize(run.idle);
      const during = summarize(run.during);
      rows.push([
        String(r),
        String(run.pages),
        run.seconds.toFixed(1),
        (run.pages / run.seconds).toFixed(1),
        `${idle.p50.toFixed(1)} / ${during.p50.toFixed(1)}`,
        `${idle.p95.toFixed(1)} / ${during.p95.toFixed(1)} (${run.during.length} searches)`,
        (during.p95 / idle.p95).toFixed(2),
        loadAverage(),
      ]);
      console.log(rows[rows.length - 1]?.join(' | '));
    }
    console.log('');
    console.log(table(rows));
    const rates = results.map((r) => r.pages / r.seconds);
    const ratios = results.map((r) => summarize(r.during).p95 / summarize(r.idle).p95);
    // Quiet crawls: no search meanwhile, so the CPU the server used is the crawl's and its indexing's alone.
    const quiet: string[][] = [
      ['quiet crawl', 'pages', 'pages/s', 'request thread CPU ms / page', 'process CPU ms / page'],
    ];
    for (let r = 1; r <= quietRuns; r++) {
      const run = await crawlOnce(server, pages, queries, 0, true);
      quiet.push([
        String(r),
        String(run.pages),
        (run.pages / run.seconds).toFixed(1),
        ((run.cpu.requestThread * 1000) / run.pages).toFixed(1),
        ((run.cpu.process * 1000) / run.pages).toFixed(1),
      ]);
    }
    if (quietRuns > 0) console.log(`\n${table(quiet)}`);
    console.log(`\n${threadTable(results)}`);
    console.log(
      `median of ${runs}: ${median(rates).toFixed(1)} pages/s (${Math.min(...rates).toFixed(1)}–${Math.max(...rates).toFixed(1)}), ` +
        `search p95 while crawling ÷ idle ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}); ` +
        `targets: >= 20 pages/s (${median(rates) >= 20 ? 'met' : 'NOT met'}), p95 within ±10 % (${Math.abs(median(ratios) - 1) <= 0.1 ? 'met' : 'NOT met'})`,
    );
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Where the server's threads spent each search's time, idle and while crawling (from /proc schedstat): CPU and
 * run-queue wait (runnable, no core free) of the request thread, of the other threads at normal priority
 * (query embedding, index readers, V8's and libuv's pools), and of the lowered ones (the crawl and its indexing).
 * Threads that end within a window are not counted.
 */
function threadTable(results: CrawlRun[]): string {
  const pair = (idle: { cpuMs: number; waitMs: number }, crawling: { cpuMs: number; waitMs: number }) =>
    `${idle.cpuMs.toFixed(2)} / ${crawling.cpuMs.toFixed(2)} (wait ${idle.waitMs.toFixed(2)} / ${crawling.waitMs.toFixed(2)})`;
  const rows = [
    [
      'run',
      'request thread CPU ms / search, idle / crawling',
      'other normal threads',
      'lowered threads (the crawl)',
    ],
  ];
  results.forEach(({ threads: { idle, crawling } }, i) => {
    rows.push([
      String(i + 1),
      pair(idle.request, crawling.request),
      pair(idle.otherNormal, crawling.otherNormal),
      pair(idle.lowered, crawling.lowered),
    ]);
  });
  return table(rows);
}

runMain(main);
