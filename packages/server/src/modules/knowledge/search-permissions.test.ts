import type { FileObject } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, type FilesMethod } from '../../../../testkit/src/server/files-api.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import { eventually } from '../../../../testkit/src/shared/eventually.js';

/**
 * searchFiles as different principals (issue 6 with the permission matrix of issue 3): only passages of files
 * the caller may read; access changes and deletions apply at once; tag filters in their three encodings;
 * knowledge base scoping; consolidate, contextDepth, limit and query bounds.
 */

interface Hit {
  content: string;
  score: number;
  meta: { type: string; subtype?: string; position?: number; pageNumber?: number };
  file: { id: string; key: string; contentType: string; tags: Record<string, string>; metadata: object };
  context?: Array<{ text: string; offset: number; type: string }>;
}

/** Every file below says "harbour", so one query reaches all of them. */
const FILES = {
  botPrivate: { key: 'bot-private.txt', creator: 'bot', policies: [], tags: { team: 'support', lang: 'en' } },
  botShared: { key: 'bot-shared.txt', creator: 'bot', policies: ['integrations'], tags: { team: 'sales' } },
  intA: { key: 'int-a.txt', creator: 'integration A', policies: [], tags: { team: 'ops' } },
  intB: { key: 'int-b.txt', creator: 'integration B', policies: [], tags: {} },
  member: { key: 'member.txt', creator: 'owner', policies: [], tags: { lang: 'fr' } },
} as const;
type FileName = keyof typeof FILES;
const ALL = Object.keys(FILES) as FileName[];

describe('searchFiles permissions and filters (lexical, SQLite)', () => {
  const t = useTestApp({ workers: true });
  const ids = {} as Record<FileName, string>;
  const tokens: Record<string, string> = {};
  let otherBotId: string;

  /** A Files API call as `who` (a name of `tokens`, or '' for no token) on the bootstrap bot. */
  const as = (who: string, method: FilesMethod, url: string, body?: unknown) =>
    callAs(t, who ? tokens[who] : undefined, method, url, body);

  const searchRes = (who: string, query: string, extra = '') =>
    as(who, 'GET', `/v1/files/search?query=${encodeURIComponent(query)}${extra}`);

  async function search(who: string, query: string, extra = ''): Promise<Hit[]> {
    const res = await searchRes(who, query, extra);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { passages: Hit[] }).passages;
  }

  /** The names of the files the hits come from, sorted. */
  const namesOf = (hits: Hit[]) =>
    [
      ...new Set(
        hits.map((h) => (Object.keys(ids) as FileName[]).find((n) => ids[n] === h.file.id) ?? h.file.key),
      ),
    ].sort();

  async function upload(who: string, key: string, content: string, extra: Record<string, unknown> = {}) {
    const bytes = Buffer.from(content);
    const res = await as(who, 'PUT', '/v1/files', { key, size: bytes.length, index: true, ...extra });
    expect(res.statusCode, res.body).toBe(200);
    const u = new URL((res.json() as { file: { uploadUrl: string } }).file.uploadUrl);
    const up = await t.app.inject({ method: 'PUT', url: `${u.pathname}${u.search}`, payload: bytes });
    expect(up.statusCode, up.body).toBe(200);
    const file = (up.json() as { file: FileObject }).file;
    let status: FileObject['status'] = 'indexing_pending';
    await eventually(
      async () => {
        const got = await as('bot', 'GET', `/v1/files/${file.id}`);
        status = (got.json() as { file: FileObject }).file.status;
        return status !== 'indexing_pending';
      },
      30_000,
      25,
      `${key} indexed`,
    );
    expect(status).toBe('indexing_completed');
    return file;
  }

  async function integrationKey(onBot: string): Promise<string> {
    const created = await t.asOwner('POST', '/v1/admin/integrations', {
      name: `search-${Math.random().toString(36).slice(2, 8)}`,
    });
    expect(created.statusCode, created.body).toBe(201);
    const integrationId = (created.json() as { integration: { id: string } }).integration.id;
    const installed = await t.asOwner('PUT', `/v1/admin/bots/${onBot}/integrations/${integrationId}`);
    expect(installed.statusCode, installed.body).toBe(200);
    const key = await t.asOwner('POST', `/v1/admin/bots/${onBot}/integrations/${integrationId}/keys`, {
      note: 'search',
    });
    expect(key.statusCode, key.body).toBe(201);
    return (key.json() as { key: { value: string } }).key.value;
  }

  async function createKb(who: string, name: string, files: FileName[]): Promise<string> {
    const res = await as(who, 'POST', '/v1/files/knowledge-bases', { name });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
    for (const f of files) {
      const linked = await as(who, 'PUT', `/v1/files/knowledge-bases/${id}/files/${ids[f]}`);
      expect(linked.statusCode, linked.body).toBe(200);
    }
    return id;
  }

  beforeAll(async () => {
    const bot2 = await t.asOwner('POST', '/v1/admin/bots', { name: 'Second bot' });
    otherBotId = (bot2.json() as { bot: { id: string } }).bot.id;
    const bot2Key = await t.asOwner('POST', `/v1/admin/bots/${otherBotId}/access-keys`, { note: 'search' });
    Object.assign(tokens, {
      bot: t.botKey,
      owner: t.owner.token,
      'integration A': await integrationKey(t.botId),
      'integration B': await integrationKey(t.botId),
      'integration elsewhere': await integrationKey(otherBotId),
      'other bot': (bot2Key.json() as { key: { value: string } }).key.value,
      developer: (await t.addMember('developer')).token,
      viewer: (await t.addMember('viewer')).token,
      billing: (await t.addMember('billing')).token,
      stranger: (await t.otherTenant()).token,
    });
    for (const name of ALL) {
      const spec = FILES[name];
      const file = await upload(spec.creator, spec.key, `The harbour log of ${name} records the tides.`, {
        accessPolicies: spec.policies,
        tags: spec.tags,
      });
      ids[name] = file.id;
    }
  });

  describe('who sees which passages', () => {
    const expected: Record<string, FileName[]> = {
      bot: ALL,
      owner: ALL,
      developer: ALL,
      viewer: ALL,
      'integration A': ['botShared', 'intA'],
      'integration B': ['botShared', 'intB'],
    };
    for (const [who, names] of Object.entries(expected)) {
      it(`${who} finds passages of ${names.length === ALL.length ? 'every file' : names.join(' and ')} only`, async () => {
        const hits = await search(who, 'harbour');
        expect(namesOf(hits)).toEqual([...names].sort());
        for (const h of hits) expect(h.content).toMatch(/^The harbour log of \w+ records the tides\.$/);
      });
    }

    it('an integration does not learn of a file it may not read through a tag filter or a knowledge base', async () => {
      expect(await search('integration A', 'harbour', '&tags.team=support')).toEqual([]);
      const kb = await createKb('bot', 'Private only', ['botPrivate']);
      expect(await search('integration A', 'harbour', `&knowledgeBaseIds=${kb}`)).toEqual([]);
    });

    it('answers each passage with its file as the wire format shapes it', async () => {
      const [hit] = await search('bot', 'harbour', '&tags.team=support');
      expect(hit).toEqual({
        content: 'The harbour log of botPrivate records the tides.',
        score: expect.any(Number),
        meta: { type: 'chunk', subtype: 'paragraph', position: 0 },
        file: {
          id: ids.botPrivate,
          key: 'bot-private.txt',
          contentType: 'text/plain',
          metadata: {},
          tags: { team: 'support', lang: 'en' },
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      });
    });

    it('refuses a billing member with 403', async () => {
      expectError(await searchRes('billing', 'harbour'), 403, 'Forbidden');
    });

    it('refuses another bot’s key and an integration installed on another bot with 403', async () => {
      expectError(await searchRes('other bot', 'harbour'), 403, 'Forbidden');
      expectError(await searchRes('integration elsewhere', 'harbour'), 403, 'Forbidden');
    });

    it('answers a member of another workspace 404: the bot is not found', async () => {
      const body = expectError(await searchRes('stranger', 'harbour'), 404, 'ResourceNotFound');
      expect(body.message).toMatch(/bot/i);
    });

    it('refuses a call without a token with 401', async () => {
      expectError(await searchRes('', 'harbour'), 401, 'Unauthorized');
    });

    it('refuses a call without x-bot-id with 400, and an unknown bot with 404', async () => {
      const query = '/v1/files/search?query=harbour';
      expectError(await t.call({ method: 'GET', url: query, token: t.owner.token }), 400, 'InvalidPayload');
      expectError(
        await t.call({
          method: 'GET',
          url: query,
          token: t.owner.token,
          headers: { 'x-bot-id': '00000000-0000-4000-8000-000000000000' },
        }),
        404,
        'ResourceNotFound',
      );
    });
  });

  describe('changes apply at once', () => {
    it('shows a file to integrations as soon as it gets the integrations policy, and hides it when it loses it', async () => {
      expect(namesOf(await search('integration A', 'harbour'))).not.toContain('botPrivate');
      const shared = await as('bot', 'PUT', `/v1/files/${ids.botPrivate}`, {
        accessPolicies: ['integrations'],
      });
      expect(shared.statusCode, shared.body).toBe(200);
      expect(namesOf(await search('integration A', 'harbour'))).toEqual(['botPrivate', 'botShared', 'intA']);
      expect(namesOf(await search('integration B', 'harbour'))).toEqual(['botPrivate', 'botShared', 'intB']);
      const unshared = await as('bot', 'PUT', `/v1/files/${ids.botPrivate}`, { accessPolicies: [] });
      expect(unshared.statusCode, unshared.body).toBe(200);
      expect(namesOf(await search('integration A', 'harbour'))).toEqual(['botShared', 'intA']);
    });

    it('filters on a file’s new tags as soon as they change', async () => {
      expect(namesOf(await search('bot', 'harbour', '&tags.team=support'))).toEqual(['botPrivate']);
      const retagged = await as('bot', 'PUT', `/v1/files/${ids.botShared}`, { tags: { team: 'support' } });
      expect(retagged.statusCode, retagged.body).toBe(200);
      expect(namesOf(await search('bot', 'harbour', '&tags.team=support'))).toEqual([
        'botPrivate',
        'botShared',
      ]);
      await as('bot', 'PUT', `/v1/files/${ids.botShared}`, { tags: { team: 'sales' } });
      expect(namesOf(await search('bot', 'harbour', '&tags.team=support'))).toEqual(['botPrivate']);
    });

    it('stops finding a deleted file at once, for everyone', async () => {
      const gone = await upload('integration A', 'gone.txt', 'The harbour ferry named Gull.', {
        accessPolicies: ['integrations'],
      });
      expect((await search('integration B', 'Gull'))[0]?.file.id).toBe(gone.id);
      expect((await search('bot', 'Gull'))[0]?.file.id).toBe(gone.id);
      const deleted = await as('integration A', 'DELETE', `/v1/files/${gone.id}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(await search('integration B', 'Gull')).toEqual([]);
      expect(await search('bot', 'Gull')).toEqual([]);
      expect(await search('viewer', 'Gull')).toEqual([]);
    });
  });

  describe('tag filters', () => {
    const cases: Array<[string, string, FileName[]]> = [
      ['dotted keys', '&tags.team=support', ['botPrivate']],
      ['brackets', `&${encodeURIComponent('tags[team]')}=support`, ['botPrivate']],
      [
        'URL-encoded JSON',
        `&tags=${encodeURIComponent(JSON.stringify({ team: 'support' }))}`,
        ['botPrivate'],
      ],
      ['repeated values (any of)', '&tags.team=support&tags.team=sales', ['botPrivate', 'botShared']],
      [
        'JSON in',
        `&tags=${encodeURIComponent(JSON.stringify({ team: { in: ['ops', 'sales'] } }))}`,
        ['botShared', 'intA'],
      ],
      ['dotted not', '&tags.team.not=support', ['botShared', 'intA', 'intB', 'member']],
      [
        'brackets exists=false',
        `&${encodeURIComponent('tags[lang][exists]')}=false`,
        ['botShared', 'intA', 'intB'],
      ],
      [
        'JSON exists=true',
        `&tags=${encodeURIComponent(JSON.stringify({ lang: { exists: true } }))}`,
        ['botPrivate', 'member'],
      ],
      ['two keys (AND)', '&tags.team=support&tags.lang=en', ['botPrivate']],
      ['a value nobody has', '&tags.team=legal', []],
    ];
    for (const [encoding, query, names] of cases) {
      it(`narrows results with ${encoding}`, async () => {
        expect(namesOf(await search('bot', 'harbour', query))).toEqual([...names].sort());
      });
    }

    it('refuses malformed tag filters with 400 InvalidQuery', async () => {
      expectError(await searchRes('bot', 'harbour', '&tags=%7Bnot-json'), 400, 'InvalidQuery');
      expectError(
        await searchRes('bot', 'harbour', `&${encodeURIComponent('tags[team][bogus]')}=x`),
        400,
        'InvalidQuery',
      );
      expectError(
        await searchRes('bot', 'harbour', `&tags=${encodeURIComponent(JSON.stringify({ team: 5 }))}`),
        400,
        'InvalidQuery',
      );
    });
  });

  describe('knowledge base scoping', () => {
    let docs: string;
    let team: string;
    let empty: string;
    beforeAll(async () => {
      docs = await createKb('bot', 'Docs', ['botPrivate', 'botShared']);
      team = await createKb('bot', 'Team', ['member']);
      empty = await createKb('bot', 'Empty', []);
    });

    it('finds only files linked to the knowledge base', async () => {
      expect(namesOf(await search('bot', 'harbour', `&knowledgeBaseIds=${docs}`))).toEqual([
        'botPrivate',
        'botShared',
      ]);
    });

    it('finds files of any of several knowledge bases', async () => {
      expect(
        namesOf(await search('bot', 'harbour', `&knowledgeBaseIds=${docs}&knowledgeBaseIds=${team}`)),
      ).toEqual(['botPrivate', 'botShared', 'member']);
    });

    it('combines knowledge bases with tag filters and the caller’s rights', async () => {
      expect(namesOf(await search('bot', 'harbour', `&knowledgeBaseIds=${docs}&tags.team=sales`))).toEqual([
        'botShared',
      ]);
      expect(namesOf(await search('integration A', 'harbour', `&knowledgeBaseIds=${docs}`))).toEqual([
        'botShared',
      ]);
    });

    it('finds nothing in an empty knowledge base', async () => {
      expect(await search('bot', 'harbour', `&knowledgeBaseIds=${empty}`)).toEqual([]);
    });

    it('answers 404 for an unknown knowledge base id, alone or beside a known one, and for another bot’s', async () => {
      expectError(await searchRes('bot', 'harbour', '&knowledgeBaseIds=kb_unknown'), 404, 'ResourceNotFound');
      expectError(
        await searchRes('bot', 'harbour', `&knowledgeBaseIds=${docs}&knowledgeBaseIds=kb_unknown`),
        404,
        'ResourceNotFound',
      );
      const foreign = await t.call({
        method: 'POST',
        url: '/v1/files/knowledge-bases',
        token: tokens['other bot'],
        headers: { 'x-bot-id': otherBotId },
        body: { name: 'Foreign' },
      });
      expect(foreign.statusCode, foreign.body).toBe(201);
      const foreignId = (foreign.json() as { knowledgeBase: { id: string } }).knowledgeBase.id;
      expectError(
        await searchRes('bot', 'harbour', `&knowledgeBaseIds=${foreignId}`),
        404,
        'ResourceNotFound',
      );
    });
  });

  describe('answer shaping and bounds', () => {
    let atlasId: string;
    let flockId: string;
    beforeAll(async () => {
      const atlas = await upload(
        'bot',
        'lighthouses.md',
        [
          '# Coastal atlas',
          '## North',
          'The north lighthouse stands on basalt cliffs.',
          '## Harbours',
          'Fishing boats moor in the inner basin.',
          '## South',
          'The south lighthouse was rebuilt in granite.',
          '## Keepers',
          'A lighthouse keeper lived at each station.',
        ].join('\n\n'),
      );
      atlasId = atlas.id;
      await upload('bot', 'beacon.txt', 'A small lighthouse marks the reef.');
      const flock = await upload(
        'bot',
        'kestrels.md',
        Array.from(
          { length: 30 },
          (_, i) => `## Kestrel note ${i}\n\nKestrel sighting number ${i} near the ridge.`,
        ).join('\n\n'),
      );
      flockId = flock.id;
    });

    it('answers several passages of one file without consolidate', async () => {
      const hits = await search('bot', 'lighthouse');
      expect(hits.filter((h) => h.file.id === atlasId).length).toBeGreaterThanOrEqual(3);
      expect(hits.every((h) => h.meta.type === 'chunk')).toBe(true);
    });

    it('merges the hits of each file into one consolidated passage in document order with consolidate', async () => {
      const plain = await search('bot', 'lighthouse');
      const hits = await search('bot', 'lighthouse', '&consolidate=true');
      expect(namesOf(hits)).toEqual(['beacon.txt', 'lighthouses.md']);
      const atlas = hits.find((h) => h.file.id === atlasId) as Hit;
      expect(atlas.meta.type).toBe('consolidated');
      const north = atlas.content.indexOf('north lighthouse');
      const south = atlas.content.indexOf('south lighthouse');
      const keeper = atlas.content.indexOf('lighthouse keeper');
      expect(north).toBeGreaterThanOrEqual(0);
      expect(south).toBeGreaterThan(north);
      expect(keeper).toBeGreaterThan(south);
      expect(atlas.content).not.toContain('inner basin');
      expect(atlas.score).toBe(Math.max(...plain.filter((h) => h.file.id === atlasId).map((h) => h.score)));
      expect(atlas.meta.position).toBe(
        Math.min(...plain.filter((h) => h.file.id === atlasId).map((h) => h.meta.position as number)),
      );
    });

    it('joins neighbouring passages into the content with contextDepth, and returns them apart with withContext', async () => {
      const [joined] = await search('bot', 'granite', '&contextDepth=1');
      expect(joined?.content).toBe('South\n\nThe south lighthouse was rebuilt in granite.\n\nKeepers');
      const [apart] = await search('bot', 'granite', '&contextDepth=1&withContext=true');
      expect(apart?.content).toBe('The south lighthouse was rebuilt in granite.');
      expect(apart?.context).toEqual([
        { text: 'Coastal atlas › South', offset: 0, type: 'breadcrumb' },
        { text: 'South', offset: -1, type: 'preceding' },
        { text: 'The south lighthouse was rebuilt in granite.', offset: 0, type: 'current' },
        { text: 'Keepers', offset: 1, type: 'subsequent' },
      ]);
      expect((await searchRes('bot', 'granite', '&contextDepth=10')).statusCode).toBe(200);
    });

    it('refuses contextDepth above 10 or below 0 with 400', async () => {
      expectError(await searchRes('bot', 'granite', '&contextDepth=11'), 400, 'InvalidQuery');
      expectError(await searchRes('bot', 'granite', '&contextDepth=-1'), 400, 'InvalidQuery');
    });

    it('answers 20 passages by default, up to 50 with limit, and refuses more than 50 or fewer than 1', async () => {
      const byDefault = await search('bot', 'kestrel sighting');
      expect(byDefault).toHaveLength(20);
      expect(byDefault.every((h) => h.file.id === flockId)).toBe(true);
      expect(await search('bot', 'kestrel sighting', '&limit=25')).toHaveLength(25);
      expect(await search('bot', 'kestrel', '&limit=50')).toHaveLength(50);
      const over = expectError(await searchRes('bot', 'kestrel', '&limit=51'), 400, 'InvalidPayload');
      expect(over.message).toMatch(/50/);
      expectError(await searchRes('bot', 'kestrel', '&limit=0'), 400, 'InvalidQuery');
    });

    it('orders passages best first', async () => {
      const hits = await search('bot', 'kestrel sighting number 7');
      expect(hits[0]?.content).toBe('Kestrel sighting number 7 near the ridge.');
      for (let i = 1; i < hits.length; i++)
        expect(hits[i - 1]?.score as number).toBeGreaterThanOrEqual(hits[i]?.score as number);
    });

    it('counts the 1 KB query limit in bytes, and refuses a missing or blank query with 400', async () => {
      expect((await searchRes('bot', 'a'.repeat(1024))).statusCode).toBe(200);
      const long = expectError(await searchRes('bot', 'é'.repeat(513)), 400, 'InvalidPayload');
      expect(long.message).toMatch(/1026 bytes.*1024/);
      expectError(await as('bot', 'GET', '/v1/files/search'), 400, 'InvalidQuery');
      expectError(await searchRes('bot', '   '), 400, 'InvalidPayload');
      expectError(await searchRes('bot', 'harbour', '&mode=fuzzy'), 400, 'InvalidQuery');
    });

    it('finds nothing, with 200, for words no file contains', async () => {
      expect(await search('bot', 'xylophone quasar')).toEqual([]);
    });
  });
});
