import { beforeAll, describe, expect, it } from 'vitest';
import { caller, expectInvalid } from '../../../../testkit/src/server/admin-calls.js';
import { useFixture, useTestApp } from '../../../../testkit/src/server/fixtures.js';
import type { TestApp } from '../../../../testkit/src/server/harness.js';
import { badFields, expectError } from '../../../../testkit/src/server/wire.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

interface BotBody {
  id: string;
  workspaceId: string;
  createdAt: string;
  updatedAt: string;
  deployedAt: string;
  name: string;
  description: string;
  dev: boolean;
  status: string;
  tags: Record<string, string>;
  createdBy: string;
  replyMode: string;
  webhookUrl: string | null;
  sourceLinks: string;
}

interface Summary {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  deployedAt: string;
  tags: Record<string, string>;
  sourceLinks: string;
}

interface ListBody {
  bots: Summary[];
  meta: { nextToken?: string };
}

/** Binary (code unit) comparison, the order SQL uses on ASCII names. */
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function createBot(t: TestApp, body: Record<string, unknown>): Promise<BotBody> {
  const res = await t.asOwner('POST', '/v1/admin/bots', body);
  expect(res.statusCode).toBe(201);
  return (res.json() as { bot: BotBody }).bot;
}

async function list(t: TestApp, query: string): Promise<ListBody> {
  const res = await t.asOwner('GET', `/v1/admin/bots${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as ListBody;
}

/** Follows meta.nextToken from the first page to the last, answering every page. */
async function allPages(t: TestApp, query: string): Promise<Summary[][]> {
  const pages: Summary[][] = [];
  let token: string | undefined;
  for (let i = 0; i < 100; i++) {
    const sep = query ? '&' : '';
    const url = `?${query}${token ? `${sep}nextToken=${encodeURIComponent(token)}` : ''}`;
    const page = await list(t, url);
    pages.push(page.bots);
    token = page.meta.nextToken;
    if (!token) return pages;
  }
  throw new Error('pagination did not end');
}

describe('bots CRUD', () => {
  let now = new Date('2031-05-01T10:00:00.000Z');
  const tick = (ms = 1000) => {
    now = new Date(now.getTime() + ms);
  };
  const t = useTestApp({ clock: () => now });

  it('creates a bot with 201 {bot} carrying every field, knowledge replies and public source links by default', async () => {
    tick();
    const res = await t.asOwner('POST', '/v1/admin/bots', {
      name: 'Support bot',
      description: 'Answers questions',
      tags: { team: 'support' },
    });
    expect(res.statusCode).toBe(201);
    const { bot } = res.json() as { bot: BotBody };
    expect(bot).toEqual({
      id: expect.any(String),
      workspaceId: t.workspaceId,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      deployedAt: now.toISOString(),
      name: 'Support bot',
      description: 'Answers questions',
      dev: false,
      status: 'active',
      tags: { team: 'support' },
      createdBy: t.owner.accountId,
      replyMode: 'knowledge',
      webhookUrl: null,
      sourceLinks: 'public',
      replies: {},
      handoff: {},
    });
    expect(bot.id.length).toBeGreaterThan(0);
    expect(bot.createdAt).toMatch(ISO);
  });

  it('creates a bot from an empty body with a default name', async () => {
    const bot = await createBot(t, {});
    expect(bot.name.length).toBeGreaterThan(0);
    expect(bot.tags).toEqual({});
    expect(bot.replyMode).toBe('knowledge');
  });

  it('creates a webhook bot when a webhookUrl is given', async () => {
    const bot = await createBot(t, {
      name: 'Hook',
      replyMode: 'webhook',
      webhookUrl: 'https://example.com/hook',
    });
    expect(bot).toMatchObject({ replyMode: 'webhook', webhookUrl: 'https://example.com/hook' });
  });

  it('switches a webhook bot back to knowledge replies, clearing webhookUrl with null', async () => {
    const bot = await createBot(t, {
      name: 'Hook 2',
      replyMode: 'webhook',
      webhookUrl: 'https://example.com/h2',
    });
    const res = await t.asOwner('PUT', `/v1/admin/bots/${bot.id}`, {
      replyMode: 'knowledge',
      webhookUrl: null,
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { bot: BotBody }).bot).toMatchObject({ replyMode: 'knowledge', webhookUrl: null });
  });

  it('sets sourceLinks on create and update, and shows it in get and list', async () => {
    const bot = await createBot(t, { name: 'Open sources', sourceLinks: 'all' });
    expect(bot.sourceLinks).toBe('all');
    const updated = await t.asOwner('PUT', `/v1/admin/bots/${bot.id}`, { sourceLinks: 'none' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((updated.json() as { bot: BotBody }).bot.sourceLinks).toBe('none');
    // A PUT without it keeps it.
    await t.asOwner('PUT', `/v1/admin/bots/${bot.id}`, { name: 'Open sources 2' });
    const got = await t.asOwner('GET', `/v1/admin/bots/${bot.id}`);
    expect((got.json() as { bot: BotBody }).bot).toMatchObject({
      name: 'Open sources 2',
      sourceLinks: 'none',
    });
    const listed = (await list(t, '?name=Open%20sources')).bots;
    expect(listed.map((b) => [b.id, b.sourceLinks])).toEqual([[bot.id, 'none']]);
  });

  it('keeps an empty-string tag value as a tag rather than removing it', async () => {
    const bot = await createBot(t, { name: 'Empty tag', tags: { blank: 'x' } });
    const res = await t.asOwner('PUT', `/v1/admin/bots/${bot.id}`, { tags: { blank: '' } });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { bot: BotBody }).bot.tags).toEqual({ blank: '' });
  });

  it('gets a bot by id with 200 {bot}', async () => {
    const created = await createBot(t, { name: 'Get me', tags: { a: '1' } });
    const res = await t.asOwner('GET', `/v1/admin/bots/${created.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ bot: created });
  });

  it('answers 404 ResourceNotFound naming an unknown bot id', async () => {
    const res = await t.asOwner('GET', '/v1/admin/bots/00000000-0000-4000-8000-000000000000');
    const body = expectError(res, 404, 'ResourceNotFound');
    expect(body.message).toContain('00000000-0000-4000-8000-000000000000');
  });

  it('updates name, description and tags (null removes a tag) and bumps updatedAt', async () => {
    tick();
    const created = await createBot(t, { name: 'Before', tags: { keep: 'k', drop: 'd', change: 'old' } });
    tick(5000);
    const res = await t.asOwner('PUT', `/v1/admin/bots/${created.id}`, {
      name: 'After',
      description: 'New description',
      tags: { drop: null, change: 'new', add: 'x' },
    });
    expect(res.statusCode).toBe(200);
    const { bot } = res.json() as { bot: BotBody };
    expect(bot).toMatchObject({
      id: created.id,
      name: 'After',
      description: 'New description',
      tags: { keep: 'k', change: 'new', add: 'x' },
      createdAt: created.createdAt,
      createdBy: t.owner.accountId,
    });
    expect(bot.tags).not.toHaveProperty('drop');
    expect(bot.updatedAt).toBe(now.toISOString());
    expect(Date.parse(bot.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));

    const again = await t.asOwner('GET', `/v1/admin/bots/${created.id}`);
    expect((again.json() as { bot: BotBody }).bot).toEqual(bot);
  });

  it('keeps fields a PUT leaves out', async () => {
    const created = await createBot(t, { name: 'Partial', description: 'stays', tags: { t: 'v' } });
    const res = await t.asOwner('PUT', `/v1/admin/bots/${created.id}`, { name: 'Partial 2' });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { bot: BotBody }).bot).toMatchObject({
      name: 'Partial 2',
      description: 'stays',
      tags: { t: 'v' },
    });
  });

  it('answers 404 when updating an unknown bot', async () => {
    const res = await t.asOwner('PUT', '/v1/admin/bots/nope', { name: 'x' });
    expectError(res, 404, 'ResourceNotFound');
  });

  it('deletes a bot with 200 {}, after which GET and a second DELETE answer 404', async () => {
    const created = await createBot(t, { name: 'Doomed' });
    const res = await t.asOwner('DELETE', `/v1/admin/bots/${created.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expectError(await t.asOwner('GET', `/v1/admin/bots/${created.id}`), 404, 'ResourceNotFound');
    expectError(await t.asOwner('DELETE', `/v1/admin/bots/${created.id}`), 404, 'ResourceNotFound');
    const listed = await list(t, '?pageSize=100');
    expect(listed.bots.map((b) => b.id)).not.toContain(created.id);
  });

  it('answers 404 when deleting an unknown bot', async () => {
    expectError(await t.asOwner('DELETE', '/v1/admin/bots/nope'), 404, 'ResourceNotFound');
  });
});

describe('GET /v1/admin/bots', () => {
  const t = useTestApp();
  const created: BotBody[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 55; i++) {
      created.push(await createBot(t, { name: `Bot ${String(i).padStart(2, '0')}` }));
    }
  });

  it('answers exactly {bots: [{id, createdAt, updatedAt, name, deployedAt, tags, sourceLinks}], meta}', async () => {
    const res = await t.asOwner('GET', '/v1/admin/bots?pageSize=5');
    expect(res.statusCode).toBe(200);
    const body = res.json() as ListBody;
    expect(Object.keys(body).sort()).toEqual(['bots', 'meta']);
    expect(Object.keys(body.meta)).toEqual(['nextToken']);
    expect(body.bots).toHaveLength(5);
    for (const bot of body.bots) {
      expect(Object.keys(bot).sort()).toEqual([
        'createdAt',
        'deployedAt',
        'id',
        'name',
        'sourceLinks',
        'tags',
        'updatedAt',
      ]);
      expect(bot.createdAt).toMatch(ISO);
      expect(bot.updatedAt).toMatch(ISO);
      expect(bot.deployedAt).toMatch(ISO);
    }
  });

  it('answers 20 bots by default', async () => {
    const body = await list(t, '');
    expect(body.bots).toHaveLength(20);
    expect(body.meta.nextToken).toEqual(expect.any(String));
  });

  it('pages through every bot exactly once, newest first, following meta.nextToken', async () => {
    const pages = await allPages(t, 'pageSize=10');
    // 55 created + the bootstrap demo bot
    expect(pages).toHaveLength(6);
    expect(pages.slice(0, 5).every((p) => p.length === 10)).toBe(true);
    expect(pages[5]).toHaveLength(6);
    const seen = pages.flat();
    const ids = seen.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set([t.botId, ...created.map((b) => b.id)]));
    for (let i = 1; i < seen.length; i++) {
      const prev = seen[i - 1] as Summary;
      const cur = seen[i] as Summary;
      expect(Date.parse(prev.createdAt)).toBeGreaterThanOrEqual(Date.parse(cur.createdAt));
    }
  });

  it('answers meta {} without nextToken on the last page', async () => {
    const body = await list(t, '?pageSize=100');
    expect(body.bots).toHaveLength(56);
    expect(body.meta).toEqual({});
  });

  it('sorts by name ascending across pages with sortField=name&sortDirection=asc', async () => {
    const pages = await allPages(t, 'sortField=name&sortDirection=asc&pageSize=7');
    const names = pages.flat().map((b) => b.name);
    expect(names).toHaveLength(56);
    expect(names).toEqual([...names].sort(byCodeUnit));
    expect(names[0]).toBe('Bot 00');
    expect(names[names.length - 1]).toBe('Demo bot');
  });

  it('sorts by createdAt ascending with sortDirection=asc', async () => {
    const pages = await allPages(t, 'sortDirection=asc&pageSize=25');
    const seen = pages.flat();
    expect(seen).toHaveLength(56);
    expect(new Set(seen.map((b) => b.id)).size).toBe(56);
    for (let i = 1; i < seen.length; i++) {
      expect(Date.parse((seen[i] as Summary).createdAt)).toBeGreaterThanOrEqual(
        Date.parse((seen[i - 1] as Summary).createdAt),
      );
    }
  });

  it('answers 400 InvalidQuery naming pageSize for pageSize=0 and pageSize=101', async () => {
    for (const size of ['0', '101', 'abc', '-1']) {
      expectInvalid(await t.asOwner('GET', `/v1/admin/bots?pageSize=${size}`), 'InvalidQuery', 'pageSize');
    }
  });

  it('answers 400 InvalidQuery naming nextToken for a garbage token', async () => {
    for (const token of ['garbage', 'W10', encodeURIComponent('!!!')]) {
      expectInvalid(await t.asOwner('GET', `/v1/admin/bots?nextToken=${token}`), 'InvalidQuery', 'nextToken');
    }
  });

  it('answers 400 InvalidQuery when a nextToken is reused with another sort', async () => {
    const first = await list(t, '?pageSize=10');
    const token = first.meta.nextToken as string;
    const res = await t.asOwner(
      'GET',
      `/v1/admin/bots?sortField=name&nextToken=${encodeURIComponent(token)}&pageSize=10`,
    );
    const body = expectInvalid(res, 'InvalidQuery', 'nextToken');
    expect(body.message).toMatch(/sort/i);
    const flipped = await t.asOwner(
      'GET',
      `/v1/admin/bots?sortDirection=asc&nextToken=${encodeURIComponent(token)}`,
    );
    expectError(flipped, 400, 'InvalidQuery');
  });

  it('answers 400 InvalidQuery for an unknown sortField or sortDirection', async () => {
    expectError(await t.asOwner('GET', '/v1/admin/bots?sortField=size'), 400, 'InvalidQuery');
    expectError(await t.asOwner('GET', '/v1/admin/bots?sortDirection=up'), 400, 'InvalidQuery');
  });
});

describe('GET /v1/admin/bots filters', () => {
  const t = useTestApp();
  const ids = (body: ListBody) => body.bots.map((b) => b.id).sort();
  /** The bots the filters pick from, made in this order. */
  const bot = useFixture(
    'the bots to filter',
    async () => ({
      sales: await createBot(t, { name: 'Sales Alpha', tags: { team: 'sales', region: 'eu' } }),
      ops: await createBot(t, { name: 'Ops alpha', tags: { team: 'ops', region: 'us' } }),
      support: await createBot(t, { name: 'Support beta', tags: { team: 'support' } }),
      untagged: await createBot(t, { name: 'Plain gamma' }),
      dev: await createBot(t, { name: 'Dev gamma', dev: true, tags: { team: 'sales' } }),
      percent: await createBot(t, { name: '100% bot' }),
    }),
    () => undefined,
  );

  it('keeps only dev bots with dev=true and only the others with dev=false', async () => {
    expect(ids(await list(t, '?dev=true'))).toEqual([bot.dev.id]);
    const notDev = ids(await list(t, '?dev=false'));
    expect(notDev).not.toContain(bot.dev.id);
    expect(notDev).toHaveLength(6);
  });

  it('answers 400 InvalidQuery for dev=maybe', async () => {
    expectInvalid(await t.asOwner('GET', '/v1/admin/bots?dev=maybe'), 'InvalidQuery', 'dev');
  });

  it('keeps bots whose name contains the text, ignoring case', async () => {
    expect(ids(await list(t, '?name=alpha'))).toEqual([bot.sales.id, bot.ops.id].sort());
    expect(ids(await list(t, '?name=GAMMA'))).toEqual([bot.untagged.id, bot.dev.id].sort());
    expect(ids(await list(t, '?name=nothing-like-this'))).toEqual([]);
  });

  it('treats % and _ in the name filter as plain characters', async () => {
    expect(ids(await list(t, '?name=%25'))).toEqual([bot.percent.id]);
    expect(ids(await list(t, '?name=_'))).toEqual([]);
  });

  it('filters by tag with dots, brackets and URL-encoded JSON alike', async () => {
    const expected = [bot.sales.id, bot.dev.id].sort();
    expect(ids(await list(t, '?tags.team=sales'))).toEqual(expected);
    expect(ids(await list(t, '?tags%5Bteam%5D=sales'))).toEqual(expected);
    expect(ids(await list(t, '?tags[team]=sales'))).toEqual(expected);
    expect(ids(await list(t, '?tags=%7B%22team%22%3A%22sales%22%7D'))).toEqual(expected);
  });

  it('ANDs conditions on different tag keys', async () => {
    expect(ids(await list(t, '?tags.team=sales&tags.region=eu'))).toEqual([bot.sales.id]);
    expect(ids(await list(t, '?tags=%7B%22team%22%3A%22ops%22%2C%22region%22%3A%22eu%22%7D'))).toEqual([]);
  });

  it('excludes a tag value with tags.team.not=sales, keeping bots without the tag', async () => {
    expect(ids(await list(t, '?tags.team.not=sales'))).toEqual(
      [bot.ops.id, bot.support.id, bot.untagged.id, bot.percent.id, t.botId].sort(),
    );
  });

  it('matches any of repeated values with tags.team=a&tags.team=b', async () => {
    expect(ids(await list(t, '?tags.team=ops&tags.team=support'))).toEqual(
      [bot.ops.id, bot.support.id].sort(),
    );
    expect(ids(await list(t, '?tags=%7B%22team%22%3A%5B%22ops%22%2C%22support%22%5D%7D'))).toEqual(
      [bot.ops.id, bot.support.id].sort(),
    );
  });

  it('combines the dev, name and tag filters', async () => {
    expect(ids(await list(t, '?tags.team=sales&dev=false'))).toEqual([bot.sales.id]);
    expect(ids(await list(t, '?tags.team=sales&name=gamma'))).toEqual([bot.dev.id]);
  });

  it('answers 400 InvalidQuery naming tags for malformed JSON', async () => {
    expectInvalid(await t.asOwner('GET', '/v1/admin/bots?tags=%7Bnope'), 'InvalidQuery', 'tags');
  });

  it('answers 400 InvalidQuery for an unknown tag operator', async () => {
    const res = await t.asOwner('GET', '/v1/admin/bots?tags=%7B%22team%22%3A%7B%22like%22%3A%22s%22%7D%7D');
    expectInvalid(res, 'InvalidQuery', 'tags.team.like');
  });
});

describe('bot validation', () => {
  const t = useTestApp();

  async function count(): Promise<number> {
    return (await list(t, '?pageSize=100')).bots.length;
  }

  it('answers 400 InvalidPayload naming name for a 201-character name, and creates nothing', async () => {
    const before = await count();
    const body = expectError(
      await t.asOwner('POST', '/v1/admin/bots', { name: 'x'.repeat(201) }),
      400,
      'InvalidPayload',
    );
    expect(badFields(body)).toContain('name');
    expect(await count()).toBe(before);
  });

  it('accepts a name of exactly 200 characters', async () => {
    const bot = await createBot(t, { name: 'y'.repeat(200) });
    expect(bot.name).toHaveLength(200);
  });

  it('answers 400 naming name for an empty name or an object as name', async () => {
    expect(
      badFields(expectError(await t.asOwner('POST', '/v1/admin/bots', { name: '' }), 400, 'InvalidPayload')),
    ).toContain('name');
    expect(
      badFields(
        expectError(
          await t.asOwner('POST', '/v1/admin/bots', { name: { first: 'x' } }),
          400,
          'InvalidPayload',
        ),
      ),
    ).toContain('name');
  });

  it('answers 400 naming webhookUrl for replyMode webhook without a webhookUrl', async () => {
    const before = await count();
    const body = expectError(
      await t.asOwner('POST', '/v1/admin/bots', { name: 'Hook', replyMode: 'webhook' }),
      400,
      'InvalidPayload',
    );
    expect(badFields(body)).toContain('webhookUrl');
    expect(await count()).toBe(before);
  });

  it('answers 400 naming webhookUrl when an update switches to webhook mode without one', async () => {
    const bot = await createBot(t, { name: 'Knowledge' });
    const body = expectError(
      await t.asOwner('PUT', `/v1/admin/bots/${bot.id}`, { replyMode: 'webhook' }),
      400,
      'InvalidPayload',
    );
    expect(badFields(body)).toContain('webhookUrl');
    const after = await t.asOwner('GET', `/v1/admin/bots/${bot.id}`);
    expect((after.json() as { bot: BotBody }).bot.replyMode).toBe('knowledge');
  });

  it('answers 400 naming replyMode and webhookUrl for an unknown mode and a non-URL', async () => {
    expect(
      badFields(
        expectError(await t.asOwner('POST', '/v1/admin/bots', { replyMode: 'magic' }), 400, 'InvalidPayload'),
      ),
    ).toContain('replyMode');
    expect(
      badFields(
        expectError(
          await t.asOwner('POST', '/v1/admin/bots', { replyMode: 'webhook', webhookUrl: 'not a url' }),
          400,
          'InvalidPayload',
        ),
      ),
    ).toContain('webhookUrl');
  });

  it('answers 400 naming sourceLinks for an unknown value on create and update, changing nothing', async () => {
    const before = await count();
    for (const sourceLinks of ['private', 'ALL', '', null, true]) {
      const body = expectError(
        await t.asOwner('POST', '/v1/admin/bots', { name: 'Bad links', sourceLinks }),
        400,
        'InvalidPayload',
      );
      expect(badFields(body)).toContain('sourceLinks');
    }
    expect(await count()).toBe(before);
    const bot = await createBot(t, { name: 'Links kept' });
    const body = expectError(
      await t.asOwner('PUT', `/v1/admin/bots/${bot.id}`, { sourceLinks: 'everything', name: 'Renamed' }),
      400,
      'InvalidPayload',
    );
    expect(badFields(body)).toContain('sourceLinks');
    expect(body.message).toMatch(/sourceLinks/);
    const after = await t.asOwner('GET', `/v1/admin/bots/${bot.id}`);
    expect((after.json() as { bot: BotBody }).bot).toMatchObject({
      name: 'Links kept',
      sourceLinks: 'public',
    });
  });

  it('answers 400 naming description for a description over 2000 characters', async () => {
    const body = expectError(
      await t.asOwner('POST', '/v1/admin/bots', { description: 'd'.repeat(2001) }),
      400,
      'InvalidPayload',
    );
    expect(badFields(body)).toContain('description');
  });

  it('answers 400 naming the tag for an object as tag value on create', async () => {
    const body = expectError(
      await t.asOwner('POST', '/v1/admin/bots', { tags: { team: { nested: true } } }),
      400,
      'InvalidPayload',
    );
    expect(badFields(body).some((f) => f.startsWith('tags'))).toBe(true);
  });

  it('answers 400 naming the tag for a tag value over 1000 characters on update', async () => {
    const bot = await createBot(t, { name: 'Long tag', tags: { team: 'a' } });
    const body = expectError(
      await t.asOwner('PUT', `/v1/admin/bots/${bot.id}`, { tags: { team: 'v'.repeat(1001) } }),
      400,
      'InvalidPayload',
    );
    expect(badFields(body).some((f) => f.startsWith('tags'))).toBe(true);
    const after = await t.asOwner('GET', `/v1/admin/bots/${bot.id}`);
    expect((after.json() as { bot: BotBody }).bot.tags).toEqual({ team: 'a' });
  });

  it('answers 400 naming name for a 201-character name on update, leaving the bot unchanged', async () => {
    const bot = await createBot(t, { name: 'Unchanged' });
    const body = expectError(
      await t.asOwner('PUT', `/v1/admin/bots/${bot.id}`, { name: 'z'.repeat(201) }),
      400,
      'InvalidPayload',
    );
    expect(badFields(body)).toContain('name');
    const after = await t.asOwner('GET', `/v1/admin/bots/${bot.id}`);
    expect((after.json() as { bot: BotBody }).bot.name).toBe('Unchanged');
  });
});

describe('bot permissions by role', () => {
  const t = useTestApp();
  /** A member of each role in the bootstrap workspace, added in this order. */
  const member = useFixture(
    'the members',
    async () => ({
      viewer: await t.addMember('viewer'),
      billing: await t.addMember('billing'),
      developer: await t.addMember('developer'),
      manager: await t.addMember('manager'),
      administrator: await t.addMember('administrator'),
    }),
    () => undefined,
  );

  /** Calls with a member's token in the bootstrap workspace. */
  const as = (m: { token: string }) => caller(t, m.token);

  /** A bot created by the owner, so it belongs to nobody under test. */
  const ownersBot = (name: string) => createBot(t, { name });

  async function exists(id: string): Promise<boolean> {
    const res = await t.asOwner('GET', `/v1/admin/bots/${id}`);
    return res.statusCode === 200;
  }

  it('lets a viewer list and get bots', async () => {
    const listed = await as(member.viewer)('GET', '/v1/admin/bots');
    expect(listed.statusCode).toBe(200);
    expect((listed.json() as ListBody).bots.map((b) => b.id)).toContain(t.botId);
    const got = await as(member.viewer)('GET', `/v1/admin/bots/${t.botId}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ bot: { id: t.botId } });
  });

  it('answers 403 Forbidden naming the role when a viewer creates, updates or deletes', async () => {
    const bot = await ownersBot('Viewer target');
    const create = expectError(
      await as(member.viewer)('POST', '/v1/admin/bots', { name: 'v' }),
      403,
      'Forbidden',
    );
    expect(create.message).toContain('viewer');
    expectError(await as(member.viewer)('PUT', `/v1/admin/bots/${bot.id}`, { name: 'v' }), 403, 'Forbidden');
    expectError(await as(member.viewer)('DELETE', `/v1/admin/bots/${bot.id}`), 403, 'Forbidden');
    const after = await t.asOwner('GET', `/v1/admin/bots/${bot.id}`);
    expect((after.json() as { bot: BotBody }).bot.name).toBe('Viewer target');
  });

  it('answers 403 to billing even on list and get', async () => {
    expect(
      expectError(await as(member.billing)('GET', '/v1/admin/bots'), 403, 'Forbidden').message,
    ).toContain('billing');
    expectError(await as(member.billing)('GET', `/v1/admin/bots/${t.botId}`), 403, 'Forbidden');
    expectError(await as(member.billing)('POST', '/v1/admin/bots', { name: 'b' }), 403, 'Forbidden');
  });

  it('lets a developer create a bot, recorded as its creator', async () => {
    const res = await as(member.developer)('POST', '/v1/admin/bots', { name: 'Dev made' });
    expect(res.statusCode).toBe(201);
    expect((res.json() as { bot: BotBody }).bot.createdBy).toBe(member.developer.accountId);
  });

  it('lets a developer update a bot someone else created', async () => {
    const bot = await ownersBot('Owner made');
    const res = await as(member.developer)('PUT', `/v1/admin/bots/${bot.id}`, { name: 'Dev renamed' });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { bot: BotBody }).bot).toMatchObject({
      name: 'Dev renamed',
      createdBy: t.owner.accountId,
    });
  });

  it("answers 403 when a developer deletes another's bot, 200 on its own", async () => {
    const theirs = await ownersBot('Not the developer');
    const denied = expectError(
      await as(member.developer)('DELETE', `/v1/admin/bots/${theirs.id}`),
      403,
      'Forbidden',
    );
    expect(denied.message).toMatch(/created by others/);
    expect(await exists(theirs.id)).toBe(true);

    const mine = (await as(member.developer)('POST', '/v1/admin/bots', { name: 'Mine' })).json() as {
      bot: BotBody;
    };
    const ok = await as(member.developer)('DELETE', `/v1/admin/bots/${mine.bot.id}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({});
    expect(await exists(mine.bot.id)).toBe(false);
  });

  it('answers 403 when a developer deletes a bot another developer created', async () => {
    const other = await t.addMember('developer');
    const made = (await as(other)('POST', '/v1/admin/bots', { name: 'Other dev' })).json() as {
      bot: BotBody;
    };
    expectError(await as(member.developer)('DELETE', `/v1/admin/bots/${made.bot.id}`), 403, 'Forbidden');
    expect(await exists(made.bot.id)).toBe(true);
  });

  it('lets a manager create and update any bot', async () => {
    const created = await as(member.manager)('POST', '/v1/admin/bots', { name: 'Manager made' });
    expect(created.statusCode).toBe(201);
    const res = await as(member.manager)('PUT', `/v1/admin/bots/${t.botId}`, { description: 'by manager' });
    expect(res.statusCode).toBe(200);
  });

  it("answers 403 when a manager deletes another's bot, 200 on its own", async () => {
    const theirs = await ownersBot('Not the manager');
    expectError(await as(member.manager)('DELETE', `/v1/admin/bots/${theirs.id}`), 403, 'Forbidden');
    expect(await exists(theirs.id)).toBe(true);
    const mine = (await as(member.manager)('POST', '/v1/admin/bots', { name: 'Manager own' })).json() as {
      bot: BotBody;
    };
    expect((await as(member.manager)('DELETE', `/v1/admin/bots/${mine.bot.id}`)).statusCode).toBe(200);
    expect(await exists(mine.bot.id)).toBe(false);
  });

  it('lets an administrator delete any bot', async () => {
    const theirs = await ownersBot('Admin deletes');
    const devs = (
      await as(member.developer)('POST', '/v1/admin/bots', { name: 'Dev bot for admin' })
    ).json() as {
      bot: BotBody;
    };
    for (const id of [theirs.id, devs.bot.id]) {
      const res = await as(member.administrator)('DELETE', `/v1/admin/bots/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
      expect(await exists(id)).toBe(false);
    }
  });

  it("lets the owner delete a developer's bot", async () => {
    const devs = (
      await as(member.developer)('POST', '/v1/admin/bots', { name: 'Dev bot for owner' })
    ).json() as {
      bot: BotBody;
    };
    expect((await t.asOwner('DELETE', `/v1/admin/bots/${devs.bot.id}`)).statusCode).toBe(200);
  });

  it('answers 404, not 403, to a viewer asking for a bot that does not exist', async () => {
    expectError(await as(member.viewer)('DELETE', '/v1/admin/bots/missing'), 404, 'ResourceNotFound');
  });
});

describe('bot quota', () => {
  const t = useTestApp({ env: { PARLEY_QUOTA_BOTS_PER_WORKSPACE: '2' } });

  it('answers 403 QuotaExceeded for the bot beyond the quota and does not create it', async () => {
    // The bootstrap demo bot is the first of two.
    await createBot(t, { name: 'Second' });
    const res = await t.asOwner('POST', '/v1/admin/bots', { name: 'Third' });
    const body = expectError(res, 403, 'QuotaExceeded');
    expect(body.message).toContain('2');
    const listed = await list(t, '?pageSize=100');
    expect(listed.bots).toHaveLength(2);
    expect(listed.bots.map((b) => b.name)).not.toContain('Third');
  });

  it('allows a new bot again once one is deleted', async () => {
    const listed = await list(t, '?name=Second');
    const id = listed.bots[0]?.id as string;
    expect((await t.asOwner('DELETE', `/v1/admin/bots/${id}`)).statusCode).toBe(200);
    await createBot(t, { name: 'Replacement' });
    expectError(await t.asOwner('POST', '/v1/admin/bots', { name: 'Too many' }), 403, 'QuotaExceeded');
  });
});
