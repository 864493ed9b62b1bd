import { Client, type KnowledgeSource } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listeningApp, parley } from '../../testkit/src/server/cli.js';
import { testSite } from '../../testkit/src/server/test-site.js';
import { scheduleOf } from './kb-sites.js';

/** `parley kb add-site|sources|sync|set-site|stop-site|rm-site` against a site served on 127.0.0.1 (issue #36). */
describe('parley kb add-site|sources|sync|set-site|stop-site|rm-site (over HTTP)', () => {
  const site = testSite({ pages: 6, pageDelayMs: 150 });
  const slow = testSite({ pages: 40, pageDelayMs: 300 });
  let base = '';
  let slowBase = '';
  let app: Awaited<ReturnType<typeof listeningApp>>;
  let client: Client;

  beforeAll(async () => {
    base = await site.start();
    slowBase = await slow.start();
    app = await listeningApp({ env: { PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES: 'true' } });
    client = new Client({ apiUrl: app.apiUrl, token: app.owner.token, botId: app.botId });
    await client.createKnowledgeBase({ name: 'Help' });
  });
  afterAll(async () => {
    await app.close();
    await site.stop();
    await slow.stop();
  });

  const sourcesOf = async () => {
    const [kb] = await client.list.knowledgeBases({ pageSize: 100 }).collect();
    return (await client.listKnowledgeSources({ id: kb?.id as string })).sources;
  };

  it('add-site creates the source, follows the crawl to its end and sums it up with the skipped reasons', async () => {
    const run = await parley(
      [
        'kb',
        'add-site',
        'Help',
        `${base}/`,
        '--exclude',
        '/docs/p2',
        '--max-depth',
        '3',
        '--schedule',
        'daily',
      ],
      app.env,
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const [source] = await sourcesOf();
    expect(source).toMatchObject({ state: 'idle', schedule: 'daily', exclude: ['/docs/p2'], maxDepth: 3 });
    const lines = run.out.split('\n');
    expect(lines[0]).toBe(`added ${source?.id} ${base}/ to Help; crawling`);
    // Progress lines until it ends (queued, then running: each docs page takes 150 ms), then the summary.
    expect(
      lines.some((l) =>
        /^(queued|running): found \d+ · fetched \d+ · indexed \d+ · unchanged 0 · skipped \d+/.test(l),
      ),
    ).toBe(true);
    // Home, 5 docs pages (p2 excluded), the moved page and the PDF.
    expect(run.out).toMatch(
      new RegExp(
        `${base}/: completed in [\\d.]+ s — found \\d+, fetched \\d+, indexed 8, unchanged 0, skipped \\d+, removed 0 .*; 8 page\\(s\\) in the knowledge base\\n`,
      ),
    );
    expect(run.out).toContain(`  robots (1): ${base}/private/secret\n`);
    expect(run.out).toContain(`  excluded (1): ${base}/docs/p2\n`);
    expect(run.out).toContain(`  http_404 (1): ${base}/missing\n`);
    expect(run.out).toContain(`  content_type image/png (1): ${base}/logo.png\n`);

    const list = await parley(['kb', 'sources', 'Help'], app.env);
    expect(list.out).toMatch(
      new RegExp(
        `^ID +URL +STATE +PAGES +SCHEDULE +LAST RUN\\n${source?.id} +${base}/ +idle +8 +daily +completed \\d{4}-`,
      ),
    );
  });

  it('sync crawls again and reports only the changed page as indexed; --json prints the source', async () => {
    const [source] = (await sourcesOf()) as KnowledgeSource[];
    site.edits.set(4, 1);
    const run = await parley(['kb', 'sync', 'Help', source?.id as string, '--json'], app.env);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const { source: after } = JSON.parse(run.out) as { source: KnowledgeSource };
    expect(after.runs).toHaveLength(2);
    expect(after.runs[0]).toMatchObject({ outcome: 'completed', counts: { indexed: 1, unchanged: 7 } });
  });

  it('stop-site stops a running crawl, rm-site deletes the source; bad input is refused', async () => {
    const added = await parley(['kb', 'add-site', 'Help', `${slowBase}/`, '--no-wait', '--json'], app.env);
    expect(added.code).toBe(0);
    const { source } = JSON.parse(added.out) as { source: KnowledgeSource };
    expect(source.state).toBe('queued');
    const stop = await parley(['kb', 'stop-site', 'Help', source.id], app.env);
    expect(stop.out).toMatch(new RegExp(`^${source.id}: (stopping|idle)\\n$`));
    const [kb] = await client.list.knowledgeBases({ pageSize: 100 }).collect();
    await expect
      .poll(
        async () =>
          (await client.getKnowledgeSource({ id: kb?.id as string, sourceId: source.id })).source.runs[0]
            ?.outcome,
        {
          timeout: 30_000,
          interval: 100,
        },
      )
      .toBe('stopped');
    expect((await parley(['kb', 'rm-site', 'Help', source.id], app.env)).out).toBe(`deleted ${source.id}\n`);
    expect((await sourcesOf()).map((s) => s.id)).not.toContain(source.id);

    const bad = await parley(['kb', 'add-site', 'Help', 'ftp://127.0.0.1/x'], app.env);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('InvalidPayload');
    const badSchedule = await parley(['kb', 'add-site', 'Help', `${base}/`, '--schedule', 'hourly'], app.env);
    expect(badSchedule.code).toBe(2);
    expect(badSchedule.err).toContain('a cron expression of five fields');
    // Five fields the server cannot read as cron: its 400, and nothing made.
    const badCron = await parley(['kb', 'add-site', 'Help', `${base}/`, '--schedule', '61 * * * *'], app.env);
    expect(badCron.code).toBe(1);
    expect(badCron.err).toContain('InvalidPayload');
    expect(badCron.err).toContain('not a cron expression');
    expect((await sourcesOf()).length).toBe(1);
  });

  it("set-site changes a source's schedule, patterns and limits; nothing to change exits 2, a bad cron 1, both changing nothing", async () => {
    const [source] = await sourcesOf();
    const id = source?.id as string;
    const run = await parley(
      ['kb', 'set-site', 'Help', id, '--schedule', '0 3 * * 1', '--include', '/docs/**', '--max-pages', '40'],
      app.env,
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(
      new RegExp(
        `^${id}: schedule 0 3 \\* \\* 1 \\(next \\S+T03:00:00\\.000Z\\) · include /docs/\\*\\* · exclude /docs/p2 · max pages 40 · max depth 3\\n$`,
      ),
    );
    expect((await sourcesOf())[0]).toMatchObject({
      schedule: '0 3 * * 1',
      include: ['/docs/**'],
      maxPages: 40,
    });
    const cleared = await parley(['kb', 'set-site', 'Help', id, '--no-include', '--json'], app.env);
    expect(cleared.code).toBe(0);
    expect((JSON.parse(cleared.out) as { source: KnowledgeSource }).source.include).toEqual([]);

    const nothing = await parley(['kb', 'set-site', 'Help', id], app.env);
    expect(nothing.code).toBe(2);
    expect(nothing.err).toContain('nothing to change');
    const badCron = await parley(
      ['kb', 'set-site', 'Help', id, '--schedule', '*/10 * * * *', '--max-pages', '9'],
      app.env,
    );
    expect(badCron.code).toBe(1);
    expect(badCron.err).toContain('more often than once an hour');
    expect((await sourcesOf())[0]).toMatchObject({ schedule: '0 3 * * 1', include: [], maxPages: 40 });
  });

  it('add-site --render-js asks for pages rendered by JavaScript: refused where the server does not render', async () => {
    const run = await parley(['kb', 'add-site', 'Help', `${base}/`, '--render-js'], app.env);
    expect(run.code).toBe(1);
    expect(run.err).toContain('InvalidPayload');
    expect(run.err).toContain('PARLEY_CRAWL_RENDER_JS=true');
    expect((await sourcesOf()).length).toBe(1);
  });
});

describe('--schedule', () => {
  it('takes off, daily, weekly or five cron fields (spaces squeezed), and refuses the rest', () => {
    expect(scheduleOf('weekly')).toBe('weekly');
    expect(scheduleOf(' 0  3 * *  1 ')).toBe('0 3 * * 1');
    for (const bad of ['hourly', '@daily', '0 3 * *', '0 0 3 * * 1', ''])
      expect(() => scheduleOf(bad), bad).toThrow('a cron expression of five fields');
  });
});
