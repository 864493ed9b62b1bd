import type { KnowledgeSource } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useClockedApp } from '../../../../../testkit/src/server/clocked-app-fixture.js';
import { callAs } from '../../../../../testkit/src/server/files-api.js';
import { settled } from '../../../../../testkit/src/server/files-indexing.js';
import { useTestApp } from '../../../../../testkit/src/server/fixtures.js';
import { postgresTestUrl } from '../../../../../testkit/src/server/harness.js';
import { SITE_PAGES as PAGES, testSite } from '../../../../../testkit/src/server/test-site.js';
import { crawlFinished } from '../../../../../testkit/src/server/website-sources.js';
import { expectError } from '../../../../../testkit/src/server/wire.js';

/**
 * Website sources (issue #36) against a real site served on 127.0.0.1: robots.txt with a Disallow and a
 * Sitemap line, a sitemap index, 50 pages sharing a menu and a footer, a redirect, an external link, a 404, a
 * PDF and an image. The crawl takes exactly the allowed pages, keeps no menu or footer text, re-indexes only
 * the pages that changed, stops when asked, and the outbound guard refuses 127.0.0.1 by default.
 */

const KB = '/v1/files/knowledge-bases';

function websiteSuite(databaseUrl?: string) {
  const site = testSite();
  let base = '';
  beforeAll(async () => {
    base = await site.start();
  });
  afterAll(() => site.stop());
  const t = useTestApp({
    workers: true,
    env: { PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES: 'true' },
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  const as = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
    callAs(t, t.botKey, method, url, body);
  let kbId = '';
  let source: KnowledgeSource;

  beforeAll(async () => {
    const kb = await as('POST', KB, { name: 'Help centre' });
    kbId = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
  });

  const linkedKeys = async () => {
    const res = await as('GET', `${KB}/${kbId}/files`);
    return (res.json() as { files: Array<{ key: string; fileId: string }> }).files;
  };

  it('crawls exactly the allowed pages into files of the bot, with title and URL', async () => {
    const res = await as('POST', `${KB}/${kbId}/sources`, { type: 'website', url: `${base}/` });
    expect(res.statusCode, res.body).toBe(201);
    const created = (res.json() as { source: KnowledgeSource }).source;
    expect(created).toMatchObject({ state: 'queued', maxPages: 500, schedule: 'off', url: `${base}/` });
    source = await crawlFinished(t, kbId, created.id, 1);
    const host = new URL(base).host;
    const expected = [
      `web/${host}/index`,
      `web/${host}/docs/new`,
      `web/${host}/files/guide.pdf`,
      ...Array.from({ length: PAGES }, (_, i) => `web/${host}/docs/p${i + 1}`),
    ].sort();
    const files = await linkedKeys();
    expect(files.map((f) => f.key).sort()).toEqual(expected);
    expect(source.runs[0]).toMatchObject({ outcome: 'completed', counts: { indexed: expected.length } });
    expect(source.pages).toBe(expected.length);
    const reasons = Object.fromEntries(source.skipped.map((s) => [new URL(s.url).pathname, s.reason]));
    expect(reasons).toMatchObject({
      '/private/secret': 'robots',
      '/elsewhere': 'other_host',
      '/missing': 'http_404',
      '/logo.png': 'content_type image/png',
    });
    // An honest User-Agent naming Parley, on every request.
    expect(site.requests.every((r) => / Parley\/\d+\.\d+\.\d+ \(knowledge crawler/.test(r))).toBe(true);
    expect(site.requests.some((r) => r.startsWith('/private/'))).toBe(false);
    const file = files.find((f) => f.key.endsWith('/docs/p17')) as { fileId: string };
    const p17 = await callAs(t, t.botKey, 'GET', `/v1/files/${file.fileId}`);
    expect((p17.json() as { file: { metadata: unknown; tags: unknown } }).file).toMatchObject({
      metadata: { title: 'Topic 17', sourceUrl: `${base}/docs/p17` },
      tags: { webSource: source.id },
    });
  });

  it('keeps the main content only: no passage holds the menu, cookie banner or footer', async () => {
    for (const f of await linkedKeys()) if (!f.key.endsWith('.pdf')) await settled(t, f.fileId, 2400);
    const search = async (q: string) => {
      const res = await as('GET', `/v1/files/search?query=${encodeURIComponent(q)}&limit=50`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { passages: Array<{ content: string; file: { key: string } }> }).passages;
    };
    const found = await search('zebra17quokka');
    expect(found[0]?.file.key).toMatch(/\/docs\/p17$/);
    for (const word of ['MENUWORD', 'FOOTERWORD', 'COOKIEWORD'])
      expect((await search(word)).filter((p) => p.content.includes(word))).toEqual([]);
  });

  it('re-indexes exactly the 3 pages that changed on a sync', async () => {
    for (const n of [3, 14, 41]) site.edits.set(n, 1);
    const res = await as('POST', `${KB}/${kbId}/sources/${source.id}/sync`);
    expect(res.statusCode, res.body).toBe(200);
    const again = await crawlFinished(t, kbId, source.id, 2);
    expect(again.runs[0]?.counts).toMatchObject({ indexed: 3, unchanged: again.pages - 3 });
    expect(again.runs).toHaveLength(2);
  });

  it('asks one page at a time while it extracts and writes the one before', async () => {
    const slow = testSite({ pages: 12, pageDelayMs: 40 });
    const slowBase = await slow.start();
    try {
      const kb = await as('POST', KB, { name: 'Slow site' });
      const slowKb = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
      const res = await as('POST', `${KB}/${slowKb}/sources`, { type: 'website', url: `${slowBase}/` });
      const done = await crawlFinished(t, slowKb, (res.json() as { source: KnowledgeSource }).source.id, 1);
      expect(done.runs[0]).toMatchObject({ outcome: 'completed', counts: { indexed: 12 + 3 } });
      expect(slow.mostAtOnce()).toBe(1);
    } finally {
      await slow.stop();
    }
  });

  it('refuses a second source of the same host in the knowledge base with 409, the first one untouched', async () => {
    const host = new URL(base).host;
    const before = await linkedKeys();
    const res = await as('POST', `${KB}/${kbId}/sources`, { type: 'website', url: `${base}/docs/p1` });
    const error = expectError(res, 409, 'AlreadyExists');
    expect(error.message).toContain(`website source of ${host} (${source.id}`);
    const list = await as('GET', `${KB}/${kbId}/sources`);
    expect((list.json() as { sources: KnowledgeSource[] }).sources.map((s) => s.id)).toEqual([source.id]);
    expect(await linkedKeys()).toEqual(before);
  });

  it("keeps a source of the same host in another knowledge base of the bot apart: its crawl and deletion leave this one's pages", async () => {
    const before = await linkedKeys();
    const kb = await as('POST', KB, { name: 'Second help centre' });
    const otherKb = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    const res = await as('POST', `${KB}/${otherKb}/sources`, { type: 'website', url: `${base}/` });
    expect(res.statusCode, res.body).toBe(201);
    const other = await crawlFinished(t, otherKb, (res.json() as { source: KnowledgeSource }).source.id, 1);
    expect(other.runs[0]).toMatchObject({ outcome: 'completed', counts: { indexed: before.length } });
    const otherFiles = ((await as('GET', `${KB}/${otherKb}/files`)).json() as { files: typeof before }).files;
    // Its own files, keyed by its id: none is one of this source's.
    const host = new URL(base).host;
    expect(otherFiles.map((f) => f.key).sort()).toEqual(
      before.map((f) => f.key.replace(`web/${host}/`, `web/${other.id}/${host}/`)).sort(),
    );
    expect(otherFiles.filter((f) => before.some((mine) => mine.fileId === f.fileId))).toEqual([]);
    expect(await linkedKeys()).toEqual(before);

    const del = await as('DELETE', `${KB}/${otherKb}/sources/${other.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(await linkedKeys()).toEqual(before);
    const p17 = before.find((f) => f.key.endsWith('/docs/p17')) as { fileId: string };
    const file = await as('GET', `/v1/files/${p17.fileId}`);
    expect(file.statusCode, file.body).toBe(200);
    expect((file.json() as { file: { tags: unknown } }).file.tags).toEqual({ webSource: source.id });
  });

  it('stops a crawl when asked, and deleting the source removes its pages', async () => {
    const kb = await as('POST', KB, { name: 'Stopped' });
    const stoppedKb = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    const res = await as('POST', `${KB}/${stoppedKb}/sources`, { type: 'website', url: `${base}/` });
    const id = (res.json() as { source: KnowledgeSource }).source.id;
    const stop = await as('POST', `${KB}/${stoppedKb}/sources/${id}/stop`);
    expect(stop.statusCode, stop.body).toBe(200);
    const stopped = await crawlFinished(t, stoppedKb, id, 1);
    expect(stopped.runs[0]?.outcome).toBe('stopped');
    // The stop is noticed before each next page: a crawl that had already begun keeps the pages in flight then
    // (two at a time, crawler.ts), not the site's other 51.
    expect(stopped.pages).toBeLessThanOrEqual(2);
    expect(stopped.runs[0]?.counts.indexed ?? 0).toBeLessThanOrEqual(2);

    const del = await as('DELETE', `${KB}/${kbId}/sources/${source.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(await linkedKeys()).toEqual([]);
    expectError(await as('GET', `${KB}/${kbId}/sources/${source.id}`), 404, 'ResourceNotFound');
  });
}

describe('website sources (SQLite)', () => websiteSuite());
const pgUrl = postgresTestUrl();
describe.skipIf(!pgUrl)('website sources (PostgreSQL)', () => websiteSuite(pgUrl));

describe('website sources: bad input, rights and the outbound guard', () => {
  const site = testSite();
  let base = '';
  beforeAll(async () => {
    base = await site.start();
  });
  afterAll(() => site.stop());
  const { t, clock } = useClockedApp({ workers: true });
  let kbId = '';
  let viewer = '';
  beforeAll(async () => {
    const kb = await callAs(t, t.botKey, 'POST', KB, { name: 'Guarded' });
    kbId = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    viewer = (await t.addMember('viewer')).token;
  });
  const add = (body: Record<string, unknown>, token = t.botKey, kb = kbId) =>
    callAs(t, token, 'POST', `${KB}/${kb}/sources`, { type: 'website', ...body });

  it('answers 400 for a bad URL or another scheme, 404 for an unknown knowledge base, 403 for a viewer', async () => {
    expect(expectError(await add({ url: 'not a url' }), 400, 'InvalidPayload').message).toContain('url');
    expect(expectError(await add({ url: 'ftp://127.0.0.1/x' }), 400, 'InvalidPayload').message).toContain(
      'http',
    );
    expectError(await add({ url: `${base}/`, maxPages: 0 }), 400, 'InvalidPayload');
    expectError(await add({ url: `${base}/` }, t.botKey, 'kb_unknown'), 404, 'ResourceNotFound');
    expectError(await add({ url: `${base}/` }, viewer), 403, 'Forbidden');
    const list = await callAs(t, t.botKey, 'GET', `${KB}/${kbId}/sources`);
    expect((list.json() as { sources: unknown[] }).sources).toEqual([]);
    const viewed = await callAs(t, viewer, 'GET', `${KB}/${kbId}/sources`);
    expect(viewed.statusCode, viewed.body).toBe(200);
  });

  it('answers 400 naming the schedule for a cron expression it cannot read, one too often, or not five fields', async () => {
    const refused = async (schedule: string, words: string) => {
      const error = expectError(await add({ url: `${base}/`, schedule }), 400, 'InvalidPayload');
      expect(error.message).toContain('schedule');
      expect(error.message).toContain(words);
    };
    await refused('61 * * * *', 'not a cron expression');
    await refused('*/0 * * * *', 'not a cron expression');
    await refused('*/30 * * * *', 'more often than once an hour (runs 30 min apart)');
    await refused('* 3 * * *', 'more often than once an hour (runs 1 min apart)');
    await refused('0 3 30 2 *', 'never runs again');
    // Not five fields (seconds, a nickname, a sixth field) or not a named schedule: the request's own shape.
    expectError(await add({ url: `${base}/`, schedule: '@daily' }), 400, 'InvalidPayload');
    expectError(await add({ url: `${base}/`, schedule: '0 0 3 * * 1' }), 400, 'InvalidPayload');
    expectError(await add({ url: `${base}/`, schedule: 'hourly' }), 400, 'InvalidPayload');
    // Nothing was made.
    const list = await callAs(t, t.botKey, 'GET', `${KB}/${kbId}/sources`);
    expect((list.json() as { sources: unknown[] }).sources).toEqual([]);
  });

  it('refuses to crawl 127.0.0.1 without PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES', async () => {
    const res = await add({ url: `${base}/` });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { source: KnowledgeSource }).source.id;
    const source = await crawlFinished(t, kbId, id, 1);
    expect(source.pages).toBe(0);
    expect(source.skipped).toEqual([{ url: `${base}/`, reason: 'blocked_address' }]);
    expect(site.requests).toEqual([]);
  });

  // The source the test above made (its crawl refused): changed below.
  let source: KnowledgeSource;
  const patch = (body: unknown, token = t.botKey, id = source.id) =>
    callAs(t, token, 'PUT', `${KB}/${kbId}/sources/${id}`, body);
  const current = async () =>
    (
      (await callAs(t, t.botKey, 'GET', `${KB}/${kbId}/sources/${source.id}`)).json() as {
        source: KnowledgeSource;
      }
    ).source;

  it('changes the settings given, keeps the others, and counts a new schedule from now', async () => {
    const list = await callAs(t, t.botKey, 'GET', `${KB}/${kbId}/sources`);
    [source] = (list.json() as { sources: [KnowledgeSource] }).sources;
    expect(source).toMatchObject({ schedule: 'off', include: [], maxPages: 500, maxDepth: 10 });
    expect(source.nextSyncAt).toBeUndefined();
    const res = await patch({ schedule: 'weekly', include: ['/docs/**'], maxPages: 50 });
    expect(res.statusCode, res.body).toBe(200);
    const changed = (res.json() as { source: KnowledgeSource }).source;
    expect(changed).toMatchObject({
      schedule: 'weekly',
      include: ['/docs/**'],
      exclude: [],
      maxPages: 50,
      maxDepth: 10,
      url: `${base}/`,
      runs: source.runs,
    });
    expect(changed.nextSyncAt).toBe(new Date(clock.ms + 7 * 86_400_000).toISOString());
    // A cron, then off again: no next crawl.
    const cron = (await patch({ schedule: '30 4 * * *' })).json() as { source: KnowledgeSource };
    expect(cron.source.schedule).toBe('30 4 * * *');
    expect(new Date(cron.source.nextSyncAt as string).toISOString()).toMatch(/T04:30:00\.000Z$/);
    const off = (await patch({ schedule: 'off' })).json() as { source: KnowledgeSource };
    expect(off.source.schedule).toBe('off');
    expect(off.source.nextSyncAt).toBeUndefined();
    expect(await current()).toMatchObject({ schedule: 'off', include: ['/docs/**'], maxPages: 50 });
  });

  it('answers 400 for nothing to change, its URL or a bad schedule, 403 for a viewer, 404 for another source, and changes nothing', async () => {
    const before = await current();
    expectError(await patch({}), 400, 'InvalidPayload');
    expectError(await patch({ url: 'https://example.com/' }), 400, 'InvalidPayload');
    expectError(await patch({ maxPages: 0 }), 400, 'InvalidPayload');
    expect(
      expectError(await patch({ schedule: '*/5 * * * *', maxPages: 20 }), 400, 'InvalidPayload').message,
    ).toContain('more often than once an hour');
    expectError(await patch({ maxPages: 20 }, viewer), 403, 'Forbidden');
    expectError(await patch({ maxPages: 20 }, t.botKey, 'src_unknown'), 404, 'ResourceNotFound');
    expect(await current()).toEqual(before);
  });
});

/**
 * A crawled page answers: the bot's reply (the answer preview, the reply the chat gives) quotes the page and links
 * its URL, not a stored copy (the default `sourceLinks: public` links an http(s) `sourceUrl`). And the schedule:
 * a daily source is queued again once its time comes on the injected clock, an `off` one never.
 */
function answersAndScheduleSuite(databaseUrl?: string) {
  const site = testSite({
    pages: 2,
    extra: {
      '/help/returns': {
        title: 'Returns and refunds',
        body: '<h2>Returning an item</h2><p>You may return any item within 30 days of delivery for a full refund, shipping included.</p>',
      },
    },
  });
  const other = testSite({ pages: 1 });
  let base = '';
  let otherBase = '';
  beforeAll(async () => {
    base = await site.start();
    otherBase = await other.start();
  });
  afterAll(async () => {
    await site.stop();
    await other.stop();
  });
  const { t, clock } = useClockedApp(() => ({
    workers: true,
    env: { PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES: 'true' },
    ...(databaseUrl ? { databaseUrl } : {}),
  }));
  const as = (method: 'GET' | 'POST', url: string, body?: unknown) => callAs(t, t.botKey, method, url, body);
  let kbId = '';
  let daily: KnowledgeSource;
  let off: KnowledgeSource;
  let cron: KnowledgeSource;
  let cronKbId = '';
  /** The cron source's first time: a daily minute 90 minutes after the clock's start (the clock stands still). */
  let cronAt = 0;

  beforeAll(async () => {
    const kb = await as('POST', KB, { name: 'Help centre' });
    kbId = (kb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    const add = async (schedule: string, url: string) => {
      const res = await as('POST', `${KB}/${kbId}/sources`, { type: 'website', url, schedule });
      expect(res.statusCode, res.body).toBe(201);
      return crawlFinished(t, kbId, (res.json() as { source: KnowledgeSource }).source.id, 1);
    };
    daily = await add('daily', `${base}/`);
    off = await add('off', `${otherBase}/docs/p1`);
    // A cron schedule, in a knowledge base of its own (a source per host and knowledge base).
    cronAt = Math.floor((clock.ms + 90 * 60_000) / 60_000) * 60_000;
    const at = new Date(cronAt);
    const cronKb = await as('POST', KB, { name: 'Release notes' });
    cronKbId = (cronKb.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    const made = await as('POST', `${KB}/${cronKbId}/sources`, {
      type: 'website',
      url: `${otherBase}/`,
      schedule: `${at.getUTCMinutes()} ${at.getUTCHours()} * * *`,
    });
    expect(made.statusCode, made.body).toBe(201);
    cron = await crawlFinished(t, cronKbId, (made.json() as { source: KnowledgeSource }).source.id, 1);
    const files = (await as('GET', `${KB}/${kbId}/files`)).json() as { files: Array<{ fileId: string }> };
    for (const f of files.files) await settled(t, f.fileId, 2400);
  });

  it("answers a question from a crawled page and links the page's URL", async () => {
    const res = await t.asOwner('POST', `/v1/admin/bots/${t.botId}/answer-preview`, {
      question: 'How many days do I have to return an item?',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { found: boolean; text: string; sources: Array<{ key: string }> };
    expect(body.found).toBe(true);
    expect(body.text).toContain('within 30 days of delivery');
    expect(body.sources[0]?.key).toBe(`web/${new URL(base).host}/help/returns`);
    expect(body.text).toContain(`[Returns and refunds](${base}/help/returns)`);
  });

  it('queues a cron source at its times (UTC), and again at the next one', async () => {
    const at = new Date(cronAt);
    expect(cron.schedule).toBe(`${at.getUTCMinutes()} ${at.getUTCHours()} * * *`);
    expect(cron.nextSyncAt).toBe(at.toISOString());
    const state = async () => {
      const res = await as('GET', `${KB}/${cronKbId}/sources/${cron.id}`);
      return (res.json() as { source: KnowledgeSource }).source;
    };
    // A minute before its time: a tick queues nothing.
    clock.advance(cronAt - clock.ms - 60_000);
    await t.app.services.runner.tick();
    expect((await state()).state).toBe('idle');
    // Its time: queued, crawled again, and next at the same minute the day after.
    clock.advance(2 * 60_000);
    await t.app.services.runner.tick();
    expect(['queued', 'running']).toContain((await state()).state);
    const again = await crawlFinished(t, cronKbId, cron.id, 2);
    expect(again.runs[0]?.outcome).toBe('completed');
    expect(again.nextSyncAt).toBe(new Date(cronAt + 86_400_000).toISOString());
  });

  it('queues a daily source again once its time comes, and an off one never', async () => {
    expect(daily.nextSyncAt).toBeDefined();
    expect(off.nextSyncAt).toBeUndefined();
    const due = Date.parse(daily.nextSyncAt as string);
    const state = async (id: string) => {
      const res = await as('GET', `${KB}/${kbId}/sources/${id}`);
      return (res.json() as { source: KnowledgeSource }).source;
    };
    // Not yet due: a tick queues nothing.
    clock.advance(due - clock.ms - 60_000);
    await t.app.services.runner.tick();
    expect((await state(daily.id)).state).toBe('idle');
    // Due: the tick queues the daily source, which runs again; the off one stays as it was.
    clock.advance(2 * 60_000);
    await t.app.services.runner.tick();
    expect(['queued', 'running']).toContain((await state(daily.id)).state);
    const again = await crawlFinished(t, kbId, daily.id, 2);
    expect(again.runs[0]?.outcome).toBe('completed');
    expect(Date.parse(again.nextSyncAt as string)).toBeGreaterThan(due);
    // A week later (the daily one queued again meanwhile), the off source has still run once.
    clock.advance(7 * 24 * 3_600_000);
    await t.app.services.runner.tick();
    expect(await state(off.id)).toMatchObject({ state: 'idle', runs: [expect.anything()] });
  });

  it('keeps a schedule changed while its crawl runs: the next crawl follows the new one', async () => {
    other.setPageDelay(1500);
    try {
      const synced = await as('POST', `${KB}/${kbId}/sources/${off.id}/sync`);
      expect(synced.statusCode, synced.body).toBe(200);
      await expect
        .poll(
          async () =>
            ((await as('GET', `${KB}/${kbId}/sources/${off.id}`)).json() as { source: KnowledgeSource })
              .source.state,
        )
        .toBe('running');
      const changed = await callAs(t, t.botKey, 'PUT', `${KB}/${kbId}/sources/${off.id}`, {
        schedule: 'weekly',
      });
      expect(changed.statusCode, changed.body).toBe(200);
    } finally {
      other.setPageDelay(0);
    }
    const ended = await crawlFinished(t, kbId, off.id, 2);
    expect(ended.schedule).toBe('weekly');
    expect(ended.nextSyncAt).toBe(new Date(clock.ms + 7 * 86_400_000).toISOString());
  });
}

describe('website sources: answers and the schedule (SQLite)', () => answersAndScheduleSuite());
describe.skipIf(!pgUrl)('website sources: answers and the schedule (PostgreSQL)', () =>
  answersAndScheduleSuite(pgUrl),
);
