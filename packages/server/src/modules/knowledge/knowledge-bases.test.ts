import type { FileObject, KnowledgeBase } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, type FilesMethod } from '../../../../testkit/src/server/files-api.js';
import { settled } from '../../../../testkit/src/server/files-indexing.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { badFields, expectError } from '../../../../testkit/src/server/wire.js';

/**
 * Knowledge bases (issue 6): CRUD under /v1/files/knowledge-bases, the spec's rule that a linked file is
 * always indexed, the indexing counts a knowledge base reports, linked files with their states, and who may
 * read or change knowledge bases.
 */

interface LinkedFile {
  fileId: string;
  key: string;
  status: string;
  failedStatusReason?: string;
  linkedAt: string;
}

const KB = '/v1/files/knowledge-bases';
const CORRUPT_PDF = '%PDF-1.7\nnot really a pdf at all\n%%EOF';
/** The file counts and bytes of a knowledge base without files (`files` in its answers). */
const NO_FILES = { total: 0, indexed: 0, pending: 0, failed: 0, size: 0 };

describe('knowledge bases', () => {
  const t = useTestApp({ workers: true });
  const tokens: Record<string, string> = {};

  /** A Files API call as `who` ('' for no token) on the bootstrap bot. */
  const as = (who: string, method: FilesMethod, url: string, body?: unknown) =>
    callAs(t, who ? tokens[who] : undefined, method, url, body);

  async function create(name: string, tags?: Record<string, string>): Promise<KnowledgeBase> {
    const res = await as('bot', 'POST', KB, { name, ...(tags ? { tags } : {}) });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { knowledgeBase: KnowledgeBase }).knowledgeBase;
  }

  async function getKb(id: string): Promise<KnowledgeBase> {
    const res = await as('bot', 'GET', `${KB}/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { knowledgeBase: KnowledgeBase }).knowledgeBase;
  }

  async function linkedFiles(id: string, who = 'bot'): Promise<LinkedFile[]> {
    const res = await as(who, 'GET', `${KB}/${id}/files`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { files: LinkedFile[] }).files;
  }

  async function link(id: string, file: string): Promise<KnowledgeBase> {
    const res = await as('bot', 'PUT', `${KB}/${id}/files/${encodeURIComponent(file)}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { knowledgeBase: KnowledgeBase }).knowledgeBase;
  }

  async function getFile(id: string): Promise<FileObject> {
    const res = await as('bot', 'GET', `/v1/files/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { file: FileObject }).file;
  }

  async function upsert(key: string, size: number, extra: Record<string, unknown> = {}, who = 'bot') {
    const res = await as(who, 'PUT', '/v1/files', { key, size, ...extra });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { file: FileObject & { uploadUrl: string } }).file;
  }

  async function put(uploadUrl: string, content: string): Promise<FileObject> {
    const u = new URL(uploadUrl);
    const res = await t.app.inject({
      method: 'PUT',
      url: `${u.pathname}${u.search}`,
      payload: Buffer.from(content),
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { file: FileObject }).file;
  }

  /** Uploads a file without index:true: it ends upload_completed, not indexed. */
  async function uploadPlain(key: string, content: string, extra: Record<string, unknown> = {}, who = 'bot') {
    const file = await upsert(key, Buffer.byteLength(content), extra, who);
    return put(file.uploadUrl, content);
  }

  async function search(
    query: string,
    extra = '',
  ): Promise<Array<{ content: string; file: { id: string } }>> {
    const res = await as('bot', 'GET', `/v1/files/search?query=${encodeURIComponent(query)}${extra}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { passages: Array<{ content: string; file: { id: string } }> }).passages;
  }

  beforeAll(async () => {
    const integration = await t.asOwner('POST', '/v1/admin/integrations', { name: 'kb-integration' });
    const integrationId = (integration.json() as { integration: { id: string } }).integration.id;
    expect(
      (await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/integrations/${integrationId}`)).statusCode,
    ).toBe(200);
    const key = await t.asOwner('POST', `/v1/admin/bots/${t.botId}/integrations/${integrationId}/keys`, {
      note: 'kb',
    });
    Object.assign(tokens, {
      bot: t.botKey,
      owner: t.owner.token,
      integration: (key.json() as { key: { value: string } }).key.value,
      developer: (await t.addMember('developer')).token,
      viewer: (await t.addMember('viewer')).token,
      billing: (await t.addMember('billing')).token,
      stranger: (await t.otherTenant()).token,
    });
  });

  describe('CRUD', () => {
    it('creates a knowledge base with 201 and answers it with empty counts', async () => {
      const res = await as('bot', 'POST', KB, { name: 'Support', tags: { team: 'support' } });
      expect(res.statusCode, res.body).toBe(201);
      const kb = (res.json() as { knowledgeBase: KnowledgeBase }).knowledgeBase;
      expect(kb).toEqual({
        id: expect.stringMatching(/^kb_/),
        botId: t.botId,
        name: 'Support',
        tags: { team: 'support' },
        createdAt: expect.any(String),
        updatedAt: kb.createdAt,
        files: NO_FILES,
      });
      expect(await getKb(kb.id)).toEqual(kb);
    });

    it('refuses a second knowledge base with the same name on the bot with 409, and allows it on another bot', async () => {
      await create('Unique name');
      const again = expectError(await as('bot', 'POST', KB, { name: 'Unique name' }), 409, 'AlreadyExists');
      expect(again.message).toContain('Unique name');
      const bot2 = await t.asOwner('POST', '/v1/admin/bots', { name: 'KB bot 2' });
      const bot2Id = (bot2.json() as { bot: { id: string } }).bot.id;
      const res = await t.call({
        method: 'POST',
        url: KB,
        token: t.owner.token,
        headers: { 'x-bot-id': bot2Id },
        body: { name: 'Unique name' },
      });
      expect(res.statusCode, res.body).toBe(201);
      // Each bot lists only its own.
      const mine = await t.call({
        method: 'GET',
        url: `${KB}?pageSize=100`,
        token: t.owner.token,
        headers: { 'x-bot-id': bot2Id },
      });
      expect((mine.json() as { knowledgeBases: KnowledgeBase[] }).knowledgeBases.map((k) => k.name)).toEqual([
        'Unique name',
      ]);
    });

    it('refuses a bad body with 400 naming the field', async () => {
      expect(badFields(expectError(await as('bot', 'POST', KB, {}), 400, 'InvalidPayload'))).toContain(
        'name',
      );
      expect(
        badFields(expectError(await as('bot', 'POST', KB, { name: 'x'.repeat(201) }), 400, 'InvalidPayload')),
      ).toEqual(['name']);
      expectError(await as('bot', 'POST', KB, { name: '' }), 400, 'InvalidPayload');
      expectError(await as('bot', 'POST', KB, { name: 'x'.repeat(201) }), 400, 'InvalidPayload');
      expectError(
        await as('bot', 'POST', KB, { name: 'Tagged', tags: { team: { nested: 'x' } } }),
        400,
        'InvalidPayload',
      );
      expectError(
        await as('bot', 'POST', KB, { name: 'Tagged', tags: { team: 'x'.repeat(1001) } }),
        400,
        'InvalidPayload',
      );
      expectError(await as('bot', 'POST', KB, { name: 'Tagged', tags: 'team' }), 400, 'InvalidPayload');
    });

    it('renames a knowledge base and changes its tags, refusing a name already taken with 409', async () => {
      const kb = await create('Before');
      await create('Taken');
      const res = await as('bot', 'PUT', `${KB}/${kb.id}`, { name: 'After', tags: { v: '2' } });
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as { knowledgeBase: KnowledgeBase }).knowledgeBase).toMatchObject({
        id: kb.id,
        name: 'After',
        tags: { v: '2' },
        createdAt: kb.createdAt,
      });
      expectError(await as('bot', 'PUT', `${KB}/${kb.id}`, { name: 'Taken' }), 409, 'AlreadyExists');
      expectError(await as('bot', 'PUT', `${KB}/${kb.id}`, {}), 400, 'InvalidPayload');
      expect((await getKb(kb.id)).name).toBe('After');
    });

    it('answers 404 for an unknown knowledge base on every operation', async () => {
      const unknown = `${KB}/kb_unknown`;
      expectError(await as('bot', 'GET', unknown), 404, 'ResourceNotFound');
      expectError(await as('bot', 'PUT', unknown, { name: 'x' }), 404, 'ResourceNotFound');
      expectError(await as('bot', 'DELETE', unknown), 404, 'ResourceNotFound');
      expectError(await as('bot', 'GET', `${unknown}/files`), 404, 'ResourceNotFound');
      const file = await uploadPlain('for-unknown.txt', 'x');
      expectError(await as('bot', 'PUT', `${unknown}/files/${file.id}`), 404, 'ResourceNotFound');
      expectError(await as('bot', 'DELETE', `${unknown}/files/${file.id}`), 404, 'ResourceNotFound');
      expect((await getFile(file.id)).status).toBe('upload_completed');
    });

    it('lists knowledge bases page by page', async () => {
      const res0 = await as('bot', 'GET', `${KB}?pageSize=100`);
      const before = (res0.json() as { knowledgeBases: KnowledgeBase[] }).knowledgeBases.length;
      for (let i = 0; i < 5; i++) await create(`Paged ${i}`);
      const seen: string[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const res = await as('bot', 'GET', `${KB}?pageSize=2${token ? `&nextToken=${token}` : ''}`);
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json() as { knowledgeBases: KnowledgeBase[]; meta: { nextToken?: string } };
        expect(body.knowledgeBases.length).toBeLessThanOrEqual(2);
        seen.push(...body.knowledgeBases.map((k) => k.id));
        token = body.meta.nextToken;
        pages += 1;
      } while (token && pages < 50);
      expect(seen).toHaveLength(before + 5);
      expect(new Set(seen).size).toBe(seen.length);
      expect(pages).toBe(Math.ceil((before + 5) / 2));
      const byDefault = await as('bot', 'GET', KB);
      expect((byDefault.json() as { knowledgeBases: KnowledgeBase[] }).knowledgeBases.length).toBe(
        Math.min(20, before + 5),
      );
      expectError(await as('bot', 'GET', `${KB}?pageSize=101`), 400, 'InvalidQuery');
      expectError(await as('bot', 'GET', `${KB}?pageSize=0`), 400, 'InvalidQuery');
      expectError(await as('bot', 'GET', `${KB}?nextToken=garbage`), 400, 'InvalidQuery');
    });

    it('deletes a knowledge base (then 404) and keeps its files, indexed and searchable', async () => {
      const kb = await create('Doomed');
      const file = await uploadPlain('kept.txt', 'The ibis wades through the marsh.');
      await link(kb.id, file.id);
      expect((await settled(t, file.id)).status).toBe('indexing_completed');
      const res = await as('bot', 'DELETE', `${KB}/${kb.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({});
      expectError(await as('bot', 'GET', `${KB}/${kb.id}`), 404, 'ResourceNotFound');
      expectError(await as('bot', 'DELETE', `${KB}/${kb.id}`), 404, 'ResourceNotFound');
      expect(await getFile(file.id)).toMatchObject({ status: 'indexing_completed', index: true });
      expect((await search('ibis marsh'))[0]?.file.id).toBe(file.id);
      expectError(
        await as('bot', 'GET', `/v1/files/search?query=ibis&knowledgeBaseIds=${kb.id}`),
        404,
        'ResourceNotFound',
      );
    });
  });

  describe('the link rule: a linked file is always indexed', () => {
    it('starts indexing an uploaded file that was not indexed when it is linked', async () => {
      const kb = await create('Link uploaded');
      const file = await uploadPlain('not-indexed.txt', 'The quetzal has emerald feathers.');
      expect(file).toMatchObject({ status: 'upload_completed', index: false });
      const linked = await link(kb.id, file.id);
      expect(linked.files).toEqual({ ...NO_FILES, total: 1, pending: 1, size: file.size });
      expect(await getFile(file.id)).toMatchObject({ index: true, status: 'indexing_pending' });
      expect((await settled(t, file.id)).status).toBe('indexing_completed');
      expect((await getKb(kb.id)).files).toEqual({ ...NO_FILES, total: 1, indexed: 1, size: file.size });
      expect((await search('quetzal', `&knowledgeBaseIds=${kb.id}`))[0]?.file.id).toBe(file.id);
    });

    it('marks a file still upload_pending index:true when linked, so it indexes once uploaded', async () => {
      const kb = await create('Link pending');
      const content = 'The okapi is related to the giraffe.';
      const pending = await upsert('pending.txt', Buffer.byteLength(content));
      expect(pending).toMatchObject({ status: 'upload_pending', index: false });
      const linked = await link(kb.id, pending.id);
      expect(linked.files).toEqual({ ...NO_FILES, total: 1, pending: 1 });
      expect(await getFile(pending.id)).toMatchObject({ status: 'upload_pending', index: true });
      expect(await linkedFiles(kb.id)).toEqual([
        { fileId: pending.id, key: 'pending.txt', status: 'upload_pending', linkedAt: expect.any(String) },
      ]);
      expect((await put(pending.uploadUrl, content)).status).toBe('indexing_pending');
      expect((await settled(t, pending.id)).status).toBe('indexing_completed');
      expect((await getKb(kb.id)).files).toEqual({
        ...NO_FILES,
        total: 1,
        indexed: 1,
        size: Buffer.byteLength(content),
      });
    });

    it('leaves an indexed file alone when it is linked (no new job), and linking twice changes nothing', async () => {
      const kb = await create('Link indexed');
      const file = await uploadPlain('already.txt', 'The tapir has a short trunk.', { index: true });
      const done = await settled(t, file.id);
      expect(done.status).toBe('indexing_completed');
      const jobs = async () =>
        (await t.db.kysely.selectFrom('jobs').select('payload').execute()).filter((j) =>
          j.payload.includes(file.id),
        ).length;
      expect(await jobs()).toBe(1);
      const oneIndexed = { ...NO_FILES, total: 1, indexed: 1, size: file.size };
      expect((await link(kb.id, file.id)).files).toEqual(oneIndexed);
      expect((await link(kb.id, 'already.txt')).files).toEqual(oneIndexed);
      expect(await jobs()).toBe(1);
      expect((await getFile(file.id)).updatedAt).toBe(done.updatedAt);
    });

    it('reports a file that fails as failed, with its reason in the linked files, so no client waits forever', async () => {
      const kb = await create('With failure');
      const bad = await uploadPlain('broken.pdf', CORRUPT_PDF);
      await link(kb.id, bad.id);
      const failed = await settled(t, bad.id);
      expect(failed.status).toBe('indexing_failed');
      expect((await getKb(kb.id)).files).toEqual({ ...NO_FILES, total: 1, failed: 1, size: bad.size });
      const [entry] = await linkedFiles(kb.id);
      expect(entry).toEqual({
        fileId: bad.id,
        key: 'broken.pdf',
        status: 'indexing_failed',
        failedStatusReason: expect.stringMatching(/^unreadable_document: \S/),
        linkedAt: expect.any(String),
      });
      expect(entry?.failedStatusReason).toBe(failed.failedStatusReason);
    });

    it('counts total, indexed, pending and failed files together with their bytes, and lists them in link order', async () => {
      const kb = await create('Mixed');
      const good = await uploadPlain('mixed-good.txt', 'The dugong grazes on seagrass.', { index: true });
      await settled(t, good.id);
      const bad = await uploadPlain('mixed-bad.pdf', CORRUPT_PDF);
      const waiting = await upsert('mixed-waiting.txt', 10);
      // A file waiting for its upload counts no bytes.
      const size = (good.size ?? 0) + (bad.size ?? 0);
      const counts = (total: number, indexed: number, pending: number, failed: number) => ({
        total,
        indexed,
        pending,
        failed,
        size,
      });
      expect((await link(kb.id, good.id)).files).toEqual({ ...counts(1, 1, 0, 0), size: good.size });
      expect((await link(kb.id, bad.id)).files).toEqual(counts(2, 1, 1, 0));
      expect((await link(kb.id, waiting.id)).files).toEqual(counts(3, 1, 2, 0));
      await settled(t, bad.id);
      expect((await getKb(kb.id)).files).toEqual(counts(3, 1, 1, 1));
      expect((await linkedFiles(kb.id)).map((f) => [f.key, f.status])).toEqual([
        ['mixed-good.txt', 'indexing_completed'],
        ['mixed-bad.pdf', 'indexing_failed'],
        ['mixed-waiting.txt', 'upload_pending'],
      ]);
    });

    it('re-indexes a failed file when it is linked again after a fix-up', async () => {
      const kb = await create('Relink');
      const bad = await uploadPlain('relink.pdf', CORRUPT_PDF, { index: true });
      expect((await settled(t, bad.id)).status).toBe('indexing_failed');
      // Linking a failed file queues it again (the rule: a linked file is always indexed, or says why not).
      await link(kb.id, bad.id);
      expect((await getFile(bad.id)).status).toBe('indexing_pending');
      expect((await settled(t, bad.id)).status).toBe('indexing_failed');
    });

    it('answers 404 when linking an unknown file, by id or key', async () => {
      const kb = await create('Unknown file');
      expectError(await as('bot', 'PUT', `${KB}/${kb.id}/files/file_unknown`), 404, 'ResourceNotFound');
      expectError(await as('bot', 'PUT', `${KB}/${kb.id}/files/no-such-key.txt`), 404, 'ResourceNotFound');
      expect((await getKb(kb.id)).files.total).toBe(0);
    });
  });

  describe('unlinking', () => {
    it('unlinks a file: the counts drop, the file stays indexed, and scoped search no longer finds it', async () => {
      const kb = await create('Unlink');
      const file = await uploadPlain('unlinked.txt', 'The gharial has a narrow snout.');
      await link(kb.id, file.id);
      await settled(t, file.id);
      expect((await search('gharial', `&knowledgeBaseIds=${kb.id}`))[0]?.file.id).toBe(file.id);
      const res = await as('bot', 'DELETE', `${KB}/${kb.id}/files/${file.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as { knowledgeBase: KnowledgeBase }).knowledgeBase.files).toEqual(NO_FILES);
      expect(await linkedFiles(kb.id)).toEqual([]);
      expect(await search('gharial', `&knowledgeBaseIds=${kb.id}`)).toEqual([]);
      expect(await getFile(file.id)).toMatchObject({ status: 'indexing_completed', index: true });
      expect((await search('gharial'))[0]?.file.id).toBe(file.id);
      // Unlinking again changes nothing; an unknown file is 404.
      expect((await as('bot', 'DELETE', `${KB}/${kb.id}/files/${file.id}`)).statusCode).toBe(200);
      expectError(await as('bot', 'DELETE', `${KB}/${kb.id}/files/file_unknown`), 404, 'ResourceNotFound');
    });

    it('drops a deleted file from its knowledge bases', async () => {
      const kb = await create('Deleted file');
      const file = await uploadPlain('deleted.txt', 'Temporary.');
      await link(kb.id, file.id);
      await settled(t, file.id);
      expect((await as('bot', 'DELETE', `/v1/files/${file.id}`)).statusCode).toBe(200);
      expect((await getKb(kb.id)).files).toEqual(NO_FILES);
      expect(await linkedFiles(kb.id)).toEqual([]);
    });
  });

  describe('who may read and change knowledge bases', () => {
    let kbId: string;
    let fileId: string;
    let privateId: string;
    beforeAll(async () => {
      const kb = await create('Guarded');
      kbId = kb.id;
      fileId = (await uploadPlain('guarded-shared.txt', 'Shared text.', { accessPolicies: ['integrations'] }))
        .id;
      privateId = (await uploadPlain('guarded-private.txt', 'Private text.')).id;
      await link(kbId, fileId);
      await link(kbId, privateId);
      await settled(t, fileId);
      await settled(t, privateId);
    });

    const writes = (): Array<[string, 'POST' | 'PUT' | 'DELETE', string, unknown?]> => [
      ['create', 'POST', KB, { name: 'Not allowed' }],
      ['update', 'PUT', `${KB}/${kbId}`, { name: 'Renamed' }],
      ['link', 'PUT', `${KB}/${kbId}/files/${fileId}`],
      ['unlink', 'DELETE', `${KB}/${kbId}/files/${fileId}`],
      ['delete', 'DELETE', `${KB}/${kbId}`],
    ];
    const reads = (): Array<[string, string]> => [
      ['list', KB],
      ['get', `${KB}/${kbId}`],
      ['list files', `${KB}/${kbId}/files`],
    ];

    it('lets a viewer read knowledge bases and their files', async () => {
      for (const [, url] of reads()) expect((await as('viewer', 'GET', url)).statusCode).toBe(200);
      expect((await linkedFiles(kbId, 'viewer')).map((f) => f.fileId)).toEqual([fileId, privateId]);
    });

    it('refuses a viewer every change with 403, and changes nothing', async () => {
      for (const [op, method, url, body] of writes()) {
        const res = await as('viewer', method, url, body);
        expect(res.statusCode, `${op}: ${res.body}`).toBe(403);
        expectError(res, 403, 'Forbidden');
      }
      expect(await getKb(kbId)).toMatchObject({ name: 'Guarded', files: { total: 2 } });
    });

    it('refuses a billing member reads and changes with 403', async () => {
      for (const [, url] of reads()) expectError(await as('billing', 'GET', url), 403, 'Forbidden');
      for (const [, method, url, body] of writes())
        expectError(await as('billing', method, url, body), 403, 'Forbidden');
    });

    it('lets an integration read, showing it only the linked files it may read, and refuses it changes with 403', async () => {
      for (const [, url] of reads()) expect((await as('integration', 'GET', url)).statusCode).toBe(200);
      expect((await linkedFiles(kbId, 'integration')).map((f) => f.fileId)).toEqual([fileId]);
      for (const [, method, url, body] of writes())
        expectError(await as('integration', method, url, body), 403, 'Forbidden');
    });

    it('refuses a call without a token with 401 and a member of another workspace with 404', async () => {
      for (const [, url] of reads()) {
        expectError(await as('', 'GET', url), 401, 'Unauthorized');
        expectError(await as('stranger', 'GET', url), 404, 'ResourceNotFound');
      }
      for (const [, method, url, body] of writes()) {
        expectError(await as('', method, url, body), 401, 'Unauthorized');
        expectError(await as('stranger', method, url, body), 404, 'ResourceNotFound');
      }
    });

    it('lets a developer create, link and delete knowledge bases', async () => {
      const res = await as('developer', 'POST', KB, { name: 'By a developer' });
      expect(res.statusCode, res.body).toBe(201);
      const id = (res.json() as { knowledgeBase: KnowledgeBase }).knowledgeBase.id;
      expect((await as('developer', 'PUT', `${KB}/${id}/files/${fileId}`)).statusCode).toBe(200);
      expect((await as('developer', 'DELETE', `${KB}/${id}`)).statusCode).toBe(200);
    });
  });
});
