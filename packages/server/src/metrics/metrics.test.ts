import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveConversation } from '../../../testkit/src/server/chat.js';
import { getFile, store } from '../../../testkit/src/server/files-api.js';
import { HANDBOOK, settled, uploadText } from '../../../testkit/src/server/files-indexing.js';
import {
  createTestApp,
  postgresTestUrl,
  type TestApp,
  type TestAppOptions,
} from '../../../testkit/src/server/harness.js';
import { type Metrics, parseMetrics } from '../../../testkit/src/server/prometheus-text.js';
import { eventually } from '../../../testkit/src/shared/eventually.js';
import { UseLiteEmbedder } from '../search/embed/index.js';

/**
 * `GET /metrics` of a real server, scraped over HTTP and read by a Prometheus text format parser: off by
 * default, behind a token when one is set, and the figures moving as requests, jobs, streams and indexing do.
 */

const TOKEN = 'metrics-token-0123456789';

/** Has the app listen on a free port; answers its base URL. */
async function serve(t: TestApp): Promise<string> {
  return t.app.listen({ port: 0, host: '127.0.0.1' });
}

/** A test app made before the suite, listening on a free port (`base` its URL), closed after it. */
function servedApp(options?: TestAppOptions) {
  const served = {} as { t: TestApp; base: string };
  beforeAll(async () => {
    served.t = await createTestApp(options);
    served.base = await serve(served.t);
  });
  afterAll(() => served.t?.close());
  return served;
}

/** GET /metrics over HTTP (with a bearer token when given): the response, its text and the parsed metrics. */
async function scrape(base: string, token?: string) {
  const res = await fetch(`${base}/metrics`, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  const text = await res.text();
  return { res, text, metrics: res.status === 200 ? parseMetrics(text) : undefined };
}

/** The parsed metrics of a scrape that must succeed. */
async function metricsOf(base: string, token?: string): Promise<Metrics> {
  const { res, text, metrics } = await scrape(base, token);
  expect(res.status, text).toBe(200);
  return metrics as Metrics;
}

/** Scrapes until `test` holds (5 s at most); answers the last metrics. */
async function scrapeUntil(base: string, test: (m: Metrics) => boolean): Promise<Metrics> {
  let metrics: Metrics | undefined;
  await eventually(
    async () => {
      metrics = await metricsOf(base);
      return test(metrics);
    },
    5000,
    25,
  ).catch(() => undefined); // the caller's expectations say what is missing
  return metrics as Metrics;
}

const REQUESTS = 'parley_http_requests_total';
const DURATION = 'parley_http_request_duration_seconds';

describe('metrics off (the default)', () => {
  const served = servedApp();

  it('answers /metrics with the ordinary 404 in the wire format', async () => {
    const { res, text } = await scrape(served.base);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(text)).toMatchObject({
      id: expect.any(String),
      code: 404,
      type: 'ResourceNotFound',
      message: expect.stringContaining('GET /metrics'),
    });
  });
});

describe('metrics on', () => {
  const served = servedApp({ env: { PARLEY_METRICS: 'true' } });

  /** GET /v1/admin/bots over HTTP, its body read; answers the status. */
  async function listBots(token?: string): Promise<number> {
    const res = await fetch(`${served.base}/v1/admin/bots`, {
      headers: {
        'x-workspace-id': served.t.workspaceId,
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
    });
    await res.arrayBuffer();
    return res.status;
  }

  it('answers in the Prometheus text format 0.0.4 with the process metrics', async () => {
    const { res, metrics } = await scrape(served.base);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(metrics?.family('process_cpu_user_seconds_total')?.type).toBe('COUNTER');
    expect(metrics?.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(metrics?.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(metrics?.family(REQUESTS)?.type).toBe('COUNTER');
    expect(metrics?.family(DURATION)?.type).toBe('HISTOGRAM');
  });

  it('counts and times requests by operation id and status', async () => {
    const before = await metricsOf(served.base);
    for (let i = 0; i < 3; i++) expect(await listBots(served.t.owner.token)).toBe(200);
    for (let i = 0; i < 2; i++) expect(await listBots()).toBe(401);
    const nowhere = await fetch(`${served.base}/v1/nowhere`);
    expect([nowhere.status, await nowhere.text()]).toEqual([
      404,
      expect.stringContaining('ResourceNotFound'),
    ]);

    const ok = { operation: 'admin.listBots', status: '200' };
    const refused = { operation: 'admin.listBots', status: '401' };
    const unmatched = { operation: 'unmatched', status: '404' };
    // A request is counted once its answer has gone out: the last one may still be on its way.
    const after = await scrapeUntil(
      served.base,
      (m) => (m.value(REQUESTS, unmatched) ?? 0) > (before.value(REQUESTS, unmatched) ?? 0),
    );
    const moved = (read: (m: Metrics) => number | undefined) => (read(after) ?? 0) - (read(before) ?? 0);
    expect(moved((m) => m.value(REQUESTS, ok))).toBe(3);
    expect(moved((m) => m.value(REQUESTS, refused))).toBe(2);
    expect(moved((m) => m.value(REQUESTS, unmatched))).toBe(1);
    expect(moved((m) => m.count(DURATION, ok))).toBe(3);
    expect(moved((m) => m.sum(DURATION, ok))).toBeGreaterThan(0);
    // Scrapes are counted too, under the metrics route's own operation id.
    expect(moved((m) => m.value(REQUESTS, { operation: 'health.metrics', status: '200' }))).toBeGreaterThan(
      0,
    );
  });

  it('reports the open chat streams as none while none is open', async () => {
    expect((await metricsOf(served.base)).value('parley_chat_streams_open')).toBe(0);
  });

  it('keeps the metrics of two apps in one process apart', async () => {
    const other = await createTestApp({ env: { PARLEY_METRICS: 'true' } });
    try {
      const otherBase = await serve(other);
      expect(await listBots(served.t.owner.token)).toBe(200);
      const mine = await metricsOf(served.base);
      const theirs = await metricsOf(otherBase);
      expect(mine.value(REQUESTS, { operation: 'admin.listBots', status: '200' })).toBeGreaterThan(0);
      expect(theirs.value(REQUESTS, { operation: 'admin.listBots' })).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});

const pgUrl = postgresTestUrl();

describe.each([
  { dialect: 'SQLite', databaseUrl: undefined },
  { dialect: 'PostgreSQL', databaseUrl: pgUrl },
])('metrics of the job queue and the database on $dialect', ({ dialect, databaseUrl }) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    if (dialect === 'PostgreSQL' && !databaseUrl) return;
    t = await createTestApp({ env: { PARLEY_METRICS: 'true' }, ...(databaseUrl ? { databaseUrl } : {}) });
    base = await serve(t);
  });
  afterAll(() => t?.close());

  const DEPTH = 'parley_job_queue_depth';
  const AGE = 'parley_job_queue_oldest_age_seconds';

  it.skipIf(dialect === 'PostgreSQL' && !databaseUrl)(
    'reports the queued jobs and the longest wait by kind (no workers run here)',
    async () => {
      const before = await metricsOf(base);
      // Every kind is reported, at 0 while none waits.
      for (const kind of ['index_file', 'chat_reply', 'chat_webhook']) {
        expect(before.value(DEPTH, { kind, state: 'queued' })).toBe(0);
        expect(before.value(DEPTH, { kind, state: 'running' })).toBe(0);
        expect(before.value(AGE, { kind })).toBe(0);
      }
      const now = Date.now();
      const jobs = t.app.services.jobs;
      const payload = (n: number) => ({ fileId: `file_metrics${n}`, uploadVersion: 1 });
      await jobs.enqueue('index_file', payload(1), { runAfter: new Date(now - 90_000) });
      await jobs.enqueue('index_file', payload(2));
      await jobs.enqueue('index_file', payload(3));
      // Not due for an hour: it waits, but nobody has been kept waiting by it.
      await jobs.enqueue('index_file', payload(4), { runAfter: new Date(now + 3_600_000) });

      const after = await metricsOf(base);
      expect(after.value(DEPTH, { kind: 'index_file', state: 'queued' })).toBe(4);
      expect(after.value(DEPTH, { kind: 'index_file', state: 'running' })).toBe(0);
      const age = after.value(AGE, { kind: 'index_file' }) ?? 0;
      expect(age).toBeGreaterThanOrEqual(90);
      expect(age).toBeLessThan(90 + (Date.now() - now) / 1000 + 1);
      expect(after.value(DEPTH, { kind: 'chat_reply', state: 'queued' })).toBe(0);
    },
  );

  it.runIf(dialect === 'SQLite')('reports no connection pool (SQLite has one connection)', async () => {
    expect((await metricsOf(base)).family('parley_db_pool_connections')).toBeUndefined();
  });

  it.runIf(dialect === 'PostgreSQL' && databaseUrl)(
    'reports the connection pool: open, idle, and the queries waiting while every connection is busy',
    async () => {
      const POOL = 10;
      // Twelve slow queries hold the ten connections of the pool; two wait for one.
      const sleepers = Array.from({ length: POOL + 2 }, () => sql`select pg_sleep(0.5)`.execute(t.db.kysely));
      const busy = await metricsOf(base);
      expect(busy.value('parley_db_pool_connections')).toBe(POOL);
      expect(busy.value('parley_db_pool_idle_connections')).toBe(0);
      expect(busy.value('parley_db_pool_waiting_requests')).toBeGreaterThanOrEqual(2);
      await Promise.all(sleepers);

      const calm = await scrapeUntil(base, (m) => m.value('parley_db_pool_waiting_requests') === 0);
      expect(calm.value('parley_db_pool_waiting_requests')).toBe(0);
      expect(calm.value('parley_db_pool_connections')).toBe(POOL);
      expect(calm.value('parley_db_pool_idle_connections')).toBeGreaterThanOrEqual(POOL - 1);
    },
  );
});

describe('metrics when the job queue cannot be read', () => {
  const served = servedApp({ env: { PARLEY_METRICS: 'true' } });

  it('still answers every other metric, the queue gauges left out', async () => {
    await sql`drop table jobs`.execute(served.t.db.kysely);
    const metrics = await metricsOf(served.base);
    expect(metrics.value('parley_job_queue_depth', { kind: 'index_file' })).toBeUndefined();
    expect(metrics.value('parley_job_queue_oldest_age_seconds', { kind: 'index_file' })).toBeUndefined();
    expect(metrics.value('parley_chat_streams_open')).toBe(0);
    expect(metrics.value('process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});

describe('metrics of live chat streams', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PARLEY_METRICS: 'true' } });
  });
  afterAll(() => t.close());

  it('counts a stream while it is open and no more once it closes', async () => {
    const live = await liveConversation(t);
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    expect((await metricsOf(base)).value('parley_chat_streams_open')).toBe(0);

    const first = await live.listen();
    const second = await live.listen();
    expect(first.res.status).toBe(200);
    const open = await scrapeUntil(base, (m) => m.value('parley_chat_streams_open') === 2);
    expect(open.value('parley_chat_streams_open')).toBe(2);

    await first.close();
    const one = await scrapeUntil(base, (m) => m.value('parley_chat_streams_open') === 1);
    expect(one.value('parley_chat_streams_open')).toBe(1);
    await second.close();
    const none = await scrapeUntil(base, (m) => m.value('parley_chat_streams_open') === 0);
    expect(none.value('parley_chat_streams_open')).toBe(0);
  });
});

describe('metrics behind PARLEY_METRICS_TOKEN', () => {
  const served = servedApp({ env: { PARLEY_METRICS: 'true', PARLEY_METRICS_TOKEN: TOKEN } });

  for (const [name, token] of [
    ['without a token', undefined],
    ['with a wrong token', `${TOKEN}x`],
    ['with the owner’s API token', 'owner'],
  ] as const) {
    it(`refuses a scrape ${name}: 401 in the wire format`, async () => {
      const { res, text } = await scrape(served.base, token === 'owner' ? served.t.owner.token : token);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(JSON.parse(text)).toMatchObject({
        id: expect.any(String),
        code: 401,
        type: 'Unauthorized',
        message: expect.stringContaining('PARLEY_METRICS_TOKEN'),
      });
    });
  }

  it('refuses a token sent another way than Bearer', async () => {
    const res = await fetch(`${served.base}/metrics`, { headers: { authorization: `Basic ${TOKEN}` } });
    expect(res.status).toBe(401);
  });

  it('answers the metrics with the right token, the refusals counted', async () => {
    const { res, metrics } = await scrape(served.base, TOKEN);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(metrics?.value(REQUESTS, { operation: 'health.metrics', status: '401' })).toBe(4);
  });
});

describe('metrics of indexing and embedding, with the shipped USE-lite model', () => {
  let t: TestApp;
  let base: string;
  const embedder = new UseLiteEmbedder();
  /** A one-pixel PNG: indexing ends indexing_failed unsupported_format. */
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  let passages = 0;

  beforeAll(async () => {
    await embedder.ready();
    t = await createTestApp({ env: { PARLEY_METRICS: 'true' }, workers: true, embedder });
    base = await serve(t);
    const handbook = await uploadText(t, 'handbook.md', HANDBOOK);
    const logo = await store(t, 'logo.png', PNG, { index: true });
    expect((await settled(t, handbook.id, 2400)).status).toBe('indexing_completed');
    expect((await settled(t, logo.id, 2400)).status).toBe('indexing_failed');
    const res = await t.call({
      method: 'GET',
      url: `/v1/files/${handbook.id}/passages?limit=200`,
      token: t.botKey,
      headers: { 'x-bot-id': t.botId },
    });
    passages = (res.json() as { passages: unknown[] }).passages.length;
    expect(passages).toBeGreaterThan(1);
    expect((await getFile(t, logo.id)).failedStatusReason).toMatch(/^unsupported_format:/);
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await embedder.close();
  });

  it('counts the passages of completed files and the failed files by reason, and times each attempt', async () => {
    const metrics = await metricsOf(base);
    expect(metrics.value('parley_indexing_passages_total')).toBe(passages);
    expect(metrics.value('parley_indexing_failures_total', { reason: 'unsupported_format' })).toBe(1);
    expect(metrics.count('parley_indexing_duration_seconds', { outcome: 'ok' })).toBe(1);
    expect(metrics.count('parley_indexing_duration_seconds', { outcome: 'error' })).toBe(1);
    expect(metrics.sum('parley_indexing_duration_seconds', { outcome: 'ok' })).toBeGreaterThan(0);
  });

  it('times every embedder call and counts the texts, passages and queries alike', async () => {
    const model = { model: embedder.id };
    const before = await metricsOf(base);
    expect(before.value('parley_embedding_texts_total', model)).toBe(passages);
    const calls = before.count('parley_embedding_duration_seconds', { ...model, outcome: 'ok' }) ?? 0;
    expect(calls).toBeGreaterThanOrEqual(1);

    const search = await t.call({
      method: 'GET',
      url: `/v1/files/search?query=${encodeURIComponent('when do parcels leave?')}&mode=semantic`,
      token: t.botKey,
      headers: { 'x-bot-id': t.botId },
    });
    expect(search.statusCode, search.body).toBe(200);
    const after = await metricsOf(base);
    expect(after.value('parley_embedding_texts_total', model)).toBe(passages + 1);
    expect(after.count('parley_embedding_duration_seconds', { ...model, outcome: 'ok' })).toBe(calls + 1);
    expect(after.sum('parley_embedding_duration_seconds', model)).toBeGreaterThan(
      before.sum('parley_embedding_duration_seconds', model) ?? 0,
    );
  });
});
