// listFiles' search and state filter, done in SQL with the rest of the list: keyContains (a case-insensitive
// substring of the key, wildcards taken literally) and status (one or several states), combined with tags,
// sorting and paging; the total count of what they keep; and their 400s.
import type { FileObject } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, putBytes, store, upsert } from '../../../../testkit/src/server/files-api.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { testDatabases } from '../../../../testkit/src/server/harness.js';
import { badFields, expectError } from '../../../../testkit/src/server/wire.js';

interface Listed {
  files: FileObject[];
  meta: { nextToken?: string; total?: number };
}

const databases = testDatabases();

describe.each(databases)('listFiles: keyContains and status ($name)', ({ url }) => {
  const t = useTestApp(url ? { databaseUrl: url } : {});
  const list = async (query: string): Promise<Listed> => {
    const res = await api(t, 'GET', `/v1/files?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Listed;
  };
  const keys = async (query: string) => (await list(query)).files.map((f) => f.key);

  beforeAll(async () => {
    for (const key of ['docs/Guide.md', 'docs/guide-2.md', 'notes/100%_done.txt', 'notes/100x done.txt']) {
      await store(t, key, 'hello', { tags: { team: key.startsWith('docs') ? 'docs' : 'notes' } });
    }
    await upsert(t, { key: 'pending/waiting.md', size: 10 });
    const failed = await upsert(t, { key: 'pending/short.md', size: 10 });
    expect((await putBytes(t, failed.uploadUrl, Buffer.from('abc'))).statusCode).toBe(400);
  });

  it('keeps the keys containing the text, whatever the case of its letters', async () => {
    expect(await keys('keyContains=GUIDE&sortField=key&sortDirection=asc')).toEqual([
      'docs/Guide.md',
      'docs/guide-2.md',
    ]);
    expect(await keys('keyContains=nothing-like-this')).toEqual([]);
  });

  it('takes % and _ in the text literally', async () => {
    expect(await keys('keyContains=100%25_')).toEqual(['notes/100%_done.txt']);
    expect(await keys('keyContains=_')).toEqual(['notes/100%_done.txt']);
  });

  it('keeps the files in the states asked, one or several', async () => {
    expect(await keys('status=upload_pending')).toEqual(['pending/waiting.md']);
    expect(
      (await keys('status=upload_pending&status=upload_failed&sortField=key&sortDirection=asc')).sort(),
    ).toEqual(['pending/short.md', 'pending/waiting.md']);
    expect((await keys('status=upload_completed')).sort()).toEqual([
      'docs/Guide.md',
      'docs/guide-2.md',
      'notes/100%_done.txt',
      'notes/100x done.txt',
    ]);
  });

  it('combines with tags, sorting and paging', async () => {
    expect(await keys('keyContains=100&tags.team=notes&sortField=key&sortDirection=desc')).toEqual([
      'notes/100x done.txt',
      'notes/100%_done.txt',
    ]);
    expect(await keys('keyContains=guide&tags.team=notes')).toEqual([]);
    const first = await list(
      'keyContains=.&status=upload_completed&pageSize=3&sortField=key&sortDirection=asc',
    );
    expect(first.files).toHaveLength(3);
    const token = encodeURIComponent(first.meta.nextToken as string);
    const second = await list(
      `keyContains=.&status=upload_completed&pageSize=3&sortField=key&sortDirection=asc&nextToken=${token}`,
    );
    expect(second.files.map((f) => f.key)).toEqual(['notes/100x done.txt']);
    expect(second.meta.nextToken).toBeUndefined();
  });

  it('counts the files matching the filters in all, on every page', async () => {
    const query = 'keyContains=.&status=upload_completed&pageSize=3&sortField=key&sortDirection=asc';
    const first = await list(query);
    expect(first.files).toHaveLength(3);
    expect(first.meta.total).toBe(4);
    const token = encodeURIComponent(first.meta.nextToken as string);
    expect((await list(`${query}&nextToken=${token}`)).meta.total).toBe(4);
    expect((await list('tags.team=docs')).meta.total).toBe(2);
    expect((await list('keyContains=nothing-like-this')).meta).toEqual({ total: 0 });
    // Every file of the bot, waiting and failed ones too.
    expect((await list('pageSize=1')).meta.total).toBe(6);
  });

  it('answers 400 InvalidQuery for an empty or too long keyContains and an unknown status', async () => {
    const empty = expectError(await api(t, 'GET', '/v1/files?keyContains='), 400, 'InvalidQuery');
    expect(badFields(empty)).toContain('keyContains');
    const long = `keyContains=${'a'.repeat(1025)}`;
    expectError(await api(t, 'GET', `/v1/files?${long}`), 400, 'InvalidQuery');
    const unknown = expectError(await api(t, 'GET', '/v1/files?status=indexed'), 400, 'InvalidQuery');
    expect(badFields(unknown).some((f) => f.startsWith('status'))).toBe(true);
  });
});
