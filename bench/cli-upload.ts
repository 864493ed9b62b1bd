// `parley files upload` benchmark: 200 small Markdown documents uploaded to a real `parley serve` process by
// the CLI (a child process, as a person runs it: files, then the wait until every one is indexed) and, in the
// same run against the same server, the same files uploaded one by one through the API (upsert, PUT of the
// bytes, one file after the other, then the same wait). Prints, per method, the medians of the time until
// every file is stored and until every file is indexed, files/s, and the CLI's ratios to the one-by-one
// baseline. Each run uses fresh keys; the order of the two methods alternates between runs. See docs/benchmarks/cli-upload.md.
//
//   npm run -w @parley/bench cli-upload -- --files 200 --runs 3
//
// Options (flags win over environment): --files / BENCH_FILES (default 200), --runs / BENCH_RUNS (default 3),
// --concurrency / BENCH_CONCURRENCY (the CLI's --concurrency, default 4), --embedder / BENCH_EMBEDDER (the
// server's PARLEY_EMBEDDER; default its own default), --dir / BENCH_DIR (work folder; default the OS temp folder).
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { uploadAsBot } from '../packages/testkit/src/shared/bot-request.js';
import { intOption, makeWorkFolder, option } from './lib/args.js';
import { ratio, table } from './lib/format.js';
import { loadAverage } from './lib/machine.js';
import { onInterrupt, runMain, sleep } from './lib/run.js';
import { childEnv, cliMain, type ParleyServer, running, startParleyWithBot } from './lib/server.js';
import { median, msSince, now } from './lib/stats.js';

const WORDS = [
  'harbour',
  'lantern',
  'orchard',
  'meadow',
  'granite',
  'willow',
  'copper',
  'saffron',
  'thistle',
];

/** A small document (about 1 KB, two sections) holding a word of its own. */
function documentText(i: number): string {
  const w = (k: number) => WORDS[(i + k) % WORDS.length];
  return [
    `# Note ${i}: the ${w(0)} office`,
    '',
    `The team at the ${w(1)} site meets every morning. Document ${i} keeps the word bench${i}token for search.`,
    `Visitors park near the ${w(2)} gate and sign in at the front desk before nine.`.repeat(3),
    '',
    '## Opening hours',
    '',
    `The ${w(3)} room opens at eight and closes at six; on Fridays it closes at four.`.repeat(4),
    '',
  ].join('\n');
}

/** The bot's files whose key starts with `prefix`, by status (every page). */
async function statuses(server: ParleyServer, prefix: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let next: string | undefined;
  do {
    const query = new URLSearchParams({ keyContains: prefix, pageSize: '100' });
    if (next) query.set('nextToken', next);
    const res = await fetch(`${server.url}/v1/files?${query}`, {
      headers: { authorization: `Bearer ${server.botAccessKey}`, 'x-bot-id': server.botId },
    });
    if (!res.ok) throw new Error(`listFiles: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { files: Array<{ status: string }>; meta: { nextToken?: string } };
    for (const f of page.files) counts.set(f.status, (counts.get(f.status) ?? 0) + 1);
    next = page.meta.nextToken;
  } while (next);
  return counts;
}

/** Waits until `count` files under `prefix` are indexed (polled every 500 ms, as the CLI does); throws on a failure. */
async function untilIndexed(server: ParleyServer, prefix: string, count: number): Promise<void> {
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    const s = await statuses(server, prefix);
    if ((s.get('indexing_failed') ?? 0) + (s.get('upload_failed') ?? 0) > 0)
      throw new Error(`files failed under ${prefix}: ${JSON.stringify([...s])}`);
    if ((s.get('indexing_completed') ?? 0) >= count) return;
    if (Date.now() > deadline) throw new Error(`not indexed after 30 minutes: ${JSON.stringify([...s])}`);
    await sleep(500);
  }
}

interface Timing {
  storedMs: number;
  indexedMs: number;
  /** The CLI's start-up and exit (process, imports, first call): its wall time less its own run time. */
  overheadMs?: number;
}

/** The baseline: each file upserted, then its bytes PUT, one after the other; then the wait for indexing. */
async function oneByOne(server: ParleyServer, dir: string, names: string[], prefix: string): Promise<Timing> {
  const bot = { accessKey: server.botAccessKey, id: server.botId };
  const start = now();
  for (const name of names) {
    const bytes = await readFile(join(dir, name));
    await uploadAsBot(server.url, bot, `${prefix}/${name}`, bytes, { index: true });
  }
  const storedMs = msSince(start);
  await untilIndexed(server, `${prefix}/`, names.length);
  return { storedMs, indexedMs: msSince(start) };
}

/** `parley files upload <dir> --prefix <prefix> --json` as a child process; the times from its report and its exit. */
function cliUpload(
  server: ParleyServer,
  dir: string,
  prefix: string,
  concurrency: number,
  count: number,
): Promise<Timing> {
  const start = now();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cliMain, 'files', 'upload', dir, '--prefix', prefix, '--json', '--concurrency', String(concurrency)],
      {
        env: childEnv({
          PARLEY_API_URL: server.url,
          PARLEY_TOKEN: server.botAccessKey,
          PARLEY_BOT_ID: server.botId,
        }),
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const indexedMs = msSince(start);
        if (error) {
          reject(new Error(`parley files upload failed: ${stderr}\n${stdout.slice(0, 2000)}`));
          return;
        }
        const report = JSON.parse(stdout) as {
          summary: { storedSeconds: number; seconds: number; indexed: number };
        };
        if (report.summary.indexed !== count) {
          reject(new Error(`not every file was indexed: ${JSON.stringify(report.summary)}`));
          return;
        }
        // Stored: the CLI's own figure plus its start-up (process, client, first call) measured here.
        const startup = indexedMs - report.summary.seconds * 1000;
        resolve({ storedMs: startup + report.summary.storedSeconds * 1000, indexedMs, overheadMs: startup });
      },
    );
  });
}

async function main(): Promise<void> {
  const count = intOption('files', 'BENCH_FILES', 200, 1, 10_000);
  const runs = intOption('runs', 'BENCH_RUNS', 3, 1, 20);
  const concurrency = intOption('concurrency', 'BENCH_CONCURRENCY', 4, 1, 64);
  const embedder = option('embedder', 'BENCH_EMBEDDER');
  const work = await makeWorkFolder('parley-bench-cli-');
  const docs = join(work, 'docs');
  let server: ParleyServer | undefined;
  const cleanup = async () => {
    for (const p of running) await p.stop();
    await rm(work, { recursive: true, force: true });
  };
  onInterrupt(cleanup);
  try {
    const names: string[] = [];
    await rm(docs, { recursive: true, force: true });
    await mkdir(docs, { recursive: true });
    for (let i = 1; i <= count; i += 1) {
      const name = `note-${String(i).padStart(4, '0')}.md`;
      await writeFile(join(docs, name), documentText(i));
      names.push(name);
    }
    server = await startParleyWithBot(
      'parley',
      join(work, 'data'),
      embedder ? { PARLEY_EMBEDDER: embedder } : {},
    );
    console.log(
      `parley files upload vs one by one through the API: ${count} Markdown files (~1 KB), ${runs} run(s), CLI --concurrency ${concurrency}, embedder ${embedder ?? 'server default'}; load ${loadAverage()} at start`,
    );
    const cli: Timing[] = [];
    const api: Timing[] = [];
    for (let run = 1; run <= runs; run += 1) {
      const order = run % 2 === 1 ? (['cli', 'api'] as const) : (['api', 'cli'] as const);
      for (const method of order) {
        if (method === 'cli') cli.push(await cliUpload(server, docs, `cli-${run}`, concurrency, count));
        else api.push(await oneByOne(server, docs, names, `api-${run}`));
        const last = method === 'cli' ? cli.at(-1) : api.at(-1);
        console.log(
          `run ${run} ${method}: stored ${((last?.storedMs ?? 0) / 1000).toFixed(2)} s, indexed ${((last?.indexedMs ?? 0) / 1000).toFixed(2)} s${last?.overheadMs !== undefined ? ` (of which CLI start-up and exit ${(last.overheadMs / 1000).toFixed(2)} s)` : ''}`,
        );
      }
    }
    const med = (xs: Timing[], k: 'storedMs' | 'indexedMs') => median(xs.map((x) => x[k]));
    const row = (name: string, xs: Timing[]) => [
      name,
      (med(xs, 'storedMs') / 1000).toFixed(2),
      (count / (med(xs, 'storedMs') / 1000)).toFixed(1),
      (med(xs, 'indexedMs') / 1000).toFixed(2),
      (count / (med(xs, 'indexedMs') / 1000)).toFixed(1),
    ];
    console.log('');
    console.log(
      table([
        ['method (medians)', 'all stored (s)', 'files/s stored', 'all indexed (s)', 'files/s indexed'],
        row(`parley files upload (--concurrency ${concurrency})`, cli),
        row('one by one through the API', api),
      ]),
    );
    console.log(
      `\nCLI start-up and exit (median): ${(median(cli.map((x) => x.overheadMs ?? 0)) / 1000).toFixed(2)} s`,
    );
    console.log(
      `CLI ÷ one by one, files/s: stored ${ratio(med(api, 'storedMs'), med(cli, 'storedMs'))}, indexed ${ratio(med(api, 'indexedMs'), med(cli, 'indexedMs'))} (higher is faster); load ${loadAverage()} at end`,
    );
  } finally {
    await cleanup();
  }
}

runMain(main);
