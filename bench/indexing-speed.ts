// Indexing speed benchmark: BEIR SciFact's abstracts uploaded through the API to a real `parley serve`
// process (`index: true`), timed from the first upload to the last `indexing_completed` (the file's
// updatedAt), at each precision of the shipped embedder on onnxruntime (fp32 and int8), as files/s and
// passages/s with the server's CPU time per file (main thread and the rest); beside it, in the same run, the
// same files uploaded without indexing (the uploads alone) and files uploaded one at a time, each waited for
// (upload → indexed latency); then multi-page PDFs made of SciFact text (pdf-lib), as PDFs per minute. See
// docs/benchmarks/indexing-speed.md.
//
//   npm run -w @parley/bench indexing-speed
//   npm run -w @parley/bench indexing-speed -- --runtimes onnx --docs 1000
//
// Options (flags win over environment): --runtimes / BENCH_RUNTIMES (comma list of onnx, onnx-int8;
// default both), --docs / BENCH_DOCS (abstracts; default all 5,183), --pdfs / BENCH_PDFS (default 8),
// --pdf-pages / BENCH_PDF_PAGES (default 20), --concurrency / BENCH_CONCURRENCY (uploads at once; default 8),
// --set / BENCH_SET (default scifact), --trickle / BENCH_TRICKLE (files uploaded one at a time; default 20),
// --parley-main / BENCH_PARLEY_MAIN (the server build to run, e.g. an older checkout's, for a before/after).
// Server settings: PARLEY_EMBEDDER_WORKERS (default 2) and any other
// PARLEY_* variable of the environment.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { UseLiteEmbedder } from '@parley/server/dist/search/embed/index.js';
import { drawParagraph, letterPdf, wrap } from '../packages/testkit/src/shared/sectioned.js';
import { intOption, makeWorkFolder, option } from './lib/args.js';
import { passageCount, pool, readJsonl } from './lib/corpus.js';
import { table } from './lib/format.js';
import { cpuSeconds, loadAverage, mainThreadCpuSeconds } from './lib/machine.js';
import { runMain, sleep } from './lib/run.js';
import { callApi, type ParleyServer, repoRoot, serverMain, startParleyWithBot } from './lib/server.js';
import { median, summarize } from './lib/stats.js';

/**
 * What runs the model: onnxruntime at fp32 or at int8 (the default on a new index; both set through
 * PARLEY_EMBEDDER_PRECISION). TensorFlow.js, the "before" of earlier runs (docs/benchmarks/indexing-speed.md), was removed.
 */
type Runtime = 'onnx' | 'onnx-int8';
const RUNTIMES: readonly Runtime[] = ['onnx', 'onnx-int8'];

/** The embedder settings of a runtime. */
const embedderOf = (runtime: Runtime) => ({
  precision: runtime === 'onnx-int8' ? ('int8' as const) : ('fp32' as const),
});

interface Doc {
  id: string;
  title: string;
  text: string;
}

interface Upload {
  key: string;
  body: Buffer;
  contentType: string;
}

interface Outcome {
  files: number;
  failed: number;
  passages: number;
  seconds: number;
  /** The server's CPU time over the run, per file (ms): every thread, and its main thread alone. */
  cpuMsPerFile: { all: number; main: number };
}

const OWN_VARIABLES =
  /^(PARLEY_DATA_DIR|PARLEY_LOG_LEVEL|PARLEY_RATE_LIMIT_MAX|PARLEY_EMBEDDER_RUNTIME|PARLEY_EMBEDDER_PRECISION|PORT|HOST)$/;

/** The server's settings: the benchmark's defaults, the environment's PARLEY_* variables, the runtime. */
function serverSettings(runtime: Runtime): Record<string, string> {
  const settings: Record<string, string> = { PARLEY_EMBEDDER_WORKERS: '2' };
  for (const [k, v] of Object.entries(process.env))
    if (k.startsWith('PARLEY_') && !OWN_VARIABLES.test(k) && v !== undefined) settings[k] = v;
  return { ...settings, PARLEY_EMBEDDER_PRECISION: embedderOf(runtime).precision };
}

/** Uploads one file (upsertFile, then the bytes), for indexing unless `index` is false; answers its id. */
async function upload(server: ParleyServer, file: Upload, index = true): Promise<string> {
  const { file: created } = await callApi<{ file: { id: string; uploadUrl: string } }>(
    server,
    'PUT',
    '/v1/files',
    { key: file.key, size: file.body.length, index, contentType: file.contentType },
  );
  const res = await fetch(created.uploadUrl, {
    method: 'PUT',
    headers: { 'content-type': file.contentType },
    body: file.body,
    signal: AbortSignal.timeout(120_000),
  });
  if (!res.ok)
    throw new Error(`upload of ${file.key} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  await res.arrayBuffer();
  return created.id;
}

interface FileRow {
  id: string;
  key: string;
  updatedAt: string;
  failedStatusReason?: string;
}

/** Files in `statuses` (at most `pageSize`, latest update first). */
async function filesIn(server: ParleyServer, statuses: string[], pageSize: number): Promise<FileRow[]> {
  const query = statuses.map((s) => `status=${s}`).join('&');
  const page = await callApi<{ files: FileRow[] }>(
    server,
    'GET',
    `/v1/files?${query}&pageSize=${pageSize}&sortField=updatedAt&sortDirection=desc`,
  );
  return page.files;
}

/** Every file id in `statuses`. */
async function allIds(server: ParleyServer, statuses: string[]): Promise<string[]> {
  const ids: string[] = [];
  let token: string | undefined;
  const query = statuses.map((s) => `status=${s}`).join('&');
  do {
    const page = await callApi<{ files: FileRow[]; meta: { nextToken?: string } }>(
      server,
      'GET',
      `/v1/files?${query}&pageSize=100${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`,
    );
    ids.push(...page.files.map((f) => f.id));
    token = page.meta.nextToken;
  } while (token);
  return ids;
}

const WAITING = ['upload_pending', 'upload_completed', 'indexing_pending'];

/**
 * Uploads `files` (`concurrency` at a time), waits until none waits for indexing (polled once a second,
 * one small query), and answers the time from the first upload to the last file's completion (its
 * updatedAt), and the passages stored (counted afterwards).
 */
async function indexAll(server: ParleyServer, files: Upload[], concurrency: number): Promise<Outcome> {
  const cpu = cpuClock(server.pid);
  const start = Date.now();
  await pool(files, concurrency, async (file) => {
    await upload(server, file);
  });
  while ((await filesIn(server, WAITING, 1)).length > 0) await sleep(1000);
  const [last] = await filesIn(server, ['indexing_completed', 'indexing_failed'], 1);
  const seconds = ((last ? Date.parse(last.updatedAt) : Date.now()) - start) / 1000;
  const cpuMsPerFile = cpu.msPer(files.length);
  const completed = await allIds(server, ['indexing_completed']);
  const failedFiles = await filesIn(server, ['indexing_failed'], 100);
  const failed = failedFiles.length;
  for (const f of failedFiles.slice(0, 3)) console.log(`  failed: ${f.key} ${f.failedStatusReason ?? ''}`);
  let passages = 0;
  await pool(completed, 16, async (id) => {
    const inFile = await passageCount(server, id); // awaited first: `x += await` loses concurrent updates
    passages += inFile;
  });
  return { files: completed.length, failed, passages, seconds, cpuMsPerFile };
}

/** The CPU time `pid` uses from now: {@link msPer} answers it per item, for every thread and the main one. */
function cpuClock(pid: number) {
  const all = cpuSeconds(pid);
  const main = mainThreadCpuSeconds(pid);
  return {
    msPer: (items: number) => ({
      all: ((cpuSeconds(pid) - all) * 1000) / items,
      main: ((mainThreadCpuSeconds(pid) - main) * 1000) / items,
    }),
  };
}

/** The same files uploaded without indexing, `concurrency` at a time: files/s and CPU ms per file. */
async function uploadsAlone(server: ParleyServer, files: Upload[], concurrency: number) {
  const cpu = cpuClock(server.pid);
  const start = performance.now();
  await pool(files, concurrency, async (file) => {
    await upload(server, { ...file, key: `plain/${file.key}` }, false);
  });
  return {
    perSecond: files.length / ((performance.now() - start) / 1000),
    cpuMsPerFile: cpu.msPer(files.length),
  };
}

/**
 * Files uploaded one at a time, each waited for until indexed: its latency from the upload's answer to its
 * `indexing_completed` (the file's updatedAt; looked for every 10 ms), in ms.
 */
async function trickle(server: ParleyServer, files: Upload[]): Promise<number[]> {
  const latencies: number[] = [];
  for (const file of files) {
    const id = await upload(server, { ...file, key: `trickle/${file.key}` });
    const uploaded = Date.now();
    for (;;) {
      const { file: row } = await callApi<{ file: FileRow & { status: string } }>(
        server,
        'GET',
        `/v1/files/${id}`,
      );
      if (row.status === 'indexing_completed' || row.status === 'indexing_failed') {
        latencies.push(Date.parse(row.updatedAt) - uploaded);
        break;
      }
      await sleep(10);
    }
  }
  return latencies;
}

/** Only what the standard PDF fonts can draw (WinAnsi). */
const drawable = (text: string): string => text.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, ' ');

/**
 * A `pages`-page PDF (Letter, 11-pt body, 14-pt bold headings) of abstracts from `docs`, starting at `from`:
 * each abstract's title as a heading, its text as the paragraph.
 */
function pdfOf(docs: Doc[], from: number, pages: number): Promise<Buffer> {
  let next = from;
  return letterPdf(pages, (page, { body, bold }) => {
    let y = 730;
    while (y > 140) {
      const doc = docs[next++ % docs.length] as Doc;
      for (const line of wrap(drawable(doc.title), bold, 14, 492)) {
        page.drawText(line, { x: 60, y, size: 14, font: bold });
        y -= 18;
      }
      y = drawParagraph(page, drawable(doc.text), body, y - 4) - 12;
    }
  });
}

/**
 * The embedder alone, in this process: `texts` embedded in calls of 32 (as indexing does) with `workers`
 * worker threads, 3 rounds, median passages/s; and one short query alone, median of 30.
 */
async function embedderAlone(
  runtime: Runtime,
  workers: number,
  texts: string[],
): Promise<{ perSecond: number; queryMs: number }> {
  const embedder = new UseLiteEmbedder({ ...embedderOf(runtime), workers });
  try {
    await embedder.ready();
    await embedder.embed(texts.slice(0, 64)); // every worker warm
    const rates: number[] = [];
    for (let round = 0; round < 3; round++) {
      const start = performance.now();
      const calls: Promise<Float32Array[]>[] = [];
      for (let i = 0; i < texts.length; i += 32) calls.push(embedder.embed(texts.slice(i, i + 32)));
      await Promise.all(calls);
      rates.push(texts.length / ((performance.now() - start) / 1000));
    }
    const queries: number[] = [];
    for (let i = 0; i < 30; i++) {
      const start = performance.now();
      await embedder.embed([`how does ${texts[i]?.split(' ')[3] ?? 'it'} work?`]);
      queries.push(performance.now() - start);
    }
    return { perSecond: median(rates), queryMs: median(queries) };
  } finally {
    await embedder.close();
  }
}

/** The medians' reader: passages per second. */
const rate = (o: Outcome): number => o.passages / o.seconds;

async function main(): Promise<void> {
  const set = option('set', 'BENCH_SET') ?? 'scifact';
  const dir = set.includes('/') ? set : join(repoRoot, '..', 'shared', 'eval', set);
  const corpus = readJsonl<{ _id: string; title?: string; text: string }>(join(dir, 'corpus.jsonl')).map(
    (d): Doc => ({ id: String(d._id), title: (d.title ?? '').trim(), text: d.text }),
  );
  const runtimes = (option('runtimes', 'BENCH_RUNTIMES') ?? RUNTIMES.join(',')).split(',') as Runtime[];
  for (const r of runtimes) if (!RUNTIMES.includes(r)) throw new Error(`--runtimes: unknown runtime ${r}`);
  const docs = intOption('docs', 'BENCH_DOCS', corpus.length, 1, corpus.length);
  const pdfs = intOption('pdfs', 'BENCH_PDFS', 8, 0, 1000);
  const pdfPages = intOption('pdf-pages', 'BENCH_PDF_PAGES', 20, 1, 2000);
  const concurrency = intOption('concurrency', 'BENCH_CONCURRENCY', 8, 1, 256);
  const trickles = intOption('trickle', 'BENCH_TRICKLE', 20, 0, 1000);
  const main = option('parley-main', 'BENCH_PARLEY_MAIN') ?? serverMain;

  const textFiles = (count: number): Upload[] =>
    corpus.slice(0, count).map((d) => ({
      key: `${d.id}.txt`,
      body: Buffer.from(d.title ? `${d.title}\n\n${d.text}` : d.text, 'utf8'),
      contentType: 'text/plain',
    }));
  const pdfFiles: Upload[] = [];
  for (let i = 0; i < pdfs; i++) {
    // About 5 abstracts a page; each PDF starts elsewhere in the corpus.
    pdfFiles.push({
      key: `paper-${i}.pdf`,
      body: await pdfOf(corpus, i * 997, pdfPages),
      contentType: 'application/pdf',
    });
  }
  const pdfBytes = pdfFiles.reduce((sum, f) => sum + f.body.length, 0);
  console.log(
    `indexing speed: ${set} (${corpus.length} abstracts), ${pdfs} PDFs of ${pdfPages} pages ` +
      `(${(pdfBytes / pdfs / 1024).toFixed(0)} KiB each); ${concurrency} uploads at a time; ` +
      `server: ${Object.entries(serverSettings('onnx'))
        .filter(([k]) => k !== 'PARLEY_EMBEDDER_RUNTIME' && k !== 'PARLEY_EMBEDDER_PRECISION')
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
  );
  console.log(`load average at start: ${loadAverage()}`);

  // The embedder alone: passages as indexing cuts them (~120 tokens: the abstracts' first 600 characters).
  const sample = corpus
    .slice(0, intOption('embed-texts', 'BENCH_EMBED_TEXTS', 256, 32, 5000))
    .map((d) => d.text.slice(0, 600));
  const alone: string[][] = [['runtime', 'passages/s, 1 worker', '2 workers', 'one query p50 (ms)', 'load']];
  const embedderRates = new Map<Runtime, number>();
  for (const runtime of runtimes) {
    const one = await embedderAlone(runtime, 1, sample);
    const two = await embedderAlone(runtime, 2, sample);
    embedderRates.set(
      runtime,
      serverSettings(runtime).PARLEY_EMBEDDER_WORKERS === '1' ? one.perSecond : two.perSecond,
    );
    alone.push([
      runtime,
      one.perSecond.toFixed(1),
      two.perSecond.toFixed(1),
      one.queryMs.toFixed(2),
      loadAverage(),
    ]);
    console.log(alone[alone.length - 1]?.join(' | '));
  }
  console.log(table(alone));

  const rows: string[][] = [
    [
      'runtime',
      'what',
      'files',
      'passages',
      'seconds',
      'passages/s',
      'files/s',
      'CPU ms/file (main)',
      'load',
    ],
  ];
  const cpuCell = (o: { cpuMsPerFile: Outcome['cpuMsPerFile'] }) =>
    `${o.cpuMsPerFile.all.toFixed(1)} (${o.cpuMsPerFile.main.toFixed(1)})`;
  const aside: string[] = [];
  const results = new Map<Runtime, { text: Outcome; pdf: Outcome | undefined }>();
  for (const runtime of runtimes) {
    const dataDir = await makeWorkFolder(`parley-indexing-${runtime}-`);
    const server = await startParleyWithBot(`parley (${runtime})`, dataDir, serverSettings(runtime), main);
    try {
      // The model loads on first use: one small file first, so the timing is of indexing alone.
      const warm = await indexAll(
        server,
        [{ key: 'warm-up.txt', body: Buffer.from('Warm up.'), contentType: 'text/plain' }],
        1,
      );
      const all = await indexAll(server, textFiles(docs), concurrency);
      // indexAll counts every file of the bot: the warm-up file is not one of the abstracts.
      const text = { ...all, files: all.files - warm.files, passages: all.passages - warm.passages };
      /** The table's row of `o` (files per second to `digits` decimals), printed as it comes. */
      const addRow = (what: string, o: Outcome, digits: number) => {
        rows.push([
          runtime,
          what,
          `${o.files}${o.failed ? ` (+${o.failed} failed)` : ''}`,
          String(o.passages),
          o.seconds.toFixed(1),
          rate(o).toFixed(1),
          (o.files / o.seconds).toFixed(digits),
          cpuCell(o),
          loadAverage(),
        ]);
        console.log(rows[rows.length - 1]?.join(' | '));
      };
      addRow(`${set} abstracts`, text, 1);
      let pdf: Outcome | undefined;
      if (pdfFiles.length > 0) {
        pdf = await indexAll(server, pdfFiles, Math.min(concurrency, pdfFiles.length));
        // indexAll counts every completed file: the PDFs' passages are the new ones.
        pdf = { ...pdf, files: pdf.files - all.files, passages: pdf.passages - all.passages };
        addRow(`PDFs of ${pdfPages} pages`, pdf, 2);
      }
      // Same run, same server, after the timed runs (their files would be counted in them): the uploads alone, and files one at a time.
      const plain = await uploadsAlone(server, textFiles(docs), concurrency);
      const lonely = trickles > 0 ? summarize(await trickle(server, textFiles(trickles))) : undefined;
      aside.push(
        `${runtime}: uploads alone (index: false, same files) ${plain.perSecond.toFixed(1)} files/s, ` +
          `CPU ${plain.cpuMsPerFile.all.toFixed(1)} (${plain.cpuMsPerFile.main.toFixed(1)}) ms/file; ` +
          `indexed ÷ uploads alone ${(text.files / text.seconds / plain.perSecond).toFixed(2)}; ` +
          `passages/s ÷ embedder alone (${serverSettings(runtime).PARLEY_EMBEDDER_WORKERS} workers) ` +
          `${(rate(text) / (embedderRates.get(runtime) ?? Number.NaN)).toFixed(2)}` +
          (lonely
            ? `; one at a time (${lonely.n}): upload → indexed p50 ${lonely.p50.toFixed(0)} ms, p95 ${lonely.p95.toFixed(0)} ms`
            : ''),
      );
      console.log(aside[aside.length - 1]);
      results.set(runtime, { text, pdf });
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  console.log('');
  console.log(table(alone));
  console.log(table(rows));
  for (const line of aside) console.log(line);
  const onnx = results.get('onnx');
  const int8 = results.get('onnx-int8');
  if (onnx && int8) {
    console.log(
      `onnxruntime int8 / fp32, same run: ${(rate(int8.text) / rate(onnx.text)).toFixed(2)}x passages/s on abstracts` +
        (onnx.pdf && int8.pdf ? `, ${(rate(int8.pdf) / rate(onnx.pdf)).toFixed(2)}x on PDFs` : ''),
    );
  }
  for (const [name, result] of [
    ['fp32', onnx],
    ['int8', int8],
  ] as const) {
    if (!result) continue;
    console.log(
      `target (onnxruntime ${name}): >= 20 files/s end to end on the abstracts: ${(result.text.files / result.text.seconds).toFixed(1)} ` +
        `(${result.text.files / result.text.seconds >= 20 ? 'met' : 'NOT met'}), >= 150 passages/s: ${rate(result.text).toFixed(1)} ` +
        `(${rate(result.text) >= 150 ? 'met' : 'NOT met'}); PDFs: ${result.pdf ? ((result.pdf.files / result.pdf.seconds) * 60).toFixed(1) : '-'} per minute`,
    );
  }
}

runMain(main);
