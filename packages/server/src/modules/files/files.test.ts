import type { FileObject } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { useClockedApp } from '../../../../testkit/src/server/clocked-app-fixture.js';
import {
  api,
  blobPaths,
  fetchUrl,
  getFile,
  putBytes,
  sha256,
  store,
  type Upserted,
  upsert,
} from '../../../../testkit/src/server/files-api.js';
import type { TestApp } from '../../../../testkit/src/server/harness.js';
import { badFields, expectError } from '../../../../testkit/src/server/wire.js';

const DAY_MS = 24 * 3600 * 1000;
const FILE_ID = /^file_[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

async function createBot(t: TestApp, name: string): Promise<string> {
  const res = await t.asOwner('POST', '/v1/admin/bots', { name });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { bot: { id: string } }).bot.id;
}

describe('upsertFile', () => {
  const { t, clock } = useClockedApp();

  it('answers {file} with every field of the file object plus an uploadUrl', async () => {
    const res = await api(t, 'PUT', '/v1/files', {
      key: 'docs/report.pdf',
      size: 1234,
      tags: { team: 'ops', year: '2024' },
      metadata: { author: 'Ada', nested: { pages: [1, 2] } },
      accessPolicies: ['integrations'],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { file: Upserted };
    expect(Object.keys(body)).toEqual(['file']);
    const at = new Date(clock.ms).toISOString();
    expect(body.file).toEqual({
      id: expect.stringMatching(FILE_ID),
      botId: t.botId,
      key: 'docs/report.pdf',
      url: expect.stringMatching(/^https?:\/\/[^/]+\/v1\/files\/file_\w+\/content\?/),
      size: null,
      contentType: 'application/pdf',
      tags: { team: 'ops', year: '2024' },
      metadata: { author: 'Ada', nested: { pages: [1, 2] } },
      createdAt: at,
      updatedAt: at,
      accessPolicies: ['integrations'],
      index: false,
      status: 'upload_pending',
      owner: { type: 'bot', id: t.botId },
      uploadUrl: expect.stringMatching(/^https?:\/\/[^/]+\/v1\/files\/file_\w+\/upload\?/),
    });
    expect(body.file.url).toContain(`/v1/files/${body.file.id}/content?`);
    expect(body.file.uploadUrl).toContain(`/v1/files/${body.file.id}/upload?`);
    expect(await getFile(t, body.file.id)).toEqual({
      ...body.file,
      url: expect.any(String),
      uploadUrl: undefined,
    });
  });

  it('defaults tags, metadata and accessPolicies to empty and index to false', async () => {
    const file = await upsert(t, { key: 'plain.txt', size: 3 });
    expect(file).toMatchObject({ tags: {}, metadata: {}, accessPolicies: [], index: false });
    expect(file.createdAt).toMatch(ISO);
    expect(file).not.toHaveProperty('expiresAt');
    expect(file).not.toHaveProperty('failedStatusReason');
  });

  it('infers the content type from the key’s extension, else application/octet-stream, unless one is given', async () => {
    expect((await upsert(t, { key: 'a/b/photo.PNG', size: 1 })).contentType).toBe('image/png');
    expect((await upsert(t, { key: 'notes.md', size: 1 })).contentType).toBe('text/markdown');
    expect((await upsert(t, { key: 'no-extension', size: 1 })).contentType).toBe('application/octet-stream');
    expect((await upsert(t, { key: 'weird.zzzunknown', size: 1 })).contentType).toBe(
      'application/octet-stream',
    );
    expect((await upsert(t, { key: 'data.bin', size: 1, contentType: 'text/csv' })).contentType).toBe(
      'text/csv',
    );
  });

  it('keeps index: true when asked', async () => {
    expect((await upsert(t, { key: 'indexed.txt', size: 1, index: true })).index).toBe(true);
  });

  it('answers 400 naming key when the key is missing', async () => {
    const body = expectError(await api(t, 'PUT', '/v1/files', { size: 10 }), 400, 'InvalidPayload');
    expect(badFields(body)).toContain('key');
    expect(body.message).toContain('key');
  });

  it('answers 400 naming size when the size is missing', async () => {
    const body = expectError(await api(t, 'PUT', '/v1/files', { key: 'x.txt' }), 400, 'InvalidPayload');
    expect(badFields(body)).toContain('size');
    expect(body.message).toContain('size');
  });

  it('answers 400 naming size when the size is negative or not an integer', async () => {
    for (const size of [-1, 1.5]) {
      const body = expectError(
        await api(t, 'PUT', '/v1/files', { key: 'x.txt', size }),
        400,
        'InvalidPayload',
      );
      expect(badFields(body)).toContain('size');
    }
  });

  it('answers 400 when the body is empty', async () => {
    const res = await api(t, 'PUT', '/v1/files');
    expectError(res, 400, 'InvalidPayload');
  });

  it('answers 413 PayloadTooLarge for a size over 1 GB and creates nothing', async () => {
    const res = await api(t, 'PUT', '/v1/files', { key: 'huge.bin', size: 1073741825 });
    const body = expectError(res, 413, 'PayloadTooLarge');
    expect(body.message).toMatch(/1 GB|1073741824/);
    expectError(await api(t, 'GET', '/v1/files/huge.bin'), 404, 'ResourceNotFound');
  });

  it('accepts a size of exactly 1 GB', async () => {
    const file = await upsert(t, { key: 'one-gig.bin', size: 1073741824 });
    expect(file).toMatchObject({ status: 'upload_pending', size: null });
  });

  it('answers 413 PayloadTooLarge for a JSON body over 1 MB and accepts one just under', async () => {
    const big = await api(t, 'PUT', '/v1/files', {
      key: 'big-metadata.txt',
      size: 1,
      metadata: { blob: 'x'.repeat(1024 * 1024) },
    });
    expectError(big, 413, 'PayloadTooLarge');
    expectError(await api(t, 'GET', '/v1/files/big-metadata.txt'), 404, 'ResourceNotFound');
    // Just under 1 MB, in fields that may be that large together (metadata alone stops at 64 KB).
    const tags = Object.fromEntries(Array.from({ length: 950 }, (_, i) => [`t${i}`, 'x'.repeat(1000)]));
    const fits = await upsert(t, { key: 'big-body.txt', size: 1, tags });
    expect(Object.keys(fits.tags)).toHaveLength(950);
  });

  it('answers 400 naming expiresAt when it is in the past', async () => {
    const past = new Date(clock.ms - 1000).toISOString();
    const body = expectError(
      await api(t, 'PUT', '/v1/files', { key: 'past.txt', size: 1, expiresAt: past }),
      400,
      'InvalidPayload',
    );
    expect(badFields(body)).toEqual(['expiresAt']);
    expect(body.message).toMatch(/future/);
    expectError(await api(t, 'GET', '/v1/files/past.txt'), 404, 'ResourceNotFound');
  });

  it('answers 400 naming expiresAt when it is more than 90 days ahead, and accepts 89 days', async () => {
    const tooFar = new Date(clock.ms + 90 * DAY_MS + 60_000).toISOString();
    const body = expectError(
      await api(t, 'PUT', '/v1/files', { key: 'far.txt', size: 1, expiresAt: tooFar }),
      400,
      'InvalidPayload',
    );
    expect(badFields(body)).toEqual(['expiresAt']);
    expect(body.message).toMatch(/90 days/);
    const ok = new Date(clock.ms + 89 * DAY_MS).toISOString();
    expect((await upsert(t, { key: 'far.txt', size: 1, expiresAt: ok })).expiresAt).toBe(ok);
  });

  it('answers 400 when expiresAt is not a timestamp', async () => {
    const body = expectError(
      await api(t, 'PUT', '/v1/files', { key: 'bad-date.txt', size: 1, expiresAt: 'tomorrow' }),
      400,
      'InvalidPayload',
    );
    expect(badFields(body)).toContain('expiresAt');
  });

  it('ignores owner and status in the body: they are never settable', async () => {
    const file = await upsert(t, {
      key: 'sneaky.txt',
      size: 5,
      owner: { type: 'integration', id: 'int_someone' },
      status: 'upload_completed',
    });
    expect(file.owner).toEqual({ type: 'bot', id: t.botId });
    expect(file.status).toBe('upload_pending');
    expect(file.size).toBeNull();
    expect(await getFile(t, file.id)).toMatchObject({
      owner: { type: 'bot', id: t.botId },
      status: 'upload_pending',
    });
  });

  it('answers 400 naming x-bot-id when the header is missing', async () => {
    for (const [method, url, body] of [
      ['PUT', '/v1/files', { key: 'a.txt', size: 1 }],
      ['GET', '/v1/files', undefined],
      ['GET', '/v1/files/a.txt', undefined],
    ] as const) {
      const res = await t.call({ method, url, token: t.botKey, body });
      const error = expectError(res, 400, 'InvalidPayload');
      expect(error.message).toContain('x-bot-id');
      expect(badFields(error)).toEqual(['x-bot-id']);
    }
  });

  it('answers 401 without a token', async () => {
    const res = await t.call({
      method: 'PUT',
      url: '/v1/files',
      headers: { 'x-bot-id': t.botId },
      body: { key: 'anon.txt', size: 1 },
    });
    expectError(res, 401, 'Unauthorized');
  });

  it('re-upserting a key replaces the file: same id, upload_pending, size null, a new uploadUrl, the old one 410', async () => {
    const first = await upsert(t, { key: 'replace/me.txt', size: 4, tags: { v: '1', old: 'yes' } });
    clock.advance(1000);
    const second = await upsert(t, {
      key: 'replace/me.txt',
      size: 6,
      tags: { v: '2' },
      metadata: { round: 2 },
    });
    expect(second.id).toBe(first.id);
    expect(second).toMatchObject({
      status: 'upload_pending',
      size: null,
      tags: { v: '2' },
      metadata: { round: 2 },
      createdAt: first.createdAt,
    });
    expect(second.updatedAt > first.updatedAt).toBe(true);
    expect(second.uploadUrl).not.toBe(first.uploadUrl);
    const stale = await putBytes(t, first.uploadUrl, Buffer.from('abcd'));
    expect(expectError(stale, 410, 'ResourceGone').message).toMatch(/replaced|newer/);
    const fresh = await putBytes(t, second.uploadUrl, Buffer.from('abcdef'));
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect((fresh.json() as { file: FileObject }).file).toMatchObject({
      id: first.id,
      size: 6,
      status: 'upload_completed',
      checksum: sha256('abcdef'),
    });
  });

  it('serves the old content whole until the re-upsert’s upload commits, then exactly the new bytes, never a mix', async () => {
    const oldBytes = Buffer.from('OLD CONTENT, LONGER THAN THE NEW ONE');
    const newBytes = Buffer.from('new content');
    const original = await store(t, 'mix/doc.txt', oldBytes);
    const oldUrl = (await getFile(t, original.id)).url;
    expect((await fetchUrl(t, oldUrl)).rawPayload.equals(oldBytes)).toBe(true);

    const replaced = await upsert(t, { key: 'mix/doc.txt', size: newBytes.length });
    expect(replaced.id).toBe(original.id);
    // Meanwhile: the url from before and a fresh one both serve the old bytes, with the old headers.
    for (const url of [oldUrl, (await getFile(t, original.id)).url]) {
      const whole = await fetchUrl(t, url);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-length']).toBe(String(oldBytes.length));
      expect(whole.rawPayload.equals(oldBytes)).toBe(true);
      const part = await fetchUrl(t, url, { range: 'bytes=0-3' });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.toString()).toBe('OLD ');
      const head = await fetchUrl(t, url, {}, 'HEAD');
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(oldBytes.length));
    }

    const uploaded = await putBytes(t, replaced.uploadUrl, newBytes);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const res = await fetchUrl(t, (await getFile(t, original.id)).url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(newBytes.length));
    expect(res.rawPayload.equals(newBytes)).toBe(true);
    // The old blob went once the new one was committed: one blob left for this file.
    expect((await blobPaths(t.dataDir)).filter((p) => p.includes(original.id))).toHaveLength(1);
  });
});

describe('listFiles', () => {
  const { t, clock } = useClockedApp();
  /** The 25 files, as the API answered them after setup. */
  let all: FileObject[];
  const COLORS = ['red', 'green', 'blue'];

  const list = async (query = ''): Promise<{ files: FileObject[]; meta: { nextToken?: string } }> => {
    const res = await api(t, 'GET', `/v1/files${query ? `?${query}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { files: FileObject[]; meta: { nextToken?: string } };
  };

  /** Follows nextToken until the last page; answers the ids in order and the page sizes. */
  const listAll = async (query: string) => {
    const ids: string[] = [];
    const sizes: number[] = [];
    let token: string | undefined;
    for (let page = 0; page < 50; page += 1) {
      const q = [query, token ? `nextToken=${encodeURIComponent(token)}` : ''].filter(Boolean).join('&');
      const body = await list(q);
      ids.push(...body.files.map((f) => f.id));
      sizes.push(body.files.length);
      token = body.meta.nextToken;
      if (!token) return { ids, sizes };
    }
    throw new Error('pagination did not end');
  };

  beforeAll(async () => {
    for (let i = 0; i < 25; i += 1) {
      clock.advance(1000);
      const key = `k-${String((i * 7) % 25).padStart(2, '0')}.txt`;
      const size = (i * 13) % 17;
      const file = await upsert(t, {
        key,
        size,
        index: i % 4 === 0,
        tags: { color: COLORS[i % 3] as string, group: i % 2 === 0 ? 'even' : 'odd' },
      });
      if (i % 5 === 4) {
        // Too few bytes: upload_failed.
        expect((await putBytes(t, file.uploadUrl, Buffer.alloc(Math.max(0, size - 1)))).statusCode).toBe(
          size === 0 ? 200 : 400,
        );
      } else if (i % 3 !== 2) {
        expect((await putBytes(t, file.uploadUrl, Buffer.alloc(size, i))).statusCode).toBe(200);
      }
    }
    // Touch some files later so that updatedAt orders differently from createdAt.
    const firstPage = await list('pageSize=100');
    for (const file of firstPage.files.filter((_, n) => n % 4 === 1)) {
      clock.advance(1000);
      const res = await api(t, 'PUT', `/v1/files/${file.id}`, { metadata: { touched: true } });
      expect(res.statusCode).toBe(200);
    }
    all = (await list('pageSize=100')).files;
    expect(all).toHaveLength(25);
  });

  type SortField = 'key' | 'size' | 'createdAt' | 'updatedAt' | 'status';
  const sortValue = (f: FileObject, field: SortField): string | number =>
    field === 'size' ? (f.size ?? -1) : f[field];
  const expectedOrder = (field: SortField, direction: 'asc' | 'desc'): string[] => {
    const sign = direction === 'asc' ? 1 : -1;
    return [...all]
      .sort((a, b) => {
        const va = sortValue(a, field);
        const vb = sortValue(b, field);
        if (va !== vb) return (va < vb ? -1 : 1) * sign;
        return (a.id < b.id ? -1 : 1) * sign;
      })
      .map((f) => f.id);
  };
  const idsWhere = (pred: (f: FileObject) => boolean) =>
    all
      .filter(pred)
      .map((f) => f.id)
      .sort();

  it('has files in every status, for the sorts below to mean something', () => {
    const statuses = new Set(all.map((f) => f.status));
    // Files uploaded with index: true wait for indexing (no workers run in this app).
    expect(statuses).toEqual(
      new Set(['upload_pending', 'upload_completed', 'upload_failed', 'indexing_pending']),
    );
    expect(all.find((f) => f.status === 'upload_failed')?.failedStatusReason).toMatch(/upload_incomplete/);
  });

  it('answers the 20 most recent files by default, with a nextToken, then the rest without one', async () => {
    const first = await list();
    const newestFirst = expectedOrder('createdAt', 'desc');
    expect(first.files.map((f) => f.id)).toEqual(newestFirst.slice(0, 20));
    expect(first.meta.nextToken).toEqual(expect.any(String));
    const second = await list(`nextToken=${encodeURIComponent(first.meta.nextToken as string)}`);
    expect(second.files.map((f) => f.id)).toEqual(newestFirst.slice(20));
    expect(second.meta).toEqual({ total: 25 });
  });

  it('pages through every file with nextToken and pageSize, without duplicates or gaps', async () => {
    const { ids, sizes } = await listAll('pageSize=7');
    expect(sizes).toEqual([7, 7, 7, 4]);
    expect(new Set(ids).size).toBe(25);
    expect(ids).toEqual(expectedOrder('createdAt', 'desc'));
  });

  it('answers no nextToken when the last page is exactly full', async () => {
    const { sizes } = await listAll('pageSize=25');
    expect(sizes).toEqual([25]);
  });

  for (const field of ['key', 'size', 'createdAt', 'updatedAt', 'status'] as const) {
    for (const direction of ['asc', 'desc'] as const) {
      it(`sorts by ${field} ${direction} across pages`, async () => {
        const { ids } = await listAll(`sortField=${field}&sortDirection=${direction}&pageSize=6`);
        expect(ids).toEqual(expectedOrder(field, direction));
      });
    }
  }

  it('answers 400 InvalidQuery for an unknown sortField, sortDirection or a pageSize out of range', async () => {
    for (const q of ['sortField=name', 'sortDirection=up', 'pageSize=0', 'pageSize=101', 'pageSize=abc']) {
      expectError(await api(t, 'GET', `/v1/files?${q}`), 400, 'InvalidQuery');
    }
  });

  it('answers 400 for a nextToken that was not handed out, or one from another sort', async () => {
    expect((await api(t, 'GET', '/v1/files?nextToken=garbage')).statusCode).toBe(400);
    const first = await list('pageSize=5&sortField=key');
    const res = await api(
      t,
      'GET',
      `/v1/files?sortField=size&nextToken=${encodeURIComponent(first.meta.nextToken as string)}`,
    );
    expect(res.statusCode).toBe(400);
  });

  const red = () => idsWhere((f) => f.tags.color === 'red');
  for (const [encoding, query] of [
    ['dots (tags.color=red)', 'tags.color=red'],
    ['brackets (tags[color]=red)', `${encodeURIComponent('tags[color]')}=red`],
    [
      'URL-encoded JSON (tags={"color":"red"})',
      `tags=${encodeURIComponent(JSON.stringify({ color: 'red' }))}`,
    ],
  ] as const) {
    it(`filters by tag written with ${encoding}`, async () => {
      const { ids } = await listAll(`${query}&pageSize=100`);
      expect(ids.sort()).toEqual(red());
      expect(ids.length).toBeGreaterThan(0);
    });
  }

  it('AND-s tag keys, OR-s repeated values and excludes with not, in every encoding', async () => {
    const redOdd = idsWhere((f) => f.tags.color === 'red' && f.tags.group === 'odd');
    expect((await listAll('tags.color=red&tags.group=odd')).ids.sort()).toEqual(redOdd);
    expect(
      (
        await listAll(`${encodeURIComponent('tags[color]')}=red&${encodeURIComponent('tags[group]')}=odd`)
      ).ids.sort(),
    ).toEqual(redOdd);
    expect(
      (
        await listAll(`tags=${encodeURIComponent(JSON.stringify({ color: 'red', group: 'odd' }))}`)
      ).ids.sort(),
    ).toEqual(redOdd);
    const redOrBlue = idsWhere((f) => f.tags.color !== 'green');
    expect((await listAll('tags.color=red&tags.color=blue')).ids.sort()).toEqual(redOrBlue);
    expect((await listAll('tags.color.not=green')).ids.sort()).toEqual(redOrBlue);
    expect(
      (await listAll(`tags=${encodeURIComponent(JSON.stringify({ color: { not: 'green' } }))}`)).ids.sort(),
    ).toEqual(redOrBlue);
    expect((await listAll('tags.color=purple')).ids).toEqual([]);
  });

  it('answers 400 InvalidQuery for a malformed JSON tag filter', async () => {
    expectError(await api(t, 'GET', '/v1/files?tags=%7Bnot-json'), 400, 'InvalidQuery');
  });

  it('filters by ids, one or many', async () => {
    const chosen = [all[3], all[7], all[20]].map((f) => (f as FileObject).id);
    const { ids } = await listAll(chosen.map((id) => `ids=${id}`).join('&'));
    expect(ids.sort()).toEqual([...chosen].sort());
    const one = await list(`ids=${chosen[0]}`);
    expect(one.files.map((f) => f.id)).toEqual([chosen[0]]);
  });

  it('accepts 50 ids and answers 400 InvalidQuery naming ids for 51', async () => {
    const fifty = [...all.map((f) => f.id), ...Array.from({ length: 25 }, (_, i) => `file_unknown${i}`)];
    expect(fifty).toHaveLength(50);
    const ok = await list(`${fifty.map((id) => `ids=${id}`).join('&')}&pageSize=100`);
    expect(ok.files).toHaveLength(25);
    const body = expectError(
      await api(t, 'GET', `/v1/files?${[...fifty, 'file_one_more'].map((id) => `ids=${id}`).join('&')}`),
      400,
      'InvalidQuery',
    );
    expect(badFields(body).join(' ')).toContain('ids');
  });

  it('filters by indexed', async () => {
    expect((await listAll('indexed=true')).ids.sort()).toEqual(idsWhere((f) => f.index));
    expect((await listAll('indexed=false')).ids.sort()).toEqual(idsWhere((f) => !f.index));
    expectError(await api(t, 'GET', '/v1/files?indexed=maybe'), 400, 'InvalidQuery');
  });

  it('lists only the files of the bot named by x-bot-id', async () => {
    const other = await createBot(t, 'Second bot');
    const res = await t.call({
      method: 'GET',
      url: '/v1/files',
      token: t.owner.token,
      headers: { 'x-bot-id': other },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ files: [], meta: { total: 0 } });
  });
});

describe('getFile', () => {
  const { t } = useClockedApp();

  it('finds a file by id and by key', async () => {
    const file = await store(t, 'simple.txt', 'hello');
    const byId = await getFile(t, file.id);
    const byKey = await getFile(t, 'simple.txt');
    expect(byId).toEqual({ ...file, url: expect.any(String) });
    expect(byKey).toEqual({ ...file, url: expect.any(String) });
    expect(byId).toMatchObject({ size: 5, status: 'upload_completed', checksum: sha256('hello') });
  });

  it('finds a file by a key containing / sent URL-encoded', async () => {
    const file = await store(t, 'folder/sub folder/deep.json', '{}');
    const res = await api(t, 'GET', `/v1/files/${encodeURIComponent('folder/sub folder/deep.json')}`);
    expect(res.statusCode).toBe(200);
    expect((res.json() as { file: FileObject }).file).toMatchObject({
      id: file.id,
      key: 'folder/sub folder/deep.json',
    });
  });

  it('finds a file by a non-ASCII key', async () => {
    const key = 'résumés/Grüße 日本語 ✓.txt';
    const file = await store(t, key, 'ünïcödé');
    const res = await api(t, 'GET', `/v1/files/${encodeURIComponent(key)}`);
    expect(res.statusCode).toBe(200);
    expect((res.json() as { file: FileObject }).file).toMatchObject({
      id: file.id,
      key,
      size: Buffer.byteLength('ünïcödé'),
    });
  });

  it('answers 404 ResourceNotFound for an unknown id or key', async () => {
    const a = expectError(
      await api(t, 'GET', '/v1/files/file_01K0000000000000000000000'),
      404,
      'ResourceNotFound',
    );
    expect(a.message).toContain('file_01K0000000000000000000000');
    expectError(await api(t, 'GET', '/v1/files/missing.txt'), 404, 'ResourceNotFound');
  });

  it('answers 404 for a file of another bot, even to the workspace owner', async () => {
    const file = await store(t, 'mine.txt', 'x');
    const other = await createBot(t, 'Other bot');
    const res = await t.call({
      method: 'GET',
      url: `/v1/files/${file.id}`,
      token: t.owner.token,
      headers: { 'x-bot-id': other },
    });
    expectError(res, 404, 'ResourceNotFound');
  });
});

describe('updateFileMetadata', () => {
  const { t, clock } = useClockedApp();

  const update = async (idOrKey: string, body: Record<string, unknown>): Promise<FileObject> => {
    const res = await api(t, 'PUT', `/v1/files/${encodeURIComponent(idOrKey)}`, body);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { file: FileObject }).file;
  };

  it('sets and replaces tags, and removes the ones set to null', async () => {
    const file = await store(t, 'tags.txt', 'abc', { tags: { a: '1', b: '2', c: '3' } });
    clock.advance(1000);
    const updated = await update(file.id, { tags: { a: null, b: 'two', d: '4' } });
    expect(updated.tags).toEqual({ b: 'two', c: '3', d: '4' });
    expect(updated.updatedAt > file.updatedAt).toBe(true);
    expect((await getFile(t, file.id)).tags).toEqual({ b: 'two', c: '3', d: '4' });
  });

  it('merges metadata and removes the keys set to null', async () => {
    const file = await store(t, 'meta.txt', 'abc', { metadata: { keep: 1, drop: 'me', replace: { a: 1 } } });
    const updated = await update(file.id, { metadata: { drop: null, replace: { b: 2 }, added: [1, 2] } });
    expect(updated.metadata).toEqual({ keep: 1, replace: { b: 2 }, added: [1, 2] });
    expect((await getFile(t, 'meta.txt')).metadata).toEqual(updated.metadata);
  });

  it('sets and clears accessPolicies', async () => {
    const file = await store(t, 'policies.txt', 'abc');
    expect(
      (await update(file.id, { accessPolicies: ['public_content', 'integrations'] })).accessPolicies,
    ).toEqual(['public_content', 'integrations']);
    expect((await update(file.id, { accessPolicies: [] })).accessPolicies).toEqual([]);
    const bad = expectError(
      await api(t, 'PUT', `/v1/files/${file.id}`, { accessPolicies: ['everyone'] }),
      400,
      'InvalidPayload',
    );
    expect(badFields(bad).join(' ')).toContain('accessPolicies');
  });

  it('sets expiresAt, and clears it with null', async () => {
    const file = await store(t, 'expiring.txt', 'abc');
    const at = new Date(clock.ms + 5 * DAY_MS).toISOString();
    expect((await update(file.id, { expiresAt: at })).expiresAt).toBe(at);
    const cleared = await update(file.id, { expiresAt: null });
    expect(cleared).not.toHaveProperty('expiresAt');
    expect(await getFile(t, file.id)).not.toHaveProperty('expiresAt');
  });

  it('answers 400 for an expiresAt in the past or more than 90 days ahead, and changes nothing', async () => {
    const file = await store(t, 'expiry-errors.txt', 'abc');
    for (const when of [clock.ms - 1000, clock.ms + 91 * DAY_MS]) {
      const body = expectError(
        await api(t, 'PUT', `/v1/files/${file.id}`, {
          expiresAt: new Date(when).toISOString(),
          tags: { x: 'y' },
        }),
        400,
        'InvalidPayload',
      );
      expect(badFields(body)).toEqual(['expiresAt']);
    }
    expect(await getFile(t, file.id)).toMatchObject({ tags: {} });
  });

  it('keeps the status, size and content of the file', async () => {
    const file = await store(t, 'content-kept.txt', 'still here');
    const updated = await update('content-kept.txt', { tags: { x: '1' }, metadata: { y: 2 } });
    expect(updated).toMatchObject({ status: 'upload_completed', size: 10, checksum: file.checksum });
    const res = await fetchUrl(t, updated.url);
    expect(res.body).toBe('still here');
  });

  it('answers 404 for an unknown file and 400 for a tag value over 1000 characters', async () => {
    expectError(await api(t, 'PUT', '/v1/files/nope.txt', { tags: { a: 'b' } }), 404, 'ResourceNotFound');
    const file = await store(t, 'long-tag.txt', 'x');
    const body = expectError(
      await api(t, 'PUT', `/v1/files/${file.id}`, { tags: { a: 'v'.repeat(1001) } }),
      400,
      'InvalidPayload',
    );
    expect(badFields(body).join(' ')).toContain('tags');
  });
});

describe('deleteFile', () => {
  const { t } = useClockedApp();

  it('answers 200 {}, then 404, and the blob is gone from the blob folder', async () => {
    const keep = await store(t, 'keep.txt', 'keep me');
    const file = await store(t, 'to/delete.txt', 'bye bye');
    const before = await blobPaths(t.dataDir);
    expect(before.filter((p) => p.includes(file.id))).toHaveLength(1);
    const res = await api(t, 'DELETE', `/v1/files/${file.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expectError(await api(t, 'GET', `/v1/files/${file.id}`), 404, 'ResourceNotFound');
    expectError(await api(t, 'DELETE', `/v1/files/${file.id}`), 404, 'ResourceNotFound');
    const after = await blobPaths(t.dataDir);
    expect(after.filter((p) => p.includes(file.id))).toEqual([]);
    expect(after).toHaveLength(before.length - 1);
    expect((await fetchUrl(t, (await getFile(t, keep.id)).url)).body).toBe('keep me');
  });

  it('deletes by key, and a file never uploaded', async () => {
    await store(t, 'by/key.txt', 'abc');
    const res = await api(t, 'DELETE', `/v1/files/${encodeURIComponent('by/key.txt')}`);
    expect(res.statusCode).toBe(200);
    expectError(
      await api(t, 'GET', `/v1/files/${encodeURIComponent('by/key.txt')}`),
      404,
      'ResourceNotFound',
    );
    const pending = await upsert(t, { key: 'never-uploaded.txt', size: 3 });
    expect((await api(t, 'DELETE', `/v1/files/${pending.id}`)).statusCode).toBe(200);
    expectError(await putBytes(t, pending.uploadUrl, Buffer.from('abc')), 410, 'ResourceGone');
  });

  it('makes an earlier download url stop working', async () => {
    const file = await store(t, 'gone.txt', 'abc');
    const url = (await getFile(t, file.id)).url;
    expect((await api(t, 'DELETE', `/v1/files/${file.id}`)).statusCode).toBe(200);
    expectError(await fetchUrl(t, url), 404, 'ResourceNotFound');
  });
});

describe('copyFile', () => {
  const { t } = useClockedApp();
  let secondBot: string;
  beforeAll(async () => {
    secondBot = await createBot(t, 'Destination bot');
  });

  const copy = (
    idOrKey: string,
    destinationKey: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    api(
      t,
      'POST',
      `/v1/files/${encodeURIComponent(idOrKey)}/${encodeURIComponent(destinationKey)}`,
      body,
      headers,
    );

  it('copies a file on the same bot: a new file with the content, tags and metadata', async () => {
    const source = await store(t, 'src/a.txt', 'copy me', { tags: { k: 'v' }, metadata: { m: 1 } });
    const res = await copy(source.id, 'dst/b.txt');
    expect(res.statusCode, res.body).toBe(200);
    const copied = (res.json() as { file: FileObject }).file;
    expect(copied).toMatchObject({
      botId: t.botId,
      key: 'dst/b.txt',
      size: 7,
      contentType: 'text/plain',
      tags: { k: 'v' },
      metadata: { m: 1 },
      status: 'upload_completed',
      checksum: sha256('copy me'),
      owner: { type: 'bot', id: t.botId },
    });
    expect(copied.id).toMatch(FILE_ID);
    expect(copied.id).not.toBe(source.id);
    expect((await fetchUrl(t, copied.url)).body).toBe('copy me');
    expect((await fetchUrl(t, (await getFile(t, source.id)).url)).body).toBe('copy me');
    // The copy has its own blob: deleting the source leaves it intact.
    expect((await api(t, 'DELETE', `/v1/files/${source.id}`)).statusCode).toBe(200);
    expect((await fetchUrl(t, (await getFile(t, copied.id)).url)).body).toBe('copy me');
  });

  it('copies by source key, and accepts an empty body or overwrite: false', async () => {
    await store(t, 'by-key/source.txt', 'by key');
    const res = await copy('by-key/source.txt', 'by-key/copy.txt', {});
    expect(res.statusCode, res.body).toBe(200);
    expect((await getFile(t, 'by-key/copy.txt')).checksum).toBe(sha256('by key'));
    const again = await copy('by-key/source.txt', 'by-key/copy2.txt', { overwrite: false });
    expect(again.statusCode).toBe(200);
  });

  it('copies to another bot of the workspace with x-destination-bot-id', async () => {
    const source = await store(t, 'cross/src.txt', 'to the other bot');
    const res = await t.call({
      method: 'POST',
      url: `/v1/files/${source.id}/${encodeURIComponent('cross/dst.txt')}`,
      token: t.owner.token,
      headers: { 'x-bot-id': t.botId, 'x-destination-bot-id': secondBot },
    });
    expect(res.statusCode, res.body).toBe(200);
    const copied = (res.json() as { file: FileObject }).file;
    expect(copied).toMatchObject({
      botId: secondBot,
      key: 'cross/dst.txt',
      size: 16,
      status: 'upload_completed',
    });
    expect(copied.owner).toEqual({ type: 'user', id: t.owner.accountId });
    const onSecond = await t.call({
      method: 'GET',
      url: `/v1/files/${encodeURIComponent('cross/dst.txt')}`,
      token: t.owner.token,
      headers: { 'x-bot-id': secondBot },
    });
    expect(onSecond.statusCode).toBe(200);
    const file = (onSecond.json() as { file: FileObject }).file;
    expect((await fetchUrl(t, file.url)).body).toBe('to the other bot');
    // Not on the source bot.
    expectError(
      await api(t, 'GET', `/v1/files/${encodeURIComponent('cross/dst.txt')}`),
      404,
      'ResourceNotFound',
    );
  });

  it('answers 403 when a bot access key copies to another bot', async () => {
    const source = await store(t, 'cross/denied.txt', 'x');
    const res = await copy(source.id, 'cross/denied.txt', undefined, { 'x-destination-bot-id': secondBot });
    expectError(res, 403, 'Forbidden');
  });

  it('answers 404 for a destination bot of another workspace', async () => {
    const source = await store(t, 'cross/other-ws.txt', 'x');
    const other = await t.otherTenant();
    const res = await t.call({
      method: 'POST',
      url: `/v1/files/${source.id}/copy.txt`,
      token: t.owner.token,
      headers: { 'x-bot-id': t.botId, 'x-destination-bot-id': other.botId },
    });
    expectError(res, 404, 'ResourceNotFound');
  });

  it('answers 409 AlreadyExists when the destination exists without overwrite, and keeps it', async () => {
    await store(t, 'ow/source.txt', 'new bytes!');
    const dest = await store(t, 'ow/dest.txt', 'old');
    const res = await copy('ow/source.txt', 'ow/dest.txt');
    expect(expectError(res, 409, 'AlreadyExists').message).toContain('overwrite');
    expectError(await copy('ow/source.txt', 'ow/dest.txt', { overwrite: false }), 409, 'AlreadyExists');
    expect((await fetchUrl(t, (await getFile(t, dest.id)).url)).body).toBe('old');
  });

  it('replaces the destination with overwrite: true, and its old blob goes', async () => {
    await store(t, 'ow2/source.txt', 'new bytes!', { tags: { from: 'source' } });
    const dest = await store(t, 'ow2/dest.txt', 'old', { tags: { from: 'dest' } });
    const res = await copy('ow2/source.txt', 'ow2/dest.txt', { overwrite: true });
    expect(res.statusCode, res.body).toBe(200);
    const copied = (res.json() as { file: FileObject }).file;
    expect(copied).toMatchObject({ id: dest.id, key: 'ow2/dest.txt', size: 10, tags: { from: 'source' } });
    expect((await fetchUrl(t, copied.url)).body).toBe('new bytes!');
    expect((await blobPaths(t.dataDir)).filter((p) => p.includes(dest.id))).toEqual([]);
  });

  it('answers 409 for a file without uploaded content', async () => {
    const pending = await upsert(t, { key: 'empty/pending.txt', size: 3 });
    const body = expectError(await copy(pending.id, 'empty/copy.txt'), 409, 'ResourceLockedConflict');
    expect(body.message).toMatch(/no uploaded content/);
    expectError(await api(t, 'GET', '/v1/files/empty%2Fcopy.txt'), 404, 'ResourceNotFound');
  });

  it('answers 409 for a re-upserted file whose new content is not uploaded yet, rather than copy the old bytes', async () => {
    await store(t, 'empty/replaced.txt', 'old bytes');
    await upsert(t, { key: 'empty/replaced.txt', size: 9 });
    expectError(await copy('empty/replaced.txt', 'empty/replaced-copy.txt'), 409, 'ResourceLockedConflict');
  });

  it('answers 404 for an unknown source', async () => {
    expectError(await copy('nothing-here.txt', 'copy.txt'), 404, 'ResourceNotFound');
  });
});

describe('listFileTags and listFileTagValues', () => {
  const { t } = useClockedApp();
  beforeAll(async () => {
    await upsert(t, { key: 'a.txt', size: 1, tags: { alpha: '1', color: 'red' } });
    await upsert(t, { key: 'b.txt', size: 1, tags: { beta: '1', color: 'green' } });
    await upsert(t, { key: 'c.txt', size: 1, tags: { gamma: '1', color: 'red', delta: 'x' } });
    await upsert(t, { key: 'd.txt', size: 1, tags: { epsilon: '1', color: 'amber' } });
    await upsert(t, { key: 'e.txt', size: 1, tags: { color: 'violet' } });
    await upsert(t, { key: 'f.txt', size: 1, tags: { color: 'blue' } });
  });

  const pages = async (url: string, field: 'tags' | 'values', pageSize: number) => {
    const out: string[][] = [];
    let token: string | undefined;
    for (let i = 0; i < 20; i += 1) {
      const sep = url.includes('?') ? '&' : '?';
      const res = await api(
        t,
        'GET',
        `${url}${sep}pageSize=${pageSize}${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as Record<string, string[]> & { meta: { nextToken?: string } };
      out.push(body[field] as string[]);
      token = body.meta.nextToken;
      if (!token) return out;
    }
    throw new Error('pagination did not end');
  };

  it('lists the distinct tag keys, sorted', async () => {
    const res = await api(t, 'GET', '/v1/files/tags');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tags: ['alpha', 'beta', 'color', 'delta', 'epsilon', 'gamma'], meta: {} });
  });

  it('pages through tag keys with nextToken', async () => {
    expect(await pages('/v1/files/tags', 'tags', 4)).toEqual([
      ['alpha', 'beta', 'color', 'delta'],
      ['epsilon', 'gamma'],
    ]);
  });

  it('lists the distinct values of a tag, sorted, and pages through them', async () => {
    const res = await api(t, 'GET', '/v1/files/tags/color/values');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ values: ['amber', 'blue', 'green', 'red', 'violet'], meta: {} });
    expect(await pages('/v1/files/tags/color/values', 'values', 2)).toEqual([
      ['amber', 'blue'],
      ['green', 'red'],
      ['violet'],
    ]);
  });

  it('answers no values for an unknown tag', async () => {
    const res = await api(t, 'GET', '/v1/files/tags/unknown/values');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ values: [], meta: {} });
  });

  it('forgets a tag once no file carries it', async () => {
    expect((await api(t, 'PUT', '/v1/files/a.txt', { tags: { alpha: null } })).statusCode).toBe(200);
    expect((await api(t, 'GET', '/v1/files/tags')).json()).toMatchObject({
      tags: ['beta', 'color', 'delta', 'epsilon', 'gamma'],
    });
  });

  it('answers 400 InvalidQuery for a pageSize out of range and 400 for a garbage nextToken', async () => {
    expectError(await api(t, 'GET', '/v1/files/tags?pageSize=0'), 400, 'InvalidQuery');
    expect((await api(t, 'GET', '/v1/files/tags/color/values?nextToken=garbage')).statusCode).toBe(400);
  });
});

describe('file expiry', () => {
  const { t, clock } = useClockedApp();

  it('deletes a file with expiresAt, and its blob, once the clock passes it', async () => {
    const expiring = await store(t, 'expiring.txt', 'short-lived', {
      expiresAt: new Date(clock.ms + 3600_000).toISOString(),
    });
    const lasting = await store(t, 'lasting.txt', 'here to stay');
    const pending = await upsert(t, {
      key: 'expiring-pending.txt',
      size: 3,
      expiresAt: new Date(clock.ms + 3600_000).toISOString(),
    });
    expect(await t.app.services.files.expire()).toBe(0);
    clock.advance(3599_000);
    expect(await t.app.services.files.expire()).toBe(0);
    expect((await getFile(t, expiring.id)).status).toBe('upload_completed');
    expect((await blobPaths(t.dataDir)).filter((p) => p.includes(expiring.id))).toHaveLength(1);

    clock.advance(2000);
    expect(await t.app.services.files.expire()).toBe(2);
    expectError(await api(t, 'GET', `/v1/files/${expiring.id}`), 404, 'ResourceNotFound');
    expectError(await api(t, 'GET', `/v1/files/${pending.id}`), 404, 'ResourceNotFound');
    expect((await blobPaths(t.dataDir)).filter((p) => p.includes(expiring.id))).toEqual([]);
    expect((await getFile(t, lasting.id)).status).toBe('upload_completed');
    expect(await t.app.services.files.expire()).toBe(0);
  });

  it('does not delete a file whose expiresAt was cleared', async () => {
    const file = await store(t, 'reprieved.txt', 'abc', {
      expiresAt: new Date(clock.ms + 60_000).toISOString(),
    });
    expect((await api(t, 'PUT', `/v1/files/${file.id}`, { expiresAt: null })).statusCode).toBe(200);
    clock.advance(120_000);
    expect(await t.app.services.files.expire()).toBe(0);
    expect((await getFile(t, file.id)).status).toBe('upload_completed');
  });
});

describe('File Storage quota of a workspace', () => {
  const { t } = useClockedApp({ env: { PARLEY_QUOTA_FILE_STORAGE_BYTES: '100' } });

  const usage = async () => {
    const res = await t.asOwner('GET', `/v1/admin/workspaces/${t.workspaceId}/usages`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { usages: Array<{ type: string }> }).usages.find((u) => u.type === 'storage_count');
  };

  it('answers 403 QuotaExceeded for a file larger than the quota and creates nothing', async () => {
    const body = expectError(
      await api(t, 'PUT', '/v1/files', { key: 'big.bin', size: 101 }),
      403,
      'QuotaExceeded',
    );
    expect(body.message).toContain('100');
    expect((await api(t, 'GET', '/v1/files')).json()).toEqual({ files: [], meta: { total: 0 } });
    expect(await usage()).toMatchObject({ value: 0, quota: 100 });
  });

  it('shows the stored bytes and the quota as storage_count in the workspace usages', async () => {
    await store(t, 'sixty.bin', Buffer.alloc(60, 7));
    expect(await usage()).toEqual({
      id: t.workspaceId,
      period: expect.stringMatching(/^\d{4}-\d{2}$/),
      type: 'storage_count',
      value: 60,
      quota: 100,
    });
  });

  it('counts pending uploads at their declared size against the quota', async () => {
    expectError(await api(t, 'PUT', '/v1/files', { key: 'forty-one.bin', size: 41 }), 403, 'QuotaExceeded');
    const pending = await upsert(t, { key: 'forty.bin', size: 40 });
    expectError(await api(t, 'PUT', '/v1/files', { key: 'one.bin', size: 1 }), 403, 'QuotaExceeded');
    // Pending bytes are reserved, not yet stored.
    expect(await usage()).toMatchObject({ value: 60 });
    expect((await putBytes(t, pending.uploadUrl, Buffer.alloc(40))).statusCode).toBe(200);
    expect(await usage()).toMatchObject({ value: 100 });
  });

  it('lets a re-upsert reuse the bytes of the file it replaces', async () => {
    const res = await api(t, 'PUT', '/v1/files', { key: 'sixty.bin', size: 60 });
    expect(res.statusCode, res.body).toBe(200);
    expectError(await api(t, 'PUT', '/v1/files', { key: 'sixty.bin', size: 61 }), 403, 'QuotaExceeded');
  });

  it('answers 403 QuotaExceeded for a copy that would pass the quota', async () => {
    expectError(await api(t, 'POST', '/v1/files/forty.bin/forty-copy.bin'), 403, 'QuotaExceeded');
    expectError(await api(t, 'GET', '/v1/files/forty-copy.bin'), 404, 'ResourceNotFound');
  });

  it('frees the bytes of a deleted file', async () => {
    expect((await api(t, 'DELETE', '/v1/files/forty.bin')).statusCode).toBe(200);
    // sixty.bin's 60 bytes stay stored (and served) until its re-upsert's upload commits.
    expect(await usage()).toMatchObject({ value: 60, quota: 100 });
    expect((await api(t, 'PUT', '/v1/files', { key: 'new.bin', size: 40 })).statusCode).toBe(200);
  });
});
