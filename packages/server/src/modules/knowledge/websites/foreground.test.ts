import type { KnowledgeSource } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../../../testkit/src/server/files-api.js';
import { useTestApp } from '../../../../../testkit/src/server/fixtures.js';
import { postgresTestUrl } from '../../../../../testkit/src/server/harness.js';
import { hashVector } from '../../../../../testkit/src/server/hash-vector.js';
import { testSite } from '../../../../../testkit/src/server/test-site.js';
import { crawlFinished } from '../../../../../testkit/src/server/website-sources.js';
import { eventually } from '../../../../../testkit/src/shared/eventually.js';
import type { Embedder, EmbedPriority } from '../../../search/types.js';

/**
 * The foreground first (issue #36, jobs/foreground.ts), against a real crawl of a site served on 127.0.0.1: a
 * search in flight is answered before the crawl takes its first page, and a search that never ends does not
 * stop a crawl from finishing (each unit waits at most PARLEY_BACKGROUND_MAX_WAIT_MS). The search is held in
 * flight by its query embedding, which waits for the test; the pages are embedded at once.
 */

const KB = '/v1/files/knowledge-bases';
const PAGES = 6;

/** Word vectors; a search's query embedding (interactive) waits until `release` is called. */
class HeldQueries implements Embedder {
  readonly id = 'test-hash-64';
  readonly dimensions = 64;
  private held: Promise<void> = Promise.resolve();
  release: () => void = () => undefined;

  hold(): void {
    this.held = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  async embed(texts: string[], _signal?: AbortSignal, priority?: EmbedPriority): Promise<Float32Array[]> {
    if (priority !== 'bulk') await this.held;
    return texts.map((t) => hashVector(t));
  }

  async close(): Promise<void> {}
}

function foregroundSuite(maxWaitMs: number, databaseUrl?: string) {
  const site = testSite({ pages: PAGES });
  let base = '';
  beforeAll(async () => {
    base = await site.start();
  });
  afterAll(() => site.stop());
  const embedder = new HeldQueries();
  const t = useTestApp({
    workers: true,
    embedder,
    env: {
      PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES: 'true',
      PARLEY_INDEXING_CONCURRENCY: '1',
      PARLEY_BACKGROUND_MAX_WAIT_MS: String(maxWaitMs),
    },
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  const as = (method: 'GET' | 'POST', url: string, body?: unknown) => callAs(t, t.botKey, method, url, body);

  /** A search held in flight (counted by the HTTP layer), and a knowledge base with the site as its source. */
  async function crawlWhileSearching() {
    embedder.hold();
    const gate = t.app.services.foreground;
    const search = as('GET', '/v1/files/search?query=docs');
    await eventually(async () => gate.inFlight === 1, 10_000, 5, 'the search to be in flight');
    const kb = await as('POST', KB, { name: `site ${maxWaitMs}` });
    const kbId = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    const res = await as('POST', `${KB}/${kbId}/sources`, { type: 'website', url: `${base}/` });
    expect(res.statusCode, res.body).toBe(201);
    const sourceId = (res.json() as { source: KnowledgeSource }).source.id;
    return { gate, search, kbId, sourceId };
  }

  return { t, embedder, as, crawlWhileSearching, site: () => site };
}

function answeredFirstSuite(databaseUrl?: string) {
  // A bound far longer than the test: the crawl goes on only once the search is answered.
  const { t, embedder, crawlWhileSearching, site } = foregroundSuite(60_000, databaseUrl);

  it('answers a search in flight before the crawl fetches anything', async () => {
    const { gate, search, kbId, sourceId } = await crawlWhileSearching();
    // The crawl worker (and the indexing one) are ready and held: both wait on the gate.
    await eventually(async () => gate.waiting === 2, 10_000, 5, 'the crawl and indexing workers to wait');
    expect(site().requests).toEqual([]);
    embedder.release();
    const fetchedWhenAnswered = await search.then((res) => {
      expect(res.statusCode, res.body).toBe(200);
      return site().requests.length;
    });
    expect(fetchedWhenAnswered).toBe(0);
    const source = await crawlFinished(t, kbId, sourceId);
    expect(source.runs[0]).toMatchObject({ outcome: 'completed' });
    expect(source.runs[0]?.counts.indexed).toBeGreaterThanOrEqual(PAGES);
    expect(gate.outcomes.foreground_ended).toBeGreaterThan(0);
    expect(gate.outcomes.bound_reached).toBe(0);
  });
}

function noStarvationSuite(databaseUrl?: string) {
  const { t, embedder, as, crawlWhileSearching } = foregroundSuite(20, databaseUrl);

  it('crawls and indexes every page while a search stays in flight, each unit waiting at most the bound', async () => {
    const { gate, search, kbId, sourceId } = await crawlWhileSearching();
    const source = await crawlFinished(t, kbId, sourceId);
    expect(source.runs[0]).toMatchObject({ outcome: 'completed' });
    expect(source.runs[0]?.counts.indexed).toBeGreaterThanOrEqual(PAGES);
    // Indexed too, all while the search was still in flight.
    const waiting = 'status=upload_pending&status=upload_completed&status=indexing_pending';
    await eventually(
      async () =>
        ((await as('GET', `/v1/files?${waiting}`)).json() as { files: unknown[] }).files.length === 0,
      60_000,
      25,
      'the pages to be indexed',
    );
    expect(gate.inFlight).toBe(1);
    expect(gate.outcomes.bound_reached).toBeGreaterThan(0);
    embedder.release();
    expect((await search).statusCode).toBe(200);
    const found = await as('GET', '/v1/files/search?query=docs');
    expect((found.json() as { passages: unknown[] }).passages.length).toBeGreaterThan(0);
  });
}

const pgUrl = postgresTestUrl();

describe('the foreground first: a search in flight is answered before the crawl goes on (SQLite)', () =>
  answeredFirstSuite());
describe.skipIf(!pgUrl)('the foreground first: a search in flight is answered first (PostgreSQL)', () =>
  answeredFirstSuite(pgUrl),
);
describe('the foreground first: background work never starves (SQLite)', () => noStarvationSuite());
describe.skipIf(!pgUrl)('the foreground first: background work never starves (PostgreSQL)', () =>
  noStarvationSuite(pgUrl),
);
