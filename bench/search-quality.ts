// Search quality benchmark: uploads every document of a BEIR-format set (SciFact by default) as a file with
// `index: true` to a real `parley serve` process, waits for indexing, sends every test query through
// searchFiles (GET /v1/files/search) in each mode and prints nDCG@10 beside the published figures of the
// same test set. On a set with a train split it also tunes the hybrid dense weight on train only (the
// server's own `fuse`, offline, over the lexical and semantic lists) and checks the chosen weight on test
// through a server restarted with PARLEY_SEARCH_DENSE_WEIGHT. See docs/benchmarks/search-quality.md.
//
//   npm run -w @parley/bench search-quality
//   npm run -w @parley/bench search-quality -- --set squad-v1.1-dev --queries 1000
//
// Options (flags win over environment): --set / BENCH_SET (a folder of ../shared/eval, or a path; default
// scifact), --queries / BENCH_QUERIES (at most this many queries per split, evenly spread; default all),
// --concurrency / BENCH_CONCURRENCY (uploads and queries at once; default 8), --data / BENCH_DATA (data dir
// kept after the run and reused by the next: a corpus already indexed there is not uploaded again),
// --runs-out / BENCH_RUNS_OUT (folder for TREC run files of every list), --no-tune / BENCH_NO_TUNE=1.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { DEFAULT_DENSE_WEIGHT, fuse, type ScoredHit } from '@parley/server/dist/search/rank.js';
import { flag, option, positiveInteger } from './lib/args.js';
import {
  duration,
  type FileRow,
  listAllFiles,
  passageCount,
  pool,
  progress,
  readJsonl,
  uploadForIndexing,
} from './lib/corpus.js';
import { table } from './lib/format.js';
import { onInterrupt, runMain, sleep } from './lib/run.js';
import { callApi, type ParleyServer, repoRoot, startParleyWithBot } from './lib/server.js';
import { msSince, now } from './lib/stats.js';

type Mode = 'lexical' | 'semantic' | 'hybrid';
const MODES: readonly Mode[] = ['lexical', 'semantic', 'hybrid'];
/** Passages asked per query: the API's maximum. */
const SEARCH_LIMIT = 50;
/** nDCG cut-off. */
const CUTOFF = 10;
/** Dense weights tried on train: 0, 0.05, …, 0.5. */
const SWEEP = Array.from({ length: 11 }, (_, i) => Math.round(i * 5) / 100);

/** Published nDCG@10 on the same test sets (../shared/eval/<set>/SOURCE.md). */
const PUBLISHED: Record<string, { system: string; ndcg: number; source: string }[]> = {
  scifact: [
    { system: 'BM25 multifield (Elasticsearch)', ndcg: 0.665, source: 'BEIR paper' },
    { system: 'BM25 flat, title+text (Lucene)', ndcg: 0.679, source: 'Anserini' },
    { system: 'all-MiniLM-L6-v2 (dense)', ndcg: 0.645, source: 'MTEB' },
    { system: 'BGE-base-en-v1.5 (dense)', ndcg: 0.741, source: 'Anserini' },
  ],
  'squad-v1.1-dev': [{ system: 'plain BM25', ndcg: 0.869, source: 'eval/README.md' }],
};

// ---------------------------------------------------------------------------------------------------------
// The data set (BEIR format: corpus.jsonl, queries.jsonl, qrels.tsv, optionally queries_train.jsonl and
// qrels_train.tsv)

interface Doc {
  id: string;
  title: string;
  text: string;
}
interface Query {
  id: string;
  text: string;
}
/** query id → (doc id → graded relevance). */
type Qrels = Map<string, Map<string, number>>;
interface Split {
  name: 'test' | 'train';
  queries: Query[];
  qrels: Qrels;
}

function readQrels(path: string): Qrels {
  const qrels: Qrels = new Map();
  const lines = readFileSync(path, 'utf8').split('\n');
  for (const [i, line] of lines.entries()) {
    const [q, d, s] = line.trim().split('\t');
    if (q === undefined || d === undefined || s === undefined) continue;
    if (i === 0 && !/^-?\d+(\.\d+)?$/.test(s)) continue; // header
    let rels = qrels.get(q);
    if (!rels) {
      rels = new Map();
      qrels.set(q, rels);
    }
    rels.set(d, Number(s));
  }
  return qrels;
}

/** At most `max` of the queries that have qrels, evenly spread over the file (all when max is undefined). */
function evaluated(queries: Query[], qrels: Qrels, max: number | undefined): Query[] {
  const judged = queries.filter((q) => qrels.has(q.id));
  if (max === undefined || max >= judged.length) return judged;
  return Array.from({ length: max }, (_, i) => judged[Math.floor((i * judged.length) / max)] as Query);
}

function loadSet(dir: string, maxQueries: number | undefined) {
  const corpus = readJsonl<{ _id: string; title?: string; text: string }>(join(dir, 'corpus.jsonl')).map(
    (d): Doc => ({ id: String(d._id), title: (d.title ?? '').trim(), text: d.text }),
  );
  const split = (name: Split['name'], queriesFile: string, qrelsFile: string): Split | undefined => {
    if (!existsSync(join(dir, queriesFile)) || !existsSync(join(dir, qrelsFile))) return undefined;
    const qrels = readQrels(join(dir, qrelsFile));
    const queries = readJsonl<{ _id: string; text: string }>(join(dir, queriesFile)).map((q) => ({
      id: String(q._id),
      text: q.text,
    }));
    return { name, queries: evaluated(queries, qrels, maxQueries), qrels };
  };
  const test = split('test', 'queries.jsonl', 'qrels.tsv');
  if (!test) throw new Error(`${dir} has no queries.jsonl + qrels.tsv`);
  return { corpus, test, train: split('train', 'queries_train.jsonl', 'qrels_train.tsv') };
}

/** What is uploaded for a document: its title, a blank line, its text (plain text, keyed by its id). */
function documentFile(doc: Doc): { key: string; body: Buffer } {
  const content = doc.title === '' ? doc.text : `${doc.title}\n\n${doc.text}`;
  return { key: `${doc.id}.txt`, body: Buffer.from(content, 'utf8') };
}

const docIdOfKey = (key: string) => key.replace(/\.txt$/, '');

// ---------------------------------------------------------------------------------------------------------
// Scoring

/**
 * nDCG@k as BEIR computes it (pytrec_eval `ndcg_cut`): gain = the qrels grade of the document at rank i
 * (0 when unjudged), discount log2(i + 1) for ranks 1…k; the ideal ranking is the qrels' grades sorted
 * from the highest, cut at k.
 */
export function ndcgAt(ranking: readonly string[], rels: ReadonlyMap<string, number>, k = CUTOFF): number {
  let dcg = 0;
  for (const [i, doc] of ranking.slice(0, k).entries()) dcg += (rels.get(doc) ?? 0) / Math.log2(i + 2);
  const ideal = [...rels.values()].filter((g) => g > 0).sort((a, b) => b - a);
  let idcg = 0;
  for (const [i, g] of ideal.slice(0, k).entries()) idcg += g / Math.log2(i + 2);
  return idcg > 0 ? dcg / idcg : 0;
}

/** Documents in order of their best passage: passages come best first, so the first occurrence wins. */
function documentRanking(passages: readonly { docId: string }[]): string[] {
  const seen = new Set<string>();
  for (const p of passages) seen.add(p.docId);
  return [...seen];
}

/** Mean nDCG@10 over the split's queries (a query with no answer counts 0). */
function meanNdcg(split: Split, rankings: ReadonlyMap<string, readonly string[]>): number {
  let sum = 0;
  for (const q of split.queries) sum += ndcgAt(rankings.get(q.id) ?? [], split.qrels.get(q.id) ?? new Map());
  return split.queries.length === 0 ? 0 : sum / split.queries.length;
}

// ---------------------------------------------------------------------------------------------------------
// The server's settings

/** Settings this benchmark decides; any other PARLEY_* variable of the environment reaches the server. */
const OWN_VARIABLES = /^(PARLEY_DATA_DIR|PARLEY_LOG_LEVEL|PARLEY_RATE_LIMIT_MAX|PORT|HOST|LOG_LEVEL)$/;

/** Server settings: the environment's PARLEY_* variables, with the benchmark's defaults for indexing speed. */
function serverSettings(extra: Record<string, string> = {}): Record<string, string> {
  const settings: Record<string, string> = {
    PARLEY_EMBEDDER_WORKERS: '2',
    PARLEY_INDEXING_CONCURRENCY: '2',
  };
  for (const [k, v] of Object.entries(process.env))
    if (k.startsWith('PARLEY_') && !OWN_VARIABLES.test(k) && v !== undefined) settings[k] = v;
  return { ...settings, ...extra };
}

// ---------------------------------------------------------------------------------------------------------
// Indexing through the API

async function upload(server: ParleyServer, doc: Doc): Promise<string> {
  const { key, body } = documentFile(doc);
  return uploadForIndexing(server, key, body, 'text/plain');
}

const TERMINAL = new Set(['indexing_completed', 'indexing_failed', 'upload_failed']);

interface IndexingReport {
  /** doc id → file id, for every document indexed. */
  fileOfDoc: Map<string, string>;
  /** file id → doc id. */
  docOfFile: Map<string, string>;
  failures: { key: string; status: string; reason: string }[];
  uploaded: number;
  uploadSeconds: number;
  indexSeconds: number;
  passages: number;
  reused: boolean;
}

/**
 * Uploads the documents the data dir does not hold yet (all on a fresh one), then polls listFiles until
 * every file has ended indexing, and counts the passages.
 */
async function indexCorpus(
  server: ParleyServer,
  corpus: Doc[],
  concurrency: number,
): Promise<IndexingReport> {
  const wanted = new Map(corpus.map((d) => [documentFile(d).key, d]));
  const existing = new Map((await listAllFiles(server)).map((f) => [f.key, f]));
  const missing = corpus.filter((d) => {
    const f = existing.get(documentFile(d).key);
    return !f || f.status === 'upload_pending' || f.status === 'upload_failed';
  });
  const reused = missing.length === 0;
  const start = Date.now();
  let uploaded = 0;
  let uploadSeconds = 0;
  if (missing.length > 0) {
    console.log(
      `uploading ${missing.length} documents (${corpus.length - missing.length} already there), ${concurrency} at a time…`,
    );
    const bar = progress('upload', missing.length);
    await pool(missing, concurrency, async (doc) => {
      await upload(server, doc);
      uploaded++;
      if (uploaded % 25 === 0 || uploaded === missing.length) bar.update(uploaded);
    });
    bar.end();
    uploadSeconds = (Date.now() - start) / 1000;
    console.log(
      `uploaded ${uploaded} files in ${uploadSeconds.toFixed(1)} s (${(uploaded / uploadSeconds).toFixed(0)} files/s); indexing continues…`,
    );
  } else {
    console.log(`the data dir already holds all ${corpus.length} documents: not uploading again`);
  }

  // Poll until every file of the corpus has ended.
  const bar = progress('index ', corpus.length, start);
  let rows: FileRow[] = [];
  for (;;) {
    rows = (await listAllFiles(server)).filter((f) => wanted.has(f.key));
    const ended = rows.filter((f) => TERMINAL.has(f.status)).length;
    const failed = rows.filter((f) => f.status !== 'indexing_completed' && TERMINAL.has(f.status)).length;
    const running = rows.filter((f) => f.indexingProgress);
    const inFlight = running.map((f) => `${f.indexingProgress?.done}/${f.indexingProgress?.total}`).join(' ');
    bar.update(ended, `${failed} failed${inFlight ? ` · passages of files in flight ${inFlight}` : ''}`);
    if (ended >= corpus.length) break;
    await sleep(reused ? 200 : 5000);
  }
  bar.end();
  const indexSeconds = (Date.now() - start) / 1000;

  const fileOfDoc = new Map<string, string>();
  const docOfFile = new Map<string, string>();
  const failures: IndexingReport['failures'] = [];
  for (const f of rows) {
    if (f.status === 'indexing_completed') {
      fileOfDoc.set(docIdOfKey(f.key), f.id);
      docOfFile.set(f.id, docIdOfKey(f.key));
    } else failures.push({ key: f.key, status: f.status, reason: f.failedStatusReason ?? '' });
  }

  // Passages per file, through listFilePassages.
  let passages = 0;
  const counted = progress('count ', fileOfDoc.size);
  let n = 0;
  await pool([...fileOfDoc.values()], concurrency, async (id) => {
    const inFile = await passageCount(server, id); // awaited first: `x += await` loses concurrent updates
    passages += inFile;
    n++;
    if (n % 250 === 0 || n === fileOfDoc.size) counted.update(n);
  });
  counted.end();
  return { fileOfDoc, docOfFile, failures, uploaded, uploadSeconds, indexSeconds, passages, reused };
}

// ---------------------------------------------------------------------------------------------------------
// Searching through the API

/** A passage of an answer, as much as ranking needs. */
interface Hit {
  /** `<file id>:<position>`, unique per passage. */
  passageId: string;
  fileId: string;
  docId: string;
  score: number;
}

interface SearchAnswer {
  passages: { score: number; meta: { position?: number }; file: { id: string; key: string } }[];
}

/** Every query of `split` through searchFiles in `mode`: query id → passages, best first. */
async function runQueries(
  server: ParleyServer,
  split: Split,
  mode: Mode,
  concurrency: number,
  label: string,
): Promise<{ lists: Map<string, Hit[]>; seconds: number; latencies: number[] }> {
  const lists = new Map<string, Hit[]>();
  const latencies: number[] = [];
  const bar = progress(label, split.queries.length);
  const start = Date.now();
  let done = 0;
  await pool(split.queries, concurrency, async (q) => {
    const params = new URLSearchParams({ query: q.text, limit: String(SEARCH_LIMIT), mode });
    const t0 = now();
    const answer = await callApi<SearchAnswer>(server, 'GET', `/v1/files/search?${params}`);
    latencies.push(msSince(t0));
    lists.set(
      q.id,
      answer.passages.map((p) => ({
        passageId: `${p.file.id}:${p.meta.position ?? 0}`,
        fileId: p.file.id,
        docId: docIdOfKey(p.file.key),
        score: p.score,
      })),
    );
    done++;
    if (done % 20 === 0 || done === split.queries.length) bar.update(done);
  });
  bar.end();
  return { lists, seconds: (Date.now() - start) / 1000, latencies };
}

function rankingsOf(lists: ReadonlyMap<string, readonly Hit[]>): Map<string, string[]> {
  return new Map([...lists].map(([q, hits]) => [q, documentRanking(hits)]));
}

/** The server's hybrid ranking recomputed offline from a query's lexical and semantic lists. */
function fusedRankings(
  lexical: ReadonlyMap<string, readonly Hit[]>,
  semantic: ReadonlyMap<string, readonly Hit[]>,
  denseWeight: number,
  docOfFile: ReadonlyMap<string, string>,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const strip = (hits: readonly Hit[]): ScoredHit[] =>
    hits.map((h) => ({ passageId: h.passageId, fileId: h.fileId, score: h.score }));
  for (const [q, lex] of lexical) {
    const fused = fuse(strip(lex), strip(semantic.get(q) ?? []), {
      mode: 'hybrid',
      denseWeight,
      limit: SEARCH_LIMIT,
    });
    out.set(q, documentRanking(fused.map((h) => ({ docId: docOfFile.get(h.fileId) ?? h.fileId }))));
  }
  return out;
}

/** A TREC run file (`qid Q0 doc rank score tag`) of document rankings, for trec_eval / pytrec_eval. */
async function writeRun(
  dir: string,
  name: string,
  lists: ReadonlyMap<string, readonly Hit[]>,
): Promise<void> {
  const lines: string[] = [];
  for (const [q, hits] of lists) {
    const seen = new Set<string>();
    for (const h of hits) {
      if (seen.has(h.docId)) continue;
      seen.add(h.docId);
      lines.push(`${q} Q0 ${h.docId} ${seen.size} ${h.score} parley-${name}`);
    }
  }
  await writeFile(join(dir, `${name}.run`), `${lines.join('\n')}\n`);
}

// ---------------------------------------------------------------------------------------------------------
// Report

/**
 * This benchmark's percentile of latencies: the value at index ⌊p % × n⌋ of the sorted values (0 for none).
 * Not lib/stats' nearest rank (one rank lower where p % × n is whole), so that its p50 / p95 stay comparable
 * with the figures in docs/benchmarks/search-quality.md.
 */
function percentile(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

const f3 = (x: number) => x.toFixed(3);
const w2 = (w: number) => w.toFixed(2);

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const setOption = option('set', 'BENCH_SET') ?? 'scifact';
  const setDir = isAbsolute(setOption)
    ? setOption
    : existsSync(resolve(setOption, 'corpus.jsonl'))
      ? resolve(setOption)
      : join(repoRoot, '..', 'shared', 'eval', setOption);
  const setName = setDir.replace(/\/+$/, '').split('/').pop() ?? setOption;
  const maxQueries = positiveInteger(option('queries', 'BENCH_QUERIES'), 'queries');
  const concurrency = positiveInteger(option('concurrency', 'BENCH_CONCURRENCY'), 'concurrency') ?? 8;
  const queryConcurrency = Math.min(concurrency, 4);
  const dataOption = option('data', 'BENCH_DATA');
  const runsOut = option('runs-out', 'BENCH_RUNS_OUT');
  const tune = !flag('no-tune', 'BENCH_NO_TUNE');

  const { corpus, test, train } = loadSet(setDir, maxQueries);
  const work = dataOption ? resolve(dataOption) : await mkdtemp(join(tmpdir(), 'parley-quality-'));
  await mkdir(work, { recursive: true });
  if (runsOut) await mkdir(runsOut, { recursive: true });
  const settings = serverSettings();
  const configuredWeight = Number(settings.PARLEY_SEARCH_DENSE_WEIGHT ?? DEFAULT_DENSE_WEIGHT);

  let server: ParleyServer | undefined;
  const cleanup = async () => {
    await server?.stop();
    if (!dataOption) await rm(work, { recursive: true, force: true });
  };
  onInterrupt(cleanup);

  try {
    console.log(
      `Search quality benchmark: ${setName}, ${corpus.length} documents, ${test.queries.length} test queries` +
        (train ? `, ${train.queries.length} train queries` : ''),
    );
    console.log(
      `documents uploaded as <_id>.txt = title + blank line + text (index: true); queries through GET /v1/files/search, limit ${SEARCH_LIMIT}; ` +
        'documents ranked by their best passage',
    );
    console.log(
      `server: ${Object.entries(settings)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')} (embedder default use-lite; dense weight ${configuredWeight})`,
    );
    console.log(`data dir ${work}${dataOption ? ' (kept)' : ' (removed at the end)'}`);

    server = await startParleyWithBot('Parley', work, settings);
    const indexing = await indexCorpus(server, corpus, concurrency);
    const { docOfFile } = indexing;
    console.log(
      `indexed: ${indexing.fileOfDoc.size} files completed, ${indexing.failures.length} failed, ${indexing.passages} passages`,
    );
    for (const f of indexing.failures.slice(0, 20)) console.log(`  failed: ${f.key} ${f.status} ${f.reason}`);
    if (indexing.failures.length > 20) console.log(`  … and ${indexing.failures.length - 20} more`);
    if (!indexing.reused) {
      console.log(
        `indexing throughput (first upload to last file completed, ${duration(indexing.indexSeconds)}): ` +
          `${(indexing.passages / indexing.indexSeconds).toFixed(1)} passages/s, ` +
          `${(indexing.fileOfDoc.size / indexing.indexSeconds).toFixed(2)} files/s`,
      );
    }

    // Test queries, each mode (without an embedder the server answers every mode lexically: one is enough).
    const lexicalOnly = (settings.PARLEY_EMBEDDER ?? '').toLowerCase() === 'none';
    const modes = lexicalOnly ? MODES.filter((m) => m === 'lexical') : MODES;
    const testLists = new Map<Mode, Map<string, Hit[]>>();
    const testScores = new Map<Mode, number>();
    const latency = new Map<Mode, number[]>();
    for (const mode of modes) {
      const run = await runQueries(server, test, mode, queryConcurrency, `test ${mode.padEnd(8)}`);
      testLists.set(mode, run.lists);
      latency.set(mode, run.latencies);
      testScores.set(mode, meanNdcg(test, rankingsOf(run.lists)));
      if (runsOut) await writeRun(runsOut, `test-${mode}`, run.lists);
      console.log(
        `test ${mode}: nDCG@10 ${f3(testScores.get(mode) ?? 0)} (${run.seconds.toFixed(1)} s, p50 ${percentile(run.latencies, 50).toFixed(0)} ms, p95 ${percentile(run.latencies, 95).toFixed(0)} ms, ${queryConcurrency} at a time)`,
      );
    }

    // Tuning on train only.
    let tuned: { weight: number; trainNdcg: number; sweep: { weight: number; ndcg: number }[] } | undefined;
    if (train && lexicalOnly) {
      const lex = await runQueries(server, train, 'lexical', queryConcurrency, 'train lexical ');
      if (runsOut) await writeRun(runsOut, 'train-lexical', lex.lists);
      console.log(`train lexical: nDCG@10 ${f3(meanNdcg(train, rankingsOf(lex.lists)))}`);
    } else if (train && tune) {
      const lex = await runQueries(server, train, 'lexical', queryConcurrency, 'train lexical ');
      const sem = await runQueries(server, train, 'semantic', queryConcurrency, 'train semantic');
      if (runsOut) {
        await writeRun(runsOut, 'train-lexical', lex.lists);
        await writeRun(runsOut, 'train-semantic', sem.lists);
      }
      const sweep = SWEEP.map((weight) => ({
        weight,
        ndcg: meanNdcg(train, fusedRankings(lex.lists, sem.lists, weight, docOfFile)),
      }));
      // The best train figure; a tie keeps the smaller weight (closer to lexical alone).
      const best = sweep.reduce((a, b) => (b.ndcg > a.ndcg + 1e-12 ? b : a));
      tuned = { weight: best.weight, trainNdcg: best.ndcg, sweep };
      console.log('');
      console.log(
        `Train sweep (${train.queries.length} queries): z-score fusion of the top-${SEARCH_LIMIT} lexical and semantic passages, fuse() of packages/server/src/search/rank.ts`,
      );
      console.log(
        table([
          ['dense weight', 'train nDCG@10', 'Δ vs lexical (w = 0)'],
          ...sweep.map((s) => [
            `${w2(s.weight)}${s.weight === best.weight ? ' (best)' : ''}${Math.abs(s.weight - configuredWeight) < 1e-9 ? ' (default)' : ''}`,
            f3(s.ndcg),
            `${s.ndcg - (sweep[0]?.ndcg ?? 0) >= 0 ? '+' : ''}${f3(s.ndcg - (sweep[0]?.ndcg ?? 0))}`,
          ]),
        ]),
      );
      const trainLexical = meanNdcg(train, rankingsOf(lex.lists));
      const trainSemantic = meanNdcg(train, rankingsOf(sem.lists));
      console.log(`train through the server: lexical ${f3(trainLexical)}, semantic ${f3(trainSemantic)}`);
    }

    // The test figure at the default weight and at the tuned one: offline fusion of the test lists, and the
    // server's own hybrid ranking (restarted with PARLEY_SEARCH_DENSE_WEIGHT when the weight differs).
    const offlineTest = (w: number) =>
      meanNdcg(
        test,
        fusedRankings(
          testLists.get('lexical') ?? new Map(),
          testLists.get('semantic') ?? new Map(),
          w,
          docOfFile,
        ),
      );
    let tunedServer: number | undefined;
    if (tuned && Math.abs(tuned.weight - configuredWeight) > 1e-9) {
      await server.stop();
      server = await startParleyWithBot(
        'Parley',
        work,
        serverSettings({ PARLEY_SEARCH_DENSE_WEIGHT: String(tuned.weight) }),
      );
      const run = await runQueries(
        server,
        test,
        'hybrid',
        queryConcurrency,
        `test hybrid w=${w2(tuned.weight)}`,
      );
      if (runsOut) await writeRun(runsOut, `test-hybrid-w${w2(tuned.weight)}`, run.lists);
      tunedServer = meanNdcg(test, rankingsOf(run.lists));
    }

    console.log('');
    console.log(
      `${setName} test, nDCG@10 over ${test.queries.length} queries (${corpus.length} documents; title + text indexed):`,
    );
    const lexical = testScores.get('lexical') ?? 0;
    const hybrid = testScores.get('hybrid') ?? 0;
    const rows: string[][] = [
      ['system', 'nDCG@10', 'source'],
      ['Parley lexical (SQLite FTS5 bm25 over passages)', f3(lexical), 'this run'],
    ];
    if (!lexicalOnly) {
      rows.push([
        'Parley semantic (USE-lite over passages)',
        f3(testScores.get('semantic') ?? 0),
        'this run',
      ]);
      rows.push([`Parley hybrid, default (dense weight ${w2(configuredWeight)})`, f3(hybrid), 'this run']);
    }
    if (tuned) {
      rows.push([
        `  same, fused offline from the top-${SEARCH_LIMIT} lists`,
        f3(offlineTest(configuredWeight)),
        'this run',
      ]);
      if (Math.abs(tuned.weight - configuredWeight) > 1e-9) {
        rows.push([
          `Parley hybrid, train-tuned (dense weight ${w2(tuned.weight)})`,
          tunedServer === undefined ? '–' : f3(tunedServer),
          'this run',
        ]);
        rows.push([
          `  same, fused offline from the top-${SEARCH_LIMIT} lists`,
          f3(offlineTest(tuned.weight)),
          'this run',
        ]);
      }
    }
    for (const p of PUBLISHED[setName] ?? []) rows.push([p.system, f3(p.ndcg), `published (${p.source})`]);
    console.log(table(rows));

    console.log('');
    const verdicts: string[] = [];
    if (lexicalOnly) verdicts.push('PARLEY_EMBEDDER=none: lexical search only');
    else
      verdicts.push(
        `default hybrid ${f3(hybrid)} ${hybrid >= lexical ? '≥' : '<'} lexical ${f3(lexical)}` +
          (setName === 'scifact' ? `; ${hybrid >= 0.68 ? 'meets' : 'misses'} the 0.68 bar` : ''),
      );
    if (tuned) {
      const atDefault = tuned.sweep.find((s) => Math.abs(s.weight - configuredWeight) < 1e-9);
      verdicts.push(
        `train-tuned dense weight ${w2(tuned.weight)} (train ${f3(tuned.trainNdcg)}` +
          (atDefault ? `, default ${w2(configuredWeight)}: ${f3(atDefault.ndcg)}` : '') +
          ')' +
          (Math.abs(tuned.weight - configuredWeight) > 1e-9
            ? ` differs from the configured ${w2(configuredWeight)}`
            : ' is the configured weight'),
      );
    }
    for (const v of verdicts) console.log(v);
    const lat = (mode: Mode) => latency.get(mode) ?? [];
    console.log(
      `search latency through HTTP (${queryConcurrency} at a time): ` +
        modes
          .map(
            (m) =>
              `${m} p50 ${percentile(lat(m), 50).toFixed(0)} ms / p95 ${percentile(lat(m), 95).toFixed(0)} ms`,
          )
          .join(', '),
    );
    if (indexing.failures.length > 0) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

runMain(main);
