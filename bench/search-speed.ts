// Search speed benchmark: indexing throughput (passages/s, pages/s) of extract → chunk → embed → store, and
// search latency (p50/p95/mean) at 10k and 100k passages, each printed beside the raw FTS5 / sqlite-vec / model
// work on the same data in the same run. See docs/benchmarks/search-speed.md.
//
//   npm run -w @parley/bench search-speed
//   npm run -w @parley/bench search-speed -- --sizes 10000 --queries 100
//
// Options (flags win over environment): --sizes / BENCH_SIZES (passage counts, default 10000,100000),
// --queries / BENCH_QUERIES (default 200), --files / BENCH_FILES (files the passages spread over, default 100),
// --docs / BENCH_DOCS (Markdown and text documents embedded, default 12), --pdf-pages / BENCH_PDF_PAGES
// (default 12), --workers / BENCH_WORKERS (USE-lite worker threads, default 1), --batch / BENCH_BATCH (texts per
// model call, default 32), --seed / BENCH_SEED (default 42), --dir / BENCH_DIR (work folder; default OS temp),
// --rebuild-max / BENCH_REBUILD_MAX (largest size whose HNSW rebuild is timed, default 300000), --keep /
// BENCH_KEEP=1 (leave the work folder, its databases and each size's queries.json, for a closer look).

import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { localDiskBlobStore } from '@parley/server/dist/blob/local-disk.js';
import { loadConfig } from '@parley/server/dist/config/config.js';
import { type Db, openDatabase } from '@parley/server/dist/db/database.js';
import { embeddingText } from '@parley/server/dist/modules/knowledge/indexer.js';
import { embedderFromConfig } from '@parley/server/dist/search/embed/index.js';
import { resolveUseLiteFiles } from '@parley/server/dist/search/embed/use-lite-model.js';
import { loadUseLiteOnnxModel } from '@parley/server/dist/search/embed/use-lite-onnx-model.js';
import {
  DEFAULT_BREADCRUMB_WEIGHT,
  DEFAULT_TILE_WEIGHT,
  unitVector,
} from '@parley/server/dist/search/index/common.js';
import { DEFAULT_HNSW_PARAMETERS as hnsw } from '@parley/server/dist/search/index/hnsw-usearch.js';
import type { HnswEvent } from '@parley/server/dist/search/index/hnsw-vector-index.js';
import {
  createPassageIndex,
  ftsMatchExpression,
  type IndexedPassage,
  isStopword,
  type PassageHit,
  type PassageIndex,
  type PassageScope,
  queryTerms,
} from '@parley/server/dist/search/index/index.js';
import {
  closeLexicalMemory,
  lexicalMemoryOf,
} from '@parley/server/dist/search/index/lexical-memory-client.js';
import {
  botMatchExpression,
  sqliteScopedLexicalSearch,
} from '@parley/server/dist/search/index/sqlite-lexical.js';
import { sqlitePassageIndex } from '@parley/server/dist/search/index/sqlite-passage-index.js';
import { closeSqliteReaders } from '@parley/server/dist/search/index/sqlite-readers.js';
import { sqliteHnswIndexOf } from '@parley/server/dist/search/index/sqlite-vector.js';
import { candidateCount } from '@parley/server/dist/search/index/vector-scope.js';
import { chunkDocument } from '@parley/server/dist/search/ingest/chunk.js';
import { extractDocument } from '@parley/server/dist/search/ingest/extract/index.js';
import { DEFAULT_DENSE_WEIGHT, fuse } from '@parley/server/dist/search/rank.js';
import type { Embedder, Passage } from '@parley/server/dist/search/types.js';
import { buildServices } from '@parley/server/dist/services.js';
import SQLite from 'better-sqlite3';
import type { CompiledQuery, KyselyPlugin, QueryId, RootOperationNode } from 'kysely';
import * as sqliteVec from 'sqlite-vec';
import { extractText, getDocumentProxy } from 'unpdf';
import { seedBot } from '../packages/testkit/src/server/seed-bot.js';
import { seedFile } from '../packages/testkit/src/server/seed-file.js';
import { seededRandom } from '../packages/testkit/src/shared/random.js';
import { drawParagraph, letterPdf } from '../packages/testkit/src/shared/sectioned.js';
import { flag, intOption, makeWorkFolder, option } from './lib/args.js';
import { ratio, table } from './lib/format.js';
import { loadAverage, procMemory } from './lib/machine.js';
import { onInterrupt, runMain } from './lib/run.js';
import { msSince, now, percentile, type Summary, summarize } from './lib/stats.js';

const DIMENSIONS = 512;
/** What searchFiles asks each list for at its default limit of 20 (modules/knowledge/search.ts: max(50, 4 × limit)). */
const SEARCH_LIMIT = 20;
const CANDIDATES = Math.max(50, 4 * SEARCH_LIMIT);
/** vectorSearch's first KNN pass (sqlite-passage-index.ts: min(4096, max(4n, 64))). */
const VECTOR_OVERFETCH = Math.min(4096, Math.max(4 * CANDIDATES, 64));

// ---------------------------------------------------------------------------------------------------------
// Deterministic text and vectors

/** A copy of `items` in random order (Fisher–Yates). */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** A seed from several integers (so a passage's vector can be made again from its file and position). */
function mix(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x01000193);
    h ^= h >>> 13;
    h = Math.imul(h, 0x5bd1e995);
  }
  return h >>> 0;
}

/** A random unit vector (normal components, normalised). */
function randomUnitVector(random: () => number, dimensions = DIMENSIONS): Float32Array {
  const v = new Float32Array(dimensions);
  let norm = 0;
  for (let i = 0; i < dimensions; i += 2) {
    const u = 1 - random();
    const r = Math.sqrt(-2 * Math.log(u));
    const theta = 2 * Math.PI * random();
    const a = r * Math.cos(theta);
    const b = r * Math.sin(theta);
    v[i] = a;
    norm += a * a;
    if (i + 1 < dimensions) {
      v[i + 1] = b;
      norm += b * b;
    }
  }
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < dimensions; i++) v[i] = (v[i] as number) * inv;
  return v;
}

/**
 * The word list: the whole English words of the USE-lite vocabulary (the model ships it), each with its
 * unigram probability, so text drawn from it has a natural (Zipf-like) frequency curve, stopwords included.
 */
class Words {
  private readonly words: string[];
  private readonly cumulative: Float64Array;
  private readonly content: string[];
  private readonly contentCumulative: Float64Array;

  constructor(vocabFile: string) {
    const vocab = JSON.parse(readFileSync(vocabFile, 'utf8')) as [string, number][];
    const entries = vocab
      .filter(([piece]) => /^▁[a-z]+$/.test(piece))
      .map(([p, s]) => [p.slice(1), s] as const);
    this.words = entries.map(([w]) => w);
    this.cumulative = Words.cdf(entries.map(([, s]) => Math.exp(s)));
    const content = entries.filter(([w]) => w.length >= 3 && !isStopword(w));
    this.content = content.map(([w]) => w);
    this.contentCumulative = Words.cdf(content.map(([, s]) => Math.exp(s)));
  }

  get size(): number {
    return this.words.length;
  }

  private static cdf(weights: number[]): Float64Array {
    const out = new Float64Array(weights.length);
    let sum = 0;
    weights.forEach((w, i) => {
      sum += w;
      out[i] = sum;
    });
    for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / sum;
    return out;
  }

  private static pick(list: string[], cdf: Float64Array, random: () => number): string {
    const x = random();
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cdf[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return list[lo] as string;
  }

  /** Any word, by frequency. */
  word(random: () => number): string {
    return Words.pick(this.words, this.cumulative, random);
  }

  /** A word that is no stopword (3 letters or more), by frequency. */
  contentWord(random: () => number): string {
    return Words.pick(this.content, this.contentCumulative, random);
  }

  sentence(random: () => number): string {
    const n = 6 + Math.floor(random() * 13);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) {
      // Every third word or so is a content word, as in ordinary prose.
      let w = random() < 0.35 ? this.contentWord(random) : this.word(random);
      if (i > 2 && i < n - 2 && random() < 0.08) w += ',';
      parts.push(w);
    }
    const s = parts.join(' ');
    return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
  }

  /** About `words` words of sentences. */
  paragraph(random: () => number, words: number): string {
    const out: string[] = [];
    let n = 0;
    while (n < words) {
      const s = this.sentence(random);
      out.push(s);
      n += s.split(' ').length;
    }
    return out.join(' ');
  }

  title(random: () => number, words = 2 + Math.floor(random() * 3)): string {
    return Array.from({ length: words }, () => {
      const w = this.contentWord(random);
      return `${w.charAt(0).toUpperCase()}${w.slice(1)}`;
    }).join(' ');
  }

  /** A question as people type them: a frame of stopwords around 2–4 content words. */
  question(random: () => number): string {
    const c = () => this.contentWord(random);
    const frames = [
      () => `How do I ${c()} the ${c()} ${c()}?`,
      () => `What is the ${c()} of ${c()} ${c()}?`,
      () => `Why does the ${c()} ${c()} when ${c()} ${c()}?`,
      () => `Where can I find ${c()} ${c()} for ${c()}?`,
      () => `${c()} ${c()} ${c()}`,
      () => `Is there a ${c()} to ${c()} my ${c()} after ${c()}?`,
      () => `Which ${c()} should we ${c()} for the ${c()}?`,
      () => `can you explain ${c()} and ${c()}`,
    ];
    return (frames[Math.floor(random() * frames.length)] as () => string)();
  }
}

interface SourceDocument {
  key: string;
  contentType: string;
  bytes: Buffer;
  pages?: number;
}

/** A Markdown document: a title, sections and subsections, paragraphs, now and then a list. */
function markdownDocument(words: Words, random: () => number): string {
  const out = [`# ${words.title(random)}`, '', words.paragraph(random, 40 + Math.floor(random() * 40)), ''];
  const sections = 3 + Math.floor(random() * 3);
  for (let s = 0; s < sections; s++) {
    out.push(`## ${words.title(random)}`, '');
    const subsections = 1 + Math.floor(random() * 3);
    for (let t = 0; t < subsections; t++) {
      if (random() < 0.6) out.push(`### ${words.title(random)}`, '');
      const paragraphs = 1 + Math.floor(random() * 3);
      for (let p = 0; p < paragraphs; p++)
        out.push(words.paragraph(random, 40 + Math.floor(random() * 90)), '');
      if (random() < 0.25) {
        const items = 3 + Math.floor(random() * 4);
        for (let i = 0; i < items; i++) out.push(`- ${words.sentence(random)}`);
        out.push('');
      }
    }
  }
  return out.join('\n');
}

/** A plain-text document: a title line and paragraphs separated by blank lines. */
function textDocument(words: Words, random: () => number): string {
  const out = [words.title(random), ''];
  const paragraphs = 12 + Math.floor(random() * 10);
  for (let p = 0; p < paragraphs; p++) out.push(words.paragraph(random, 50 + Math.floor(random() * 80)), '');
  return out.join('\n');
}

/** A multi-page PDF (Letter, 11-pt body, 16-pt bold headings, page numbers at the foot), drawn with pdf-lib. */
function pdfDocument(words: Words, random: () => number, pages: number): Promise<Buffer> {
  const title = words.title(random);
  return letterPdf(
    pages,
    (page, { body, bold }) => {
      let y = 730;
      while (y > 120) {
        if (random() < 0.3) {
          y -= 10;
          page.drawText(words.title(random), { x: 60, y, size: 16, font: bold });
          y -= 26;
        }
        y = drawParagraph(page, words.paragraph(random, 40 + Math.floor(random() * 60)), body, y) - 10;
      }
    },
    title,
  );
}

/** Text of a synthetic passage (60–90 words, within the model's 128-token window) and its breadcrumb. */
function syntheticPassage(words: Words, random: () => number, position: number, crumbs: string[]): Passage {
  return {
    position,
    content: words.paragraph(random, 55 + Math.floor(random() * 30)),
    subtype: 'paragraph',
    breadcrumb: crumbs,
  };
}

/** Topics the synthetic vectors cluster around (sentence embeddings cluster by topic; HNSW graphs rely on it). */
const TOPICS = 2000;

/**
 * The synthetic vector of passage `position` of file `file` (made again on demand for the queries): its
 * section's topic (one of TOPICS random unit vectors; a section is 8 passages) plus as much noise, so
 * passages of one topic are at cosine ≈ 0.5 and others ≈ 0.
 */
function passageVector(seed: number, file: number, position: number): Float32Array {
  const topic = mix(seed, 9, file, Math.floor(position / 8)) % TOPICS;
  const centre = randomUnitVector(seededRandom(mix(seed, 11, topic)));
  const noise = randomUnitVector(seededRandom(mix(seed, 7, file, position)));
  const v = new Float32Array(DIMENSIONS);
  for (let i = 0; i < DIMENSIONS; i++) v[i] = (centre[i] as number) + (noise[i] as number);
  return v;
}

// ---------------------------------------------------------------------------------------------------------
// Database set-up

/** A second, plain connection to the same database file, for the raw queries (sqlite-vec loaded). */
function rawConnection(dataDir: string): SQLite.Database {
  const raw = new SQLite(join(dataDir, 'parley.db'));
  raw.pragma('busy_timeout = 5000');
  sqliteVec.load(raw);
  return raw;
}

/** Keeps the last compiled queries of a Kysely instance, to show their plans. */
function queryRecorder() {
  const nodes: { node: RootOperationNode; queryId: QueryId }[] = [];
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      nodes.push({ node: args.node, queryId: args.queryId });
      if (nodes.length > 20) nodes.shift();
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { plugin, nodes };
}

// ---------------------------------------------------------------------------------------------------------
// Measuring and printing

const ms = (v: number) => (v < 1 ? v.toFixed(3) : v < 100 ? v.toFixed(2) : v.toFixed(0));
const rate = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

function log(message = ''): void {
  console.log(message);
}

// ---------------------------------------------------------------------------------------------------------
// Part 1: indexing throughput with the real model

interface Settings {
  sizes: number[];
  queries: number;
  files: number;
  docs: number;
  pdfPages: number;
  workers: number;
  batch: number;
  seed: number;
  work: string;
}

interface StageTimes {
  extract: number;
  chunk: number;
  embed: number;
  store: number;
  total: number;
  rawEmbed: number;
  passages: number;
  pages: number;
  docs: number;
}

interface QueryEmbedTimes {
  ours: Summary;
  raw: Summary;
}

async function indexingThroughput(s: Settings, words: Words): Promise<QueryEmbedTimes> {
  log(`## Indexing throughput (real USE-lite model: ${s.workers} worker(s), batch ${s.batch})`);
  const random = seededRandom(mix(s.seed, 1));
  const sources: SourceDocument[] = [];
  for (let i = 0; i < s.docs; i++) {
    const markdown = i % 4 !== 3;
    const text = markdown ? markdownDocument(words, random) : textDocument(words, random);
    sources.push({
      key: `doc-${String(i).padStart(3, '0')}.${markdown ? 'md' : 'txt'}`,
      contentType: markdown ? 'text/markdown' : 'text/plain',
      bytes: Buffer.from(text),
    });
  }
  const pdf = await pdfDocument(words, random, s.pdfPages);
  const pdfSource: SourceDocument = { key: 'handbook.pdf', contentType: 'application/pdf', bytes: pdf };
  const textBytes = sources.reduce((n, d) => n + d.bytes.length, 0);
  log(
    `documents: ${sources.length} Markdown/text (${(textBytes / 1024).toFixed(0)} KiB) and one PDF of ${s.pdfPages} pages ` +
      `(${(pdf.length / 1024).toFixed(0)} KiB); load average ${loadAverage()}`,
  );

  const dataDir = join(s.work, 'indexing');
  const db = await openDatabase({ dataDir });
  const owner = await seedBot(db);
  const index = createPassageIndex({ db });
  const embedder = embedderFromConfig({ embedder: 'use-lite', workers: s.workers, batchSize: s.batch });
  if (!embedder) throw new Error('no embedder');
  const raw = rawConnection(dataDir);
  try {
    let mark = now();
    await embedder.ready();
    const rawModel = await loadUseLiteOnnxModel(resolveUseLiteFiles());
    log(`both models loaded in ${(msSince(mark) / 1000).toFixed(1)} s (not counted below)`);
    const model = { id: embedder.id, dimensions: embedder.dimensions };

    // Warm-up: one small document through every stage (code loaded on first use, kernels prepared).
    const warmId = await seedFile(db, owner, { key: 'warm-up.md', contentType: 'text/markdown' });
    const warmDoc = await extractDocument(
      Buffer.from('# Warm up\n\nA paragraph to warm up.'),
      'text/markdown',
      'w.md',
    );
    const warmPassages: IndexedPassage[] = chunkDocument(warmDoc);
    const warmVectors = await embedder.embed(warmPassages.map(embeddingText));
    await rawModel.embedBatch(warmPassages.map(embeddingText));
    warmPassages.forEach((p, i) => {
      p.embedding = warmVectors[i];
    });
    await index.replaceFilePassages({ fileId: warmId, botId: owner.botId, passages: warmPassages, model });
    await index.deleteFile(warmId);
    const warmPdf = await pdfDocument(words, seededRandom(1), 2);
    for (let r = 0; r < 2; r++) {
      await extractDocument(warmPdf, 'application/pdf', 'w.pdf');
      await extractText(await getDocumentProxy(new Uint8Array(warmPdf)), { mergePages: false });
    }

    /**
     * Per file, as the index_file job: extract → chunk → embed (calls of `s.batch` texts) → replaceFilePassages.
     * Right after each embed call the raw model embeds the same texts in this thread (the baseline, timed apart
     * and left out of the end-to-end time), so both see the same load on the machine.
     */
    const all: IndexedPassage[] = [];
    const run = async (docs: SourceDocument[]): Promise<StageTimes> => {
      const t: StageTimes = {
        extract: 0,
        chunk: 0,
        embed: 0,
        store: 0,
        total: 0,
        rawEmbed: 0,
        passages: 0,
        pages: 0,
        docs: 0,
      };
      const start = now();
      for (const d of docs) {
        const fileId = await seedFile(db, owner, { key: d.key, contentType: d.contentType });
        mark = now();
        const document = await extractDocument(d.bytes, d.contentType, d.key);
        t.extract += msSince(mark);
        mark = now();
        const passages: IndexedPassage[] = chunkDocument(document);
        t.chunk += msSince(mark);
        for (let i = 0; i < passages.length; i += s.batch) {
          const batch = passages.slice(i, i + s.batch);
          const texts = batch.map(embeddingText);
          mark = now();
          const vectors = await embedder.embed(texts);
          t.embed += msSince(mark);
          batch.forEach((p, j) => {
            p.embedding = vectors[j];
          });
          mark = now();
          await rawModel.embedBatch(texts);
          t.rawEmbed += msSince(mark);
        }
        mark = now();
        await index.replaceFilePassages({ fileId, botId: owner.botId, passages, model });
        t.store += msSince(mark);
        t.passages += passages.length;
        t.pages += document.pageCount ?? 0;
        t.docs += 1;
        all.push(...passages);
      }
      t.total = msSince(start) - t.rawEmbed;
      return t;
    };
    const text = await run(sources);
    const paged = await run([pdfSource]);
    const passages = text.passages + paged.passages;
    log(
      `passages: ${text.passages} from the Markdown/text documents, ${paged.passages} from the PDF's ${paged.pages} pages ` +
        `(${passages} in all); load average ${loadAverage()}`,
    );

    // The storage alone: the same text and vectors INSERTed into a bare FTS5 table and a bare vec0 table (same
    // tokenizer, same vector column), prepared statements, one transaction.
    raw.exec(`
      create virtual table bench_raw_fts using fts5(content, breadcrumb, tokenize='porter unicode61 remove_diacritics 2');
      create virtual table bench_raw_vec using vec0(
        embedding float[${DIMENSIONS}] distance_metric=cosine, bot_id text partition key
      );`);
    const insertFts = raw.prepare('insert into bench_raw_fts(rowid, content, breadcrumb) values (?, ?, ?)');
    const insertVec = raw.prepare('insert into bench_raw_vec(rowid, embedding, bot_id) values (?, ?, ?)');
    mark = now();
    raw.transaction(() => {
      all.forEach((p, i) => {
        insertFts.run(i + 1, p.content, JSON.stringify(p.breadcrumb));
        const v = p.embedding as Float32Array;
        insertVec.run(BigInt(i + 1), Buffer.from(v.buffer, v.byteOffset, v.byteLength), owner.botId);
      });
    })();
    const rawInsertMs = msSince(mark);
    raw.exec('drop table bench_raw_fts; drop table bench_raw_vec;');

    // The PDF's text alone: pdf.js through unpdf (what extract/pdf.ts builds on), page texts only, beside
    // extractDocument on the same PDF; 7 rounds each, alternating, medians (one pass is noisy).
    const pdfOurs: number[] = [];
    const pdfRaw: number[] = [];
    for (let r = 0; r < 7; r++) {
      const pair = [
        async () => {
          const m = now();
          await extractDocument(pdf, 'application/pdf', pdfSource.key);
          pdfOurs.push(msSince(m));
        },
        async () => {
          const m = now();
          const got = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: false });
          pdfRaw.push(msSince(m));
          if (got.totalPages !== s.pdfPages) throw new Error(`unpdf read ${got.totalPages} pages`);
        },
      ];
      if (r % 2) pair.reverse();
      for (const f of pair) await f();
    }
    const oursPdfMs = summarize(pdfOurs).p50;
    const rawPdfMs = summarize(pdfRaw).p50;

    const per = (n: number, msTotal: number) => (msTotal > 0 ? (n * 1000) / msTotal : Number.NaN);
    const sum = (k: keyof StageTimes) => text[k] + paged[k];
    type Stage = 'extract' | 'chunk' | 'embed' | 'store' | 'total' | 'rawEmbed';
    const stage = (name: string, k: Stage) => [
      name,
      (sum(k) / 1000).toFixed(2),
      rate(per(passages, sum(k))),
      rate(per(paged.pages, paged[k])),
      rate(per(paged.passages, paged[k])),
      rate(per(text.docs, text[k])),
    ];
    /** A row of the PDF's pages alone, extracted in `msTotal`. */
    const pdfRow = (name: string, msTotal: number) => [
      name,
      (msTotal / 1000).toFixed(2),
      '',
      rate(per(paged.pages, msTotal)),
      '',
      '',
    ];
    log(
      table([
        ['stage', 'time s', 'passages/s', 'PDF pages/s', 'PDF passages/s', 'Markdown/text docs/s'],
        stage('extract (extractDocument)', 'extract'),
        stage('chunk (chunkDocument)', 'chunk'),
        stage('embed (UseLiteEmbedder.embed, worker)', 'embed'),
        stage('store (replaceFilePassages)', 'store'),
        stage('end to end (the four + file rows)', 'total'),
        stage('raw: model.embedBatch, same batches, in-thread', 'rawEmbed'),
        [
          'raw: INSERT into bare FTS5 + vec0, 1 transaction',
          (rawInsertMs / 1000).toFixed(2),
          rate(per(passages, rawInsertMs)),
          '',
          '',
          '',
        ],
        pdfRow('PDF extract alone (extractDocument), median of 7', oursPdfMs),
        pdfRow('raw: pdf.js page text (unpdf extractText), median of 7', rawPdfMs),
      ]),
    );
    log(
      `ours ÷ raw throughput: embed ${ratio(sum('rawEmbed'), sum('embed'))}, store ${ratio(rawInsertMs, sum('store'))}, ` +
        `PDF extract ${ratio(rawPdfMs, oursPdfMs)} (medians of 7); end to end ÷ raw model ${ratio(sum('rawEmbed'), sum('total'))}. ` +
        `Embedding is ${((100 * sum('embed')) / sum('total')).toFixed(1)} % of the end-to-end time.`,
    );

    // The model's part of a search: one query embedded, as searchFiles does, beside the raw model call.
    const qRandom = seededRandom(mix(s.seed, 3));
    const queries = Array.from({ length: s.queries }, () => words.question(qRandom));
    for (const q of queries.slice(0, 10)) {
      await embedder.embed([q]);
      await rawModel.embedBatch([q]);
    }
    const ours: number[] = [];
    const rawTimes: number[] = [];
    for (const [i, q] of queries.entries()) {
      const pair = [
        async () => {
          const m = now();
          await embedder.embed([q]);
          ours.push(msSince(m));
        },
        async () => {
          const m = now();
          await rawModel.embedBatch([q]);
          rawTimes.push(msSince(m));
        },
      ];
      if (i % 2) pair.reverse();
      for (const f of pair) await f();
    }
    rawModel.dispose();
    const times = { ours: summarize(ours), raw: summarize(rawTimes) };
    log(
      `one query embedded (${queries.length} queries, p50 / p95): UseLiteEmbedder.embed([q]) ${ms(times.ours.p50)} / ${ms(times.ours.p95)} ms, ` +
        `raw model.embedBatch([q]) ${ms(times.raw.p50)} / ${ms(times.raw.p95)} ms`,
    );
    log('');
    return times;
  } finally {
    raw.close();
    await embedder.close();
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Part 2: search latency at 10k and 100k passages

interface Variant {
  name: string;
  /** Runs query q; the answer is kept for the checks. */
  run: (q: number) => Promise<unknown> | unknown;
  times: number[];
  answers: unknown[];
}

async function searchLatency(
  s: Settings,
  words: Words,
  size: number,
  queryEmbed: QueryEmbedTimes,
): Promise<void> {
  const files = Math.min(s.files, size);
  log(`## Search latency at ${size.toLocaleString('en')} passages (${files} files of one bot)`);
  const dataDir = join(s.work, `search-${size}`);
  const db = await openDatabase({ dataDir });
  const raw = rawConnection(dataDir);
  const model512 = embedderFromConfig({ embedder: 'use-lite', workers: 1, batchSize: 1 });
  if (!model512) throw new Error('no embedder');
  try {
    const owner = await seedBot(db);
    const recorder = queryRecorder();
    const recorded = db.kysely.withPlugin(recorder.plugin);
    // The recorded handle is for the query plans only: without an HNSW graph of its own (one graph per
    // database handle), it searches vectors exactly. Passages are written and searched through `ours`, the
    // index searchFiles uses (same handle, same HNSW graph).
    const index: PassageIndex = sqlitePassageIndex({ kysely: recorded, vectorIndex: { dir: false } });
    // searchFiles's index (createPassageIndex) shares this handle's graph; its events tell why a graph failed.
    const graphEvents: HnswEvent[] = [];
    const ours = sqlitePassageIndex({
      kysely: db.kysely,
      vectorIndex: { onEvent: (e) => graphEvents.push(e) },
    });
    const exact = sqlitePassageIndex({ kysely: db.kysely, vectorIndex: { dir: false } });
    // The lexical search as the server runs it: split across PARLEY_SEARCH_THREADS reader threads (default:
    // the cores, at most 4) once a bot has 20k passages or more.
    const threads = loadConfig({ PARLEY_DATA_DIR: dataDir }).search.threads;
    const split = sqlitePassageIndex({
      kysely: db.kysely,
      vectorIndex: { dir: false },
      lexicalThreads: threads,
    });
    // The lexical search as the server runs it by default (PARLEY_LEXICAL_MEMORY): the in-memory index.
    const inMemory = sqlitePassageIndex({
      kysely: db.kysely,
      vectorIndex: { dir: false },
      lexicalMemory: true,
    });
    const model = { id: 'bench-clustered-512', dimensions: DIMENSIONS };

    // Fill: passages of the word list, random unit vectors (the model would take hours for 100k passages),
    // one replaceFilePassages (one transaction) per file.
    const fileIds: string[] = [];
    const perFile: number[] = [];
    let fillMs = 0;
    for (let f = 0; f < files; f++) {
      const count = Math.floor(size / files) + (f < size % files ? 1 : 0);
      perFile.push(count);
      const fileId = await seedFile(db, owner, {
        key: `file-${String(f).padStart(3, '0')}.md`,
        contentType: 'text/markdown',
      });
      fileIds.push(fileId);
      const random = seededRandom(mix(s.seed, 5, f));
      const docTitle = words.title(random);
      let section = words.title(random);
      const passages: IndexedPassage[] = [];
      for (let p = 0; p < count; p++) {
        if (p % 8 === 0) section = words.title(random);
        passages.push({
          ...syntheticPassage(words, random, p, [docTitle, section]),
          embedding: passageVector(s.seed, f, p),
        });
      }
      const mark = now();
      await ours.replaceFilePassages({ fileId, botId: owner.botId, passages, model });
      fillMs += msSince(mark);
    }
    const dbBytes = statSync(join(dataDir, 'parley.db')).size + statSync(join(dataDir, 'parley.db-wal')).size;
    log(
      `filled through replaceFilePassages in ${(fillMs / 1000).toFixed(1)} s (${rate((size * 1000) / fillMs)} passages/s; ` +
        `text generation not counted; each file's vectors sent to the HNSW worker as it comes); database ${(dbBytes / 1e6).toFixed(0)} MB; ` +
        `load average ${loadAverage()}`,
    );
    await hnswTimes(dataDir, db, owner.botId, model, size, graphEvents);
    // The in-memory lexical index reads every passage (its worker, FTS5's tokenizer) before it answers.
    const memory = await lexicalMemoryOf(db.kysely);
    if (!memory) throw new Error('no in-memory lexical index for a database file');
    const rssBeforeMemory = procMemory(process.pid, 'VmRSS') ?? 0;
    const memoryMark = now();
    const held = await memory.settled(30 * 60_000);
    log(
      `in-memory lexical index: ${held.toLocaleString('en')} passages read in ${(msSince(memoryMark) / 1000).toFixed(1)} s ` +
        `(its worker thread, one scan of FTS5's own index); process RSS ${(rssBeforeMemory / 1e6).toFixed(0)} → ` +
        `${((procMemory(process.pid, 'VmRSS') ?? 0) / 1e6).toFixed(0)} MB; load average ${loadAverage()}`,
    );

    // Queries: questions from the word list; each query vector is a perturbed copy of one stored passage's
    // vector (cosine ≈ 0.6), so its nearest passage is known.
    const qRandom = seededRandom(mix(s.seed, 3));
    const queries = Array.from({ length: s.queries }, () => words.question(qRandom));
    const vRandom = seededRandom(mix(s.seed, 4));
    const targets = queries.map(() => {
      const f = Math.floor(vRandom() * files);
      return { f, p: Math.floor(vRandom() * (perFile[f] as number)) };
    });
    const queryVectors = targets.map(({ f, p }) => {
      const base = passageVector(s.seed, f, p);
      const noise = randomUnitVector(vRandom);
      const v = new Float32Array(DIMENSIONS);
      for (let i = 0; i < DIMENSIONS; i++) v[i] = (base[i] as number) + 1.3 * (noise[i] as number);
      return v;
    });
    const matches = queries.map((q) => ftsMatchExpression(queryTerms(q)) ?? '""');
    if (keepWork())
      writeFileSync(
        join(dataDir, 'queries.json'),
        JSON.stringify(
          queries.map((q, i) => ({ query: q, match: matches[i], vector: [...(queryVectors[i] ?? [])] })),
        ),
      );
    const bytes = queryVectors.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength));

    // Ours: the passage index, and the searchFiles service wired as in the server, with the embedder replaced by
    // a stub answering each query's precomputed vector (no model time here; see the query embedding rows).
    const vectorOf = new Map(queries.map((q, i) => [q, queryVectors[i] as Float32Array]));
    const vectorsOf = (texts: readonly string[]) =>
      texts.map((t) => vectorOf.get(t.trim()) ?? new Float32Array(DIMENSIONS));
    const servicesWith = (embed: Embedder['embed']) =>
      buildServices({
        config: loadConfig({ PARLEY_DATA_DIR: dataDir }),
        db,
        blobs: localDiskBlobStore({ root: join(dataDir, 'blobs') }),
        signingSecret: randomBytes(32),
        embedder: { id: model.id, dimensions: DIMENSIONS, embed, close: async () => {} },
      });
    const services = servicesWith(async (texts) => vectorsOf(texts));
    // The same service with the query really embedded by the model (its vector then swapped for the clustered
    // one, which the synthetic passages are near): one searchFiles call timed whole, the embedding running in
    // its worker while the lexical search runs.
    const servicesWithModel = servicesWith(async (texts) => {
      await model512.embed([...texts]);
      return vectorsOf(texts);
    });
    const ctx = {
      actor: { kind: 'bot' as const, botId: owner.botId },
      botId: owner.botId,
      workspaceId: owner.workspaceId,
    };
    const scope: PassageScope = { botId: owner.botId, visibility: { kind: 'all' } };
    const lexical = (q: number) => index.lexicalSearch(queries[q] as string, scope, CANDIDATES);
    const lexicalSplit = (q: number) => split.lexicalSearch(queries[q] as string, scope, CANDIDATES);
    const lexicalMemory = (q: number) => inMemory.lexicalSearch(queries[q] as string, scope, CANDIDATES);
    const vector = (q: number) => ours.vectorSearch(queryVectors[q] as Float32Array, scope, CANDIDATES);
    const exactVector = (q: number) => exact.vectorSearch(queryVectors[q] as Float32Array, scope, CANDIDATES);
    // Diagnostic: the graph's part of vectorSearch alone (the worker round trip and usearch's search for the
    // candidates vectorSearch asks for), so the rest of "ours" is the model row, the hit rows and the scope.
    const graph = await sqliteHnswIndexOf(db.kysely, model);
    const units = queryVectors.map(unitVector);
    const graphCandidates = candidateCount(scope, CANDIDATES);
    const graphOnly = async (q: number) => {
      const found = await graph?.nearest(owner.botId, units[q] as Float32Array, graphCandidates);
      if (!found) throw new Error('no HNSW graph to search');
      return found;
    };

    // Raw: the same queries on the same tables through a plain connection, statements prepared once.
    const rawFts = raw.prepare(
      `select rowid, bm25(passages_fts, 1.0, ${DEFAULT_BREADCRUMB_WEIGHT.sqlite}) as rank from passages_fts
       where passages_fts match ? order by bm25(passages_fts, 1.0, ${DEFAULT_BREADCRUMB_WEIGHT.sqlite}) limit ?`,
    );
    const rawVec = raw.prepare(
      'select rowid, distance from passage_vectors where embedding match ? and k = ? and bot_id = ?',
    );
    const rawLexical = (q: number) => rawFts.all(matches[q], CANDIDATES) as { rowid: number }[];
    // The same with the bot's column filter our index adds (migration 0011): what per-bot scoping costs here.
    const botMatches = matches.map((m) => botMatchExpression(owner.botId, m));
    const rawFtsBot = raw.prepare(
      `select rowid, bm25(passages_fts, 1.0, ${DEFAULT_BREADCRUMB_WEIGHT.sqlite}, 0.0) as rank from passages_fts
       where passages_fts match ? order by bm25(passages_fts, 1.0, ${DEFAULT_BREADCRUMB_WEIGHT.sqlite}, 0.0) limit ?`,
    );
    const rawLexicalBot = (q: number) => rawFtsBot.all(botMatches[q], CANDIDATES);
    // Before issue 14: every match of the bot scored, then joined to passages, files and tiles before the limit.
    const before = sqliteScopedLexicalSearch(
      db.kysely,
      DEFAULT_BREADCRUMB_WEIGHT.sqlite,
      DEFAULT_TILE_WEIGHT,
    );
    const lexicalBefore = (q: number) => before(queries[q] as string, scope, CANDIDATES);
    const rawVector = (q: number, k = CANDIDATES) =>
      rawVec.all(bytes[q], k, owner.botId) as { rowid: number }[];

    // Diagnostic: our lexical SQL itself (compiled by Kysely, captured), prepared once on the raw connection;
    // the gap to "ours" is the driver path (Kysely + a prepare per call), the gap to raw FTS5 is the SQL.
    // (Every statement of one search, in turn: the bounded search sends three.)
    const ourLexicalSql: CompiledQuery[][] = [];
    for (let q = 0; q < queries.length; q++) {
      recorder.nodes.length = 0;
      await lexical(q);
      if (recorder.nodes.length === 0) throw new Error('no lexical query recorded');
      ourLexicalSql.push(recorder.nodes.map((n) => recorded.getExecutor().compileQuery(n.node, n.queryId)));
    }
    const prepared = new Map<string, SQLite.Statement>();
    const ourSqlRaw = (q: number) =>
      (ourLexicalSql[q] as CompiledQuery[]).map((c) => {
        let st = prepared.get(c.sql);
        if (!st) {
          st = raw.prepare(c.sql);
          prepared.set(c.sql, st);
        }
        return st.all(...(c.parameters as unknown[]));
      });

    const names = {
      rawFts: 'raw FTS5: MATCH … ORDER BY bm25() LIMIT 80',
      rawFtsBot: '  (raw FTS5 with the bot filter: bot : … AND (…))',
      before: 'before: every match scored, then joined (old SQL)',
      ourSql: '  (our lexical SQL, prepared once, raw driver)',
      lexical: 'ours: lexicalSearch(q, 80), in the main thread',
      lexicalSplit: `ours: lexicalSearch(q, 80), split across ${threads} reader threads`,
      lexicalMemory: 'ours: lexicalSearch(q, 80), in-memory index (default)',
      rawVec: 'raw vec0: MATCH … AND k = 80',
      rawVecOver: `raw vec0: MATCH … AND k = ${VECTOR_OVERFETCH} (vectorSearch's over-fetch)`,
      exactVector: 'exact: vectorSearch(v, 80), sqlite-vec scan (before)',
      vector: 'ours: vectorSearch(v, 80), HNSW graph',
      graphOnly: `  (its graph search alone: ${graphCandidates} nearest, worker round trip)`,
      rawBoth: 'raw FTS5 + raw vec0 (k = 80), per-query sum',
      hybrid: 'ours: lexical + vector + fuse (index level, per-query sum)',
      hybridAtOnce: 'ours: in-memory lexical ∥ vector, then fuse (index level, timed whole)',
      service: 'ours: searchFiles service, limit 20 (no model)',
      serviceEmbedded: 'ours: searchFiles + query embedding (sum of the two)',
      serviceWithModel: 'ours: searchFiles, query embedded by the model (timed whole)',
      embedOurs: 'query embedding: UseLiteEmbedder.embed([q])',
      embedRaw: 'query embedding: raw model.embedBatch([q])',
    };
    const variants: Variant[] = [
      { name: names.rawFts, run: rawLexical, times: [], answers: [] },
      { name: names.rawFtsBot, run: rawLexicalBot, times: [], answers: [] },
      { name: names.before, run: lexicalBefore, times: [], answers: [] },
      { name: names.ourSql, run: ourSqlRaw, times: [], answers: [] },
      { name: names.lexical, run: lexical, times: [], answers: [] },
      { name: names.lexicalSplit, run: lexicalSplit, times: [], answers: [] },
      { name: names.lexicalMemory, run: lexicalMemory, times: [], answers: [] },
      { name: names.rawVec, run: (q) => rawVector(q), times: [], answers: [] },
      { name: names.rawVecOver, run: (q) => rawVector(q, VECTOR_OVERFETCH), times: [], answers: [] },
      { name: names.exactVector, run: exactVector, times: [], answers: [] },
      { name: names.vector, run: vector, times: [], answers: [] },
      { name: names.graphOnly, run: graphOnly, times: [], answers: [] },
      {
        name: names.hybridAtOnce,
        run: async (q) => {
          const [l, v] = await Promise.all([lexicalMemory(q), vector(q)]);
          return fuse(l, v, { mode: 'hybrid', denseWeight: DEFAULT_DENSE_WEIGHT, limit: SEARCH_LIMIT });
        },
        times: [],
        answers: [],
      },
      {
        name: names.service,
        run: (q) => services.search.search(ctx, { query: queries[q] as string, limit: SEARCH_LIMIT }),
        times: [],
        answers: [],
      },
      {
        name: names.serviceWithModel,
        // A space after the query: not the text the warm-up round cached the vector of (the service keeps the
        // vectors of recent queries), so every timed call embeds.
        run: (q) => servicesWithModel.search.search(ctx, { query: `${queries[q]} `, limit: SEARCH_LIMIT }),
        times: [],
        answers: [],
      },
    ];

    // Warm-up, then every query through every variant, in a new (seeded) random order for each query. Not a
    // rotation: with it each variant always ran right after the same one, so "ours: vectorSearch" always came
    // after a full vec0 scan (caches cold) and its "graph search alone" always right after it (caches warm).
    const warm = Math.min(5, queries.length);
    for (let q = 0; q < warm; q++) for (const v of variants) await v.run(q);
    const orderRandom = seededRandom(mix(s.seed, 6));
    for (let q = 0; q < queries.length; q++) {
      const order = shuffled(variants, orderRandom);
      for (const v of order) {
        const mark = now();
        const answer = await v.run(q);
        v.times.push(msSince(mark));
        v.answers[q] = answer;
      }
    }
    const byName = new Map(variants.map((v) => [v.name, v]));
    const timesOf = (name: string) => (byName.get(name) as Variant).times;
    const answersOf = <T>(name: string) => (byName.get(name) as Variant).answers as T[];
    const rawBoth = timesOf(names.rawFts).map((t, q) => t + (timesOf(names.rawVec)[q] as number));
    // The index-level hybrid is lexicalSearch + vectorSearch (measured above) + fuse on their very answers, per
    // query: the service row runs the whole thing for real, so a third vector scan per query is not spent on it.
    const lexicalAnswers = answersOf<PassageHit[]>(names.lexical);
    const vectorAnswers = answersOf<PassageHit[]>(names.vector);
    const hybrid = queries.map((_, q) => {
      const mark = now();
      fuse(lexicalAnswers[q] ?? [], vectorAnswers[q] ?? [], {
        mode: 'hybrid',
        denseWeight: DEFAULT_DENSE_WEIGHT,
        limit: SEARCH_LIMIT,
      });
      return msSince(mark) + (timesOf(names.lexical)[q] as number) + (timesOf(names.vector)[q] as number);
    });

    const summaries = new Map<string, Summary>([
      ...variants.map((v) => [v.name, summarize(v.times)] as const),
      [names.rawBoth, summarize(rawBoth)],
      [names.hybrid, summarize(hybrid)],
      [names.embedOurs, queryEmbed.ours],
      [
        names.serviceEmbedded,
        (() => {
          const service = summarize(timesOf(names.service));
          const add = (k: 'p50' | 'p95' | 'mean' | 'max') => service[k] + queryEmbed.ours[k];
          return { ...service, p50: add('p50'), p95: add('p95'), mean: add('mean'), max: add('max') };
        })(),
      ],
      [names.embedRaw, queryEmbed.raw],
    ]);
    const baseline: Record<string, string> = {
      [names.rawFtsBot]: names.rawFts,
      [names.before]: names.rawFts,
      [names.ourSql]: names.rawFts,
      [names.lexical]: names.rawFts,
      [names.lexicalSplit]: names.rawFts,
      [names.lexicalMemory]: names.rawFts,
      [names.rawVecOver]: names.rawVec,
      [names.exactVector]: names.rawVec,
      [names.vector]: names.rawVec,
      [names.graphOnly]: names.rawVec,
      [names.hybrid]: names.rawBoth,
      [names.hybridAtOnce]: names.rawBoth,
      [names.service]: names.rawBoth,
      [names.embedOurs]: names.embedRaw,
    };
    const order = [
      names.rawFts,
      names.rawFtsBot,
      names.before,
      names.ourSql,
      names.lexical,
      names.lexicalSplit,
      names.lexicalMemory,
      names.rawVec,
      names.rawVecOver,
      names.exactVector,
      names.vector,
      names.graphOnly,
      names.rawBoth,
      names.hybrid,
      names.hybridAtOnce,
      names.service,
      names.embedRaw,
      names.embedOurs,
      names.serviceEmbedded,
      names.serviceWithModel,
    ];
    const rows: string[][] = [['query', 'p50 ms', 'p95 ms', 'mean ms', 'max ms', 'p50 ÷ raw', 'p95 ÷ raw']];
    for (const name of order) {
      const m = summaries.get(name) as Summary;
      const b = baseline[name] ? summaries.get(baseline[name] as string) : undefined;
      rows.push([
        name,
        ms(m.p50),
        ms(m.p95),
        ms(m.mean),
        ms(m.max),
        b ? ratio(m.p50, b.p50) : '',
        b ? ratio(m.p95, b.p95) : '',
      ]);
    }
    log(table(rows));

    // Checks that ours and raw did the same work.
    const idOfSeq = new Map(
      (raw.prepare('select seq, id from passages').all() as { seq: number; id: string }[]).map((r) => [
        r.seq,
        r.id,
      ]),
    );
    const idAt = raw.prepare('select id from passages where file_id = ? and position = ?').pluck();
    const targetIds = targets.map(({ f, p }) => idAt.get(fileIds[f] as string, p) as string);
    let shared = 0;
    let compared = 0;
    let oursTop1 = 0;
    let rawTop1 = 0;
    const ourLex = answersOf<{ passageId: string }[]>(names.lexical);
    const splitLex = answersOf<{ passageId: string }[]>(names.lexicalSplit);
    const splitSame = queries.filter(
      (_, q) => JSON.stringify(splitLex[q]) === JSON.stringify(ourLex[q]),
    ).length;
    const rawLex = answersOf<{ rowid: number }[]>(names.rawFts);
    // The in-memory index scores every match with its tile, as the "before" SQL does: the same passages.
    const memoryLex = answersOf<{ passageId: string }[]>(names.lexicalMemory);
    const beforeAnswers = answersOf<{ passageId: string }[]>(names.before);
    const memorySame = queries.filter(
      (_, q) =>
        JSON.stringify(memoryLex[q]?.map((h) => h.passageId)) ===
        JSON.stringify(beforeAnswers[q]?.map((h) => h.passageId)),
    ).length;
    const ourVec = answersOf<{ passageId: string; score: number }[]>(names.vector);
    const exactVec = answersOf<{ passageId: string; score: number }[]>(names.exactVector);
    let recallFound = 0;
    for (let q = 0; q < queries.length; q++) {
      const tenth = exactVec[q]?.[9]?.score ?? -2;
      recallFound += (ourVec[q] ?? []).slice(0, 10).filter((h) => h.score >= tenth - 1e-6).length;
    }
    const rawVecAnswers = answersOf<{ rowid: number }[]>(names.rawVec);
    const beforeLex = answersOf<{ passageId: string }[]>(names.before);
    let sameAsBefore = 0;
    for (let q = 0; q < queries.length; q++) {
      const exact = new Set((beforeLex[q] ?? []).slice(0, 10).map((h) => h.passageId));
      sameAsBefore += (ourLex[q] ?? []).slice(0, 10).filter((h) => exact.has(h.passageId)).length;
      const mine = (ourLex[q] ?? []).slice(0, 10).map((h) => h.passageId);
      const theirs = new Set((rawLex[q] ?? []).slice(0, 10).map((r) => idOfSeq.get(r.rowid)));
      compared += mine.length;
      shared += mine.filter((id) => theirs.has(id)).length;
      if (ourVec[q]?.[0]?.passageId === targetIds[q]) oursTop1++;
      if (idOfSeq.get(rawVecAnswers[q]?.[0]?.rowid ?? -1) === targetIds[q]) rawTop1++;
    }
    const count = raw.prepare('select count(*) as n from passages_fts where passages_fts match ?').pluck();
    const matched = matches.map((m) => count.get(m) as number).sort((a, b) => a - b);
    log(
      `${queries.length} queries after ${warm} warm-up rounds, variants interleaved, load average ${loadAverage()}. ` +
        `Example: "${queries[0]}" → ${matches[0]}. Passages matching a query's terms: median ` +
        `${percentile(matched, 50).toLocaleString('en')}, p95 ${percentile(matched, 95).toLocaleString('en')}.`,
    );
    log(
      `checks: top-10 lexical hits shared by ours and raw ${((100 * shared) / Math.max(1, compared)).toFixed(1)} %, ` +
        `by ours and before (every match scored) ${((100 * sameAsBefore) / Math.max(1, compared)).toFixed(1)} %; ` +
        `split lexical answers identical to in-thread ones: ${splitSame}/${queries.length}; ` +
        `in-memory lexical answers (passages, in order) identical to before's (every match scored): ${memorySame}/${queries.length}, ` +
        `answered by the in-memory index ${memory.counts.answered} of ${memory.counts.answered + memory.counts.building + memory.counts.behind + memory.counts.phrase + memory.counts.failed} searches; ` +
        `target passage first by vector: ours ${oursTop1}/${queries.length}, raw ${rawTop1}/${queries.length}; ` +
        `HNSW recall@10 against the exact scan ${(recallFound / (10 * queries.length)).toFixed(3)}. ` +
        `Vectors are 512-d, clustered around ${TOPICS} random topics, not model output (embedding 100k passages takes minutes); ` +
        `searchFiles + query embedding adds the p50s and the p95s of the two rows (p95 of the sum is at most that); ` +
        `a real hybrid search adds the query embedding rows to the hybrid rows.`,
    );

    // Query plans of our SQL, as SQLite runs it (captured from the index's own Kysely instance).
    if (size === Math.max(...s.sizes)) {
      const plans: string[] = [];
      const explain = (label: string, compiled: CompiledQuery) => {
        const plan = raw
          .prepare(`explain query plan ${compiled.sql}`)
          .all(...(compiled.parameters as unknown[])) as { id: number; parent: number; detail: string }[];
        const depth = new Map<number, number>([[0, 0]]);
        plans.push(`${label}:`);
        for (const r of plan) {
          const d = (depth.get(r.parent) ?? 0) + 1;
          depth.set(r.id, d);
          plans.push(`${'  '.repeat(d)}${r.detail}`);
        }
      };
      const lexicalSql = ourLexicalSql[0] as CompiledQuery[];
      lexicalSql.forEach((c, i) => {
        explain(`lexicalSearch, statement ${i + 1} of ${lexicalSql.length}`, c);
      });
      recorder.nodes.length = 0;
      await vector(0);
      const vectorSql = recorder.nodes.map((n) => recorded.getExecutor().compileQuery(n.node, n.queryId));
      vectorSql.forEach((c, i) => {
        explain(`vectorSearch, statement ${i + 1} of ${vectorSql.length}`, c);
      });
      log('');
      log('Query plans (EXPLAIN QUERY PLAN of the SQL our index sends):');
      log(plans.join('\n'));
    }
    log('');
  } finally {
    raw.close();
    await model512.close();
    await closeSqliteReaders(db.kysely);
    await closeLexicalMemory(db.kysely);
    await db.close();
  }
}
/**
 * The HNSW graph's own times at this size: saving it, loading it at a start, and rebuilding it from the
 * stored vectors (as at a start without a usable file: in a worker, searches scanning exactly meanwhile),
 * each through a passage index as the server makes it; with the process's resident memory.
 */
async function hnswTimes(
  dataDir: string,
  db: Db,
  botId: string,
  model: { id: string; dimensions: number },
  size: number,
  events: HnswEvent[],
): Promise<void> {
  const graph = await sqliteHnswIndexOf(db.kysely, model);
  // The fill returns once the vectors are committed and sent; the worker may still be inserting them.
  let mark = now();
  await graph?.settle();
  const catchUpMs = msSince(mark);
  if (!graph || !(await graph.ready(botId))) {
    const failed = events.filter((e) => e.kind === 'failed');
    throw new Error(
      `no HNSW graph after the fill: ${failed.length ? JSON.stringify(failed) : 'no failure reported'}`,
    );
  }
  mark = now();
  await graph.flush();
  const saveMs = msSince(mark);
  const folder = join(dataDir, 'vector-index', `${model.id}-${model.dimensions}`);
  const fileBytes = statSync(join(folder, `${botId}.usearch`)).size;
  const probe = new Float32Array(DIMENSIONS).fill(1);
  const scope: PassageScope = { botId, visibility: { kind: 'all' } };
  const startAgain = async (removeStamp: boolean) => {
    if (removeStamp) await rm(join(folder, `${botId}.json`));
    const events: HnswEvent[] = [];
    const second = await openDatabase({ dataDir });
    try {
      const index = sqlitePassageIndex({
        kysely: second.kysely,
        vectorIndex: { onEvent: (e) => events.push(e) },
      });
      mark = now();
      await index.vectorSearch(probe, scope, 10);
      await (await sqliteHnswIndexOf(second.kysely, model))?.settle();
      const event = events.find((e) => e.kind === 'loaded' || e.kind === 'built');
      if (!event || event.kind === 'failed')
        throw new Error(`HNSW graph not ready: ${JSON.stringify(events)}`);
      return { kind: event.kind, ms: msSince(mark) };
    } finally {
      await second.close();
    }
  };
  const loaded = await startAgain(false);
  const rss = procMemory(process.pid, 'VmRSS') ?? 0;
  // A rebuild from the stored vectors is the fill's graph work again, in one go (~10 min at 1M on 2 cores):
  // timed up to --rebuild-max passages (default 300k).
  const built = size <= rebuildMax() ? await startAgain(true) : undefined;
  log(
    `HNSW graph of ${size.toLocaleString('en')} vectors (usearch, M ${hnsw.connectivity}, ef ${'{'}add ${hnsw.expansionAdd}, search ${hnsw.expansionSearch}${'}'}): ` +
      `every vector inserted ${(catchUpMs / 1000).toFixed(1)} s after the fill returned (its worker); file ${(fileBytes / 1e6).toFixed(0)} MB, ` +
      `saved in ${(saveMs / 1000).toFixed(1)} s; at a start ${loaded.kind} in ${(loaded.ms / 1000).toFixed(1)} s; ` +
      (built
        ? `without its file ${built.kind} from the stored vectors in ${(built.ms / 1000).toFixed(1)} s (a worker, 2 threads); `
        : `rebuild from the stored vectors not timed above --rebuild-max ${rebuildMax()}; `) +
      `process RSS ${(rss / 1e6).toFixed(0)} MB with the graph loaded twice; load average ${loadAverage()}`,
  );
}

/** Whether the work folder stays after the run (--keep / BENCH_KEEP=1). */
const keepWork = () => flag('keep', 'BENCH_KEEP');

/** Largest size whose graph rebuild is timed (--rebuild-max / BENCH_REBUILD_MAX). */
const rebuildMax = (): number => intOption('rebuild-max', 'BENCH_REBUILD_MAX', 300_000, 0, 2_000_000);

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const sizesText = option('sizes', 'BENCH_SIZES') ?? '10000,100000';
  const sizes = sizesText.split(',').map((t) => {
    const n = Number(t.trim().replace(/_/g, '').replace(/k$/i, '000'));
    if (!Number.isInteger(n) || n < 1 || n > 2_000_000)
      throw new Error(`--sizes: "${t}" is not a passage count`);
    return n;
  });
  const settings: Settings = {
    sizes,
    queries: intOption('queries', 'BENCH_QUERIES', 200, 1, 100_000),
    files: intOption('files', 'BENCH_FILES', 100, 1, 100_000),
    docs: intOption('docs', 'BENCH_DOCS', 12, 0, 10_000),
    pdfPages: intOption('pdf-pages', 'BENCH_PDF_PAGES', 12, 1, 2000),
    workers: intOption('workers', 'BENCH_WORKERS', 1, 1, 32),
    batch: intOption('batch', 'BENCH_BATCH', 32, 1, 32),
    seed: intOption('seed', 'BENCH_SEED', 42, 0, 2 ** 31),
    work: await makeWorkFolder('parley-search-bench-'),
  };
  const cleanUp = async () => {
    if (keepWork()) log(`work folder kept (--keep): ${settings.work}`);
    else await rm(settings.work, { recursive: true, force: true });
  };
  onInterrupt(cleanUp);
  const started = now();
  try {
    const words = new Words(join(resolveUseLiteFiles().modelDir, 'vocab.json'));
    log(
      `Search speed benchmark: sizes ${sizes.join(', ')} passages, ${settings.queries} queries, seed ${settings.seed}; ` +
        `word list: the ${words.size} whole words of the USE-lite vocabulary, drawn by unigram probability`,
    );
    const probe = new SQLite(':memory:');
    sqliteVec.load(probe);
    const versions = probe.prepare('select sqlite_version() as sqlite, vec_version() as vec').get() as {
      sqlite: string;
      vec: string;
    };
    probe.close();
    log(
      `work folder ${settings.work}; Node ${process.version}; SQLite ${versions.sqlite}; sqlite-vec ${versions.vec}`,
    );
    log('');
    const queryEmbed = await indexingThroughput(settings, words);
    for (const size of sizes) await searchLatency(settings, words, size, queryEmbed);
    log(`whole benchmark: ${(msSince(started) / 1000).toFixed(0)} s`);
  } finally {
    await cleanUp();
  }
}

runMain(main);
