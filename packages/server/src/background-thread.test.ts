import { Writable } from 'node:stream';
import type { FileObject, KnowledgeSource } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../testkit/src/server/files-api.js';
import { settled, uploadIndexed, uploadText } from '../../testkit/src/server/files-indexing.js';
import { createTestApp, postgresTestUrl, type TestApp } from '../../testkit/src/server/harness.js';
import { testSite } from '../../testkit/src/server/test-site.js';
import { crawlFinished } from '../../testkit/src/server/website-sources.js';
import { eventually } from '../../testkit/src/shared/eventually.js';
import { jobQueueDepth } from './jobs/queue.js';
import { readModelRow } from './search/index/index.js';
import { sqliteHnswIndexOf } from './search/index/sqlite-vector.js';

/**
 * Crawls and indexing in the app's background thread (`PARLEY_BACKGROUND_THREAD`, issue #36), with the real
 * embedding model, on SQLite (a file of its own, so the thread opens its own connection) and PostgreSQL: the
 * thread starts at the first job, indexes and crawls on its own, sends its vector changes to the graphs the
 * searches use, its log lines and metrics to the app's, and gives way to the request thread when it fails.
 */

/** The app's log lines, as JSON objects (the Fastify logger writes them to `stream`). */
function logLines() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

const TEXT = `# Shipping

Parcels leave our warehouse in Rotterdam every weekday before noon. International deliveries take five to
eight working days; tracking numbers arrive by e-mail once the carrier has scanned the parcel.`;

const RETURNS = `# Returns

Unwanted items may be returned within thirty days for a full refund; print the prepaid label from your
account and drop the box at any post office.`;

const search = async (t: TestApp, query: string) => {
  const res = await callAs(t, t.botKey, 'GET', `/v1/files/search?query=${encodeURIComponent(query)}&limit=5`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { passages: Array<{ content: string; file: { key: string } }> }).passages;
};

function backgroundSuite(databaseUrl?: string) {
  const log = logLines();
  const site = testSite({ pages: 8 });
  let base = '';
  let t: TestApp;
  beforeAll(async () => {
    base = await site.start();
    t = await createTestApp({
      workers: true,
      backgroundThread: true,
      env: {
        // SQLite: the real model, for the vectors the thread sends to the request thread's graphs. PostgreSQL has
        // no such graphs (pgvector answers in the database): lexical search is enough to see the thread's work.
        PARLEY_EMBEDDER: databaseUrl ? 'none' : 'use-lite',
        PARLEY_METRICS: 'true',
        PARLEY_LOG_LEVEL: 'debug',
        PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES: 'true',
      },
      logger: { level: 'debug', stream: log.stream },
      ...(databaseUrl ? { databaseUrl } : {}),
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await site.stop();
  });

  it('starts at the first job, indexes in the thread, and the searches find the vectors at once', async () => {
    const thread = t.app.backgroundThread;
    expect(thread?.started).toBe(false);
    await uploadIndexed(t, 'shipping.md', TEXT);
    expect(thread?.started).toBe(true);
    // The semantic side finds it: no word of the question is in the text (the search opens the bot's graph).
    const shippingQuestion = databaseUrl ? 'warehouse in Rotterdam' : 'how long does delivery abroad take';
    expect((await search(t, shippingQuestion))[0]?.file.key).toBe('shipping.md');
    const graph = async () => {
      const model = await readModelRow(t.db.kysely);
      return sqliteHnswIndexOf(t.db.kysely, model as { id: string; dimensions: number });
    };
    const before = databaseUrl ? undefined : (await graph())?.size(t.botId);
    if (!databaseUrl) expect(before).toBeGreaterThan(0);
    // A second file, once `indexed`, is found by meaning at once: its vectors reached the open graph.
    await uploadIndexed(t, 'returns.md', RETURNS);
    const returnsQuestion = databaseUrl ? 'prepaid label' : 'can I send back a purchase I do not want';
    expect((await search(t, returnsQuestion))[0]?.file.key).toBe('returns.md');
    if (!databaseUrl) expect((await graph())?.size(t.botId)).toBeGreaterThan(before ?? 0);
    // The indexing job ran in the background thread: its lines carry `thread: "background"`.
    await eventually(
      async () => log.lines.some((l) => l.thread === 'background' && l.kind === 'index_file'),
      10_000,
      25,
      "the indexing job's lines",
    );
    // Its metrics reach the app's /metrics.
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/parley_indexing_duration_seconds_count\{outcome="ok"\} [1-9]/);
  }, 60_000);

  it('crawls a website in the thread: its pages are indexed and found', async () => {
    const kb = await callAs(t, t.botKey, 'POST', '/v1/files/knowledge-bases', { name: 'Site' });
    expect(kb.statusCode, kb.body).toBe(201);
    const kbId = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    const added = await callAs(t, t.botKey, 'POST', `/v1/files/knowledge-bases/${kbId}/sources`, {
      type: 'website',
      url: `${base}/`,
    });
    expect(added.statusCode, added.body).toBe(201);
    const sourceId = (added.json() as { source: KnowledgeSource }).source.id;
    const source = await crawlFinished(t, kbId, sourceId);
    expect(source.runs[0]?.outcome).toBe('completed');
    expect(source.runs[0]?.counts.indexed).toBeGreaterThan(0);
    expect(source.pages).toBeGreaterThan(0);
    // Page 3's own word finds page 3 once its indexing (in the thread too) is done.
    const withWord = async () =>
      (await search(t, 'zebra3quokka'))
        .filter((p) => p.content.includes('zebra3quokka'))
        .map((p) => p.file.key);
    await eventually(
      async () => (await withWord()).some((key) => key.endsWith('/docs/p3')),
      30_000,
      25,
      'the crawled page to be indexed',
    );
    // The crawl job ran in the background thread: its lines (relayed, so they may come a moment later) say so.
    await eventually(
      async () => log.lines.some((l) => l.thread === 'background' && l.kind === 'crawl_website'),
      10_000,
      25,
      "the crawl job's lines",
    );
  }, 90_000);

  it('when the thread ends unasked, crawls and indexing go on in the request thread', async () => {
    const thread = t.app.backgroundThread;
    // Once the crawl's pages are all indexed: a thread ended amid native work (onnxruntime, SQLite) could take
    // the test's process with it, which is not what this test is about.
    await eventually(
      async () => (await jobQueueDepth(t.db.kysely)).every((d) => d.queued + d.running === 0),
      60_000,
      25,
      'the jobs to end',
    );
    await thread?.crash();
    const file: FileObject = await uploadText(
      t,
      'returns.md',
      '# Returns\n\nReturns are free within thirty days.',
    );
    expect((await settled(t, file.id, 2400)).status).toBe('indexing_completed');
    expect(log.lines.some((l) => l.level === 50 && String(l.msg).includes('background thread failed'))).toBe(
      true,
    );
    const found = await search(t, 'Exchanges are free');
    expect(found.map((p) => p.file.key)).toContain(file.key);
  }, 60_000);
}

describe('the background thread on SQLite', () => {
  backgroundSuite();
});

describe.runIf(postgresTestUrl())('the background thread on PostgreSQL', () => {
  backgroundSuite(postgresTestUrl());
});
