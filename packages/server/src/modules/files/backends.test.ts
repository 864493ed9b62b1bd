import type { FileObject } from '@parley/protocol';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  blobPaths,
  fetchUrl,
  getFile,
  pathOf,
  putBytes,
  sha256,
  upsert,
} from '../../../../testkit/src/server/files-api.js';
import { localS3 } from '../../../../testkit/src/server/files-s3.js';
import { createTestApp, postgresTestUrl, type TestApp } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

/** A test app on one database and one blob store, and a way to list what the blob store holds. */
interface Backend {
  t: TestApp;
  /** Every object (or file) the blob store holds, temp files included. */
  blobs(): Promise<string[]>;
  close(): Promise<void>;
}

/** Bytes that differ at every 4-byte position, so a misplaced range or part shows. */
function pattern(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4) bytes.writeUInt32BE((i * 2654435761 + seed) >>> 0, i);
  return bytes;
}

/** The same core flow on any database and blob store: upsert, upload, get, download with ranges, copy, delete. */
function coreFlow(name: string, make: () => Promise<Backend>) {
  describe(`the Files API on ${name}`, () => {
    let backend: Backend;
    let t: TestApp;
    let file: FileObject;
    let copy: FileObject;
    // Over one 5 MiB S3 part, so the S3 run goes through a multipart upload.
    const content = pattern(6 * 1024 * 1024 + 123, 1);
    const key = 'core/ünïcode report.bin';

    const download = async (id: string, headers: Record<string, string> = {}) =>
      fetchUrl(t, (await getFile(t, id)).url, headers);

    beforeAll(async () => {
      backend = await make();
      t = backend.t;
    });
    afterAll(() => backend?.close());

    it('upserts a file and uploads its bytes', async () => {
      const pending = await upsert(t, {
        key,
        size: content.length,
        tags: { kind: 'core' },
        metadata: { n: 1 },
      });
      expect(pending).toMatchObject({ key, status: 'upload_pending', size: null });
      const res = await putBytes(t, pending.uploadUrl, content);
      expect(res.statusCode, res.body).toBe(200);
      file = (res.json() as { file: FileObject }).file;
      expect(file).toMatchObject({
        id: pending.id,
        size: content.length,
        status: 'upload_completed',
        checksum: sha256(content),
      });
      expect(await backend.blobs()).toHaveLength(1);
    });

    it('gets the file by id and by key', async () => {
      expect(await getFile(t, file.id)).toMatchObject({
        id: file.id,
        key,
        tags: { kind: 'core' },
        metadata: { n: 1 },
      });
      expect((await getFile(t, key)).id).toBe(file.id);
    });

    it('lists it, also through a tag filter', async () => {
      const res = await api(t, 'GET', '/v1/files?tags.kind=core');
      expect(res.statusCode).toBe(200);
      expect((res.json() as { files: FileObject[] }).files.map((f) => f.id)).toEqual([file.id]);
    });

    it('downloads the exact bytes, whole and by Range', async () => {
      const whole = await download(file.id);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-length']).toBe(String(content.length));
      expect(whole.headers.etag).toBe(`"${sha256(content)}"`);
      expect(whole.rawPayload.equals(content)).toBe(true);
      const start = 5 * 1024 * 1024 - 10;
      const middle = await download(file.id, { range: `bytes=${start}-${start + 99}` });
      expect(middle.statusCode).toBe(206);
      expect(middle.headers['content-range']).toBe(`bytes ${start}-${start + 99}/${content.length}`);
      expect(middle.rawPayload.equals(content.subarray(start, start + 100))).toBe(true);
      const tail = await download(file.id, { range: 'bytes=-7' });
      expect(tail.statusCode).toBe(206);
      expect(tail.rawPayload.equals(content.subarray(content.length - 7))).toBe(true);
      const head = await t.app.inject({ method: 'HEAD', url: pathOf((await getFile(t, file.id)).url) });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(content.length));
      expect(head.rawPayload.length).toBe(0);
    });

    it('counts the stored bytes in the workspace usages', async () => {
      const res = await t.asOwner('GET', `/v1/admin/workspaces/${t.workspaceId}/usages`);
      expect(res.statusCode, res.body).toBe(200);
      const usages = (res.json() as { usages: Array<{ type: string; value: number }> }).usages;
      expect(usages.find((u) => u.type === 'storage_count')).toMatchObject({
        value: content.length,
        quota: null,
      });
    });

    it('copies the file into its own blob', async () => {
      const res = await api(t, 'POST', `/v1/files/${file.id}/${encodeURIComponent('core/copy.bin')}`, {});
      expect(res.statusCode, res.body).toBe(200);
      copy = (res.json() as { file: FileObject }).file;
      expect(copy).toMatchObject({ key: 'core/copy.bin', size: content.length, status: 'upload_completed' });
      expect((await download(copy.id)).rawPayload.equals(content)).toBe(true);
      expect(await backend.blobs()).toHaveLength(2);
      expectError(
        await api(t, 'POST', `/v1/files/${file.id}/${encodeURIComponent('core/copy.bin')}`, {}),
        409,
        'AlreadyExists',
      );
    });

    it('keeps serving the old content on a re-upsert until the new one is stored, then drops the old blob', async () => {
      const next = pattern(1000, 2);
      const pending = await upsert(t, { key, size: next.length });
      expect(pending.id).toBe(file.id);
      expect((await download(file.id)).rawPayload.equals(content)).toBe(true);
      expect(await backend.blobs()).toHaveLength(2);
      expect((await putBytes(t, pending.uploadUrl, next)).statusCode).toBe(200);
      const res = await download(file.id);
      expect(res.rawPayload.equals(next)).toBe(true);
      expect(await backend.blobs()).toHaveLength(2);
    });

    it('keeps nothing from an upload with too many or too few bytes', async () => {
      const over = await upsert(t, { key: 'core/over.bin', size: 10 });
      expectError(await putBytes(t, over.uploadUrl, Buffer.alloc(11)), 413, 'PayloadTooLarge');
      const under = await upsert(t, { key: 'core/under.bin', size: 10 });
      expectError(await putBytes(t, under.uploadUrl, Buffer.alloc(9)), 400, 'InvalidPayload');
      expect((await getFile(t, 'core/over.bin')).status).toBe('upload_failed');
      expect((await getFile(t, 'core/under.bin')).status).toBe('upload_failed');
      expect(await backend.blobs()).toHaveLength(2);
    });

    it('deletes the files, and their blobs are gone', async () => {
      for (const id of [file.id, copy.id, 'core/over.bin', 'core/under.bin']) {
        const res = await api(t, 'DELETE', `/v1/files/${encodeURIComponent(id)}`);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({});
      }
      expectError(await api(t, 'GET', `/v1/files/${file.id}`), 404, 'ResourceNotFound');
      expectError(await api(t, 'GET', `/v1/files/${copy.id}`), 404, 'ResourceNotFound');
      expect(await backend.blobs()).toEqual([]);
    });
  });
}

coreFlow('SQLite and S3 (s3rver)', async () => {
  const s3 = await localS3('parley-files', { partSize: 5 * 1024 * 1024 });
  const t = await createTestApp({ blobs: s3.blobs });
  return {
    t,
    async blobs() {
      const keys = await s3.keys();
      expect(keys.every((k) => k.startsWith('parley/'))).toBe(true);
      return keys;
    },
    async close() {
      await t.close();
      await s3.close();
    },
  };
});

// PostgreSQL runs when PARLEY_TEST_DATABASE_URL is set; with PARLEY_REQUIRE_POSTGRES_TESTS=1 and no URL this throws.
const postgresUrl = postgresTestUrl();
if (postgresUrl) {
  coreFlow('PostgreSQL and local disk', async () => {
    const t = await createTestApp({ databaseUrl: postgresUrl });
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(t.db.kysely)).rows[0]?.s;
    return {
      t,
      blobs: () => blobPaths(t.dataDir),
      async close() {
        await t.close();
        // The harness isolates the run in a fresh schema; leave none behind.
        if (!schema?.startsWith('t_')) return;
        const client = new pg.Client({ connectionString: postgresUrl });
        await client.connect();
        try {
          await client.query(`drop schema if exists "${schema}" cascade`);
        } finally {
          await client.end();
        }
      },
    };
  });
} else {
  describe.skip('the Files API on PostgreSQL and local disk (PARLEY_TEST_DATABASE_URL is not set)', () => {
    it('runs the core flow', () => undefined);
  });
}
