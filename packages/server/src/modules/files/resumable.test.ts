import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FileObject, ResumableUpload } from '@parley/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  blobPaths,
  fetchUrl,
  getFile,
  movableClock,
  pathOf,
  sha256,
  tamper,
  upsert,
} from '../../../../testkit/src/server/files-api.js';
import { localS3 } from '../../../../testkit/src/server/files-s3.js';
import { createTestApp, postgresTestUrl, type TestApp } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import type { BlobStore } from '../../blob/blob-store.js';
import { localDiskBlobStore } from '../../blob/local-disk.js';
import { RESUMABLE_UPLOAD_TTL_MS } from './resumable.js';

/** Bytes that differ at every 4-byte position, so a misplaced part shows. */
function pattern(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4) bytes.writeUInt32BE((i * 2654435761 + seed) >>> 0, i);
  return bytes;
}

/** A test app on one database and one blob store, its movable clock, and what its blob store holds. */
interface Backend {
  t: TestApp;
  clock: ReturnType<typeof movableClock>;
  /** The app's blob store, to write to it behind the API's back. */
  store: BlobStore;
  blobs(): Promise<string[]>;
  close(): Promise<void>;
}

const start = (t: TestApp, uploadUrl: string) => t.app.inject({ method: 'POST', url: pathOf(uploadUrl) });
const state = (t: TestApp, url: string) => t.app.inject({ method: 'GET', url: pathOf(url) });
const append = (t: TestApp, url: string, offset: number | undefined, bytes: Buffer) =>
  t.app.inject({
    method: 'PATCH',
    url: pathOf(url),
    payload: bytes,
    headers: {
      'content-type': 'application/offset+octet-stream',
      ...(offset === undefined ? {} : { 'upload-offset': String(offset) }),
    },
  });
const uploadOf = (res: LightMyRequestResponse) => (res.json() as { upload: ResumableUpload }).upload;

/** Starts the resumable upload of a new file of `size` bytes; expects 201. */
async function begin(
  t: TestApp,
  key: string,
  size: number,
): Promise<{ file: FileObject; upload: ResumableUpload }> {
  const file = await upsert(t, { key, size });
  const res = await start(t, file.uploadUrl);
  expect(res.statusCode, res.body).toBe(201);
  return { file, upload: uploadOf(res) };
}

function resumableFlow(name: string, make: () => Promise<Backend>) {
  describe(`resumable uploads on ${name}`, () => {
    let b: Backend;
    let t: TestApp;
    // Over one 5 MiB S3 part, so the S3 run joins the parts through a multipart upload.
    const content = pattern(6 * 1024 * 1024 + 123, 7);
    const parts = [
      content.subarray(0, 2_500_000),
      content.subarray(2_500_000, 5_000_000),
      content.subarray(5_000_000),
    ];

    beforeAll(async () => {
      b = await make();
      t = b.t;
    });
    afterAll(() => b?.close());

    it('uploads a file in parts, showing it uploaded only once every byte is stored, with the sha256 of the bytes', async () => {
      const file = await upsert(t, { key: 'big/video.bin', size: content.length });
      const started = await start(t, file.uploadUrl);
      expect(started.statusCode, started.body).toBe(201);
      const upload = uploadOf(started);
      expect(upload).toMatchObject({ size: content.length, offset: 0, status: 'active' });
      expect(started.headers['upload-offset']).toBe('0');
      // Starting again answers the same upload (a client that lost the answer asks again).
      const again = await start(t, file.uploadUrl);
      expect(again.statusCode).toBe(200);
      expect(uploadOf(again).id).toBe(upload.id);

      let offset = 0;
      for (const [i, part] of parts.entries()) {
        const res = await append(t, upload.url, offset, Buffer.from(part));
        expect(res.statusCode, res.body).toBe(200);
        offset += part.length;
        expect(res.headers['upload-offset']).toBe(String(offset));
        const body = res.json() as { upload: ResumableUpload; file?: FileObject };
        expect(body.upload.offset).toBe(offset);
        if (i < parts.length - 1) {
          expect(body.file).toBeUndefined();
          // Not a file yet: still waiting for its upload, no size, nothing to download.
          expect(await getFile(t, file.id)).toMatchObject({ status: 'upload_pending', size: null });
          expect(uploadOf(await state(t, upload.url)).offset).toBe(offset);
        } else {
          expect(body.upload.status).toBe('completed');
          expect(body.file).toMatchObject({
            id: file.id,
            status: 'upload_completed',
            size: content.length,
            checksum: sha256(content),
          });
        }
      }
      const download = await fetchUrl(t, (await getFile(t, file.id)).url);
      expect(download.statusCode).toBe(200);
      expect(sha256(download.rawPayload)).toBe(sha256(content));
      // The parts went once joined: the store holds the file's one blob.
      const blobs = await b.blobs();
      expect(blobs.filter((k) => k.includes('uploads/'))).toEqual([]);
      expect(blobs).toHaveLength(1);
      // Asking again after the end answers the file; a PATCH at another offset is told the end.
      const done = await append(t, upload.url, content.length, Buffer.alloc(0));
      expect(done.statusCode, done.body).toBe(200);
      expect((done.json() as { file: FileObject }).file.checksum).toBe(sha256(content));
      const late = expectError(
        await append(t, upload.url, 0, Buffer.from(parts[0] ?? '')),
        409,
        'ResourceLockedConflict',
      );
      expect(late.metadata).toEqual({ offset: content.length });
    });

    it('answers 409 with the server offset to a PATCH at another offset, and keeps nothing of it', async () => {
      const { upload } = await begin(t, 'big/offset.bin', 1000);
      expect((await append(t, upload.url, 0, pattern(400, 1))).statusCode).toBe(200);
      for (const wrong of [0, 300, 500]) {
        const res = await append(t, upload.url, wrong, pattern(100, 2));
        const body = expectError(res, 409, 'ResourceLockedConflict');
        expect(body.metadata).toEqual({ offset: 400 });
        expect(res.headers['upload-offset']).toBeUndefined();
      }
      expect(uploadOf(await state(t, upload.url)).offset).toBe(400);
      expectError(await append(t, upload.url, undefined, pattern(100, 2)), 400, 'InvalidPayload');
      expectError(
        await append(
          t,
          `${upload.url}`.replace(/uploads\/[^?]+/, `uploads/${upload.id}x`),
          400,
          pattern(1, 1),
        ),
        403,
        'Forbidden',
      );
    });

    it('counts one of two PATCHes sent at the same offset at once, and answers the other 409', async () => {
      const { file, upload } = await begin(t, 'big/race.bin', 2000);
      const [a, b2] = await Promise.all([
        append(t, upload.url, 0, pattern(2000, 11).subarray(0, 1200)),
        append(t, upload.url, 0, pattern(2000, 11).subarray(0, 800)),
      ]);
      const statuses = [a.statusCode, b2.statusCode].sort();
      expect(statuses).toEqual([200, 409]);
      const won = a.statusCode === 200 ? 1200 : 800;
      expect(uploadOf(await state(t, upload.url)).offset).toBe(won);
      const res = await append(t, upload.url, won, pattern(2000, 11).subarray(won));
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as { file: FileObject }).file).toMatchObject({
        id: file.id,
        checksum: sha256(pattern(2000, 11)),
      });
      // The loser's bytes were not kept, and the winner's part went once joined.
      expect((await b.blobs()).filter((k) => k.includes(`uploads/${upload.id}`))).toEqual([]);
    });

    it('refuses a file over 1 GB at the upsert, before any upload starts', async () => {
      const res = await api(t, 'PUT', '/v1/files', { key: 'big/huge.bin', size: 1024 ** 3 + 1 });
      expectError(res, 413, 'PayloadTooLarge');
    });

    it('refuses bytes past the declared size with 413, keeping the offset and nothing of the refused part', async () => {
      const { file, upload } = await begin(t, 'big/over.bin', 1000);
      expect((await append(t, upload.url, 0, pattern(600, 3))).statusCode).toBe(200);
      const before = await b.blobs();
      expectError(await append(t, upload.url, 600, pattern(401, 3)), 413, 'PayloadTooLarge');
      expect(uploadOf(await state(t, upload.url)).offset).toBe(600);
      expect(await b.blobs()).toEqual(before);
      // The file keeps waiting: the right bytes still finish it.
      const res = await append(t, upload.url, 600, pattern(1000, 3).subarray(600));
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as { file: FileObject }).file).toMatchObject({
        id: file.id,
        status: 'upload_completed',
        checksum: sha256(pattern(1000, 3)),
      });
    });

    it('answers 404 for a cancelled upload and drops its bytes', async () => {
      const { file, upload } = await begin(t, 'big/cancelled.bin', 1000);
      expect((await append(t, upload.url, 0, pattern(500, 4))).statusCode).toBe(200);
      const cancel = await t.app.inject({ method: 'DELETE', url: pathOf(upload.url) });
      expect(cancel.statusCode, cancel.body).toBe(204);
      expectError(await append(t, upload.url, 500, pattern(500, 4)), 404, 'ResourceNotFound');
      expectError(await state(t, upload.url), 404, 'ResourceNotFound');
      expect((await b.blobs()).filter((k) => k.includes(`uploads/${upload.id}`))).toEqual([]);
      expect((await getFile(t, file.id)).status).toBe('upload_pending');
    });

    it('answers 403 for an altered upload URL and 410 for a replaced file, whose upload the next sweep drops', async () => {
      const { upload } = await begin(t, 'big/replaced.bin', 1000);
      expectError(
        await state(
          t,
          tamper(upload.url, (u) => u.searchParams.set('expires', '9999999999999')),
        ),
        403,
        'Forbidden',
      );
      expect((await append(t, upload.url, 0, pattern(300, 5))).statusCode).toBe(200);
      await upsert(t, { key: 'big/replaced.bin', size: 10 });
      expectError(await append(t, upload.url, 300, pattern(10, 5)), 410, 'ResourceGone');
      // The next sweep drops it without waiting for its expiry: its bytes go, its URL answers 404.
      await t.app.services.files.sweepTemporary();
      expect((await b.blobs()).filter((k) => k.includes(`uploads/${upload.id}`))).toEqual([]);
      expectError(await state(t, upload.url), 404, 'ResourceNotFound');
    });

    it('expires an abandoned upload: 410, its parts deleted, and the file never counts as uploaded', async () => {
      const { file, upload } = await begin(t, 'big/abandoned.bin', 1000);
      expect((await append(t, upload.url, 0, pattern(700, 6))).statusCode).toBe(200);
      expect((await b.blobs()).some((k) => k.includes(`uploads/${upload.id}/`))).toBe(true);
      b.clock.advance(RESUMABLE_UPLOAD_TTL_MS + 1000);
      expectError(await append(t, upload.url, 700, pattern(300, 6)), 410, 'ResourceGone');
      expectError(await state(t, upload.url), 410, 'ResourceGone');
      expect(await t.app.services.files.sweepTemporary()).toBeGreaterThanOrEqual(1);
      expect((await b.blobs()).filter((k) => k.includes('uploads/'))).toEqual([]);
      const failed = await getFile(t, file.id);
      expect(failed).toMatchObject({ status: 'upload_failed', size: null });
      expect(failed.failedStatusReason).toMatch(/^upload_expired/);
      // Gone for good: its URL is still answered 410 (expired), never as a file.
      expectError(await append(t, upload.url, 700, pattern(300, 6)), 410, 'ResourceGone');
      const listed = await api(t, 'GET', '/v1/files?status=upload_completed');
      const keys = (listed.json() as { files: FileObject[] }).files.map((f) => f.key);
      expect(keys).not.toContain('big/abandoned.bin');
    });

    it('sweeps part blobs that no upload records (a process that died between storing and recording a part) with the hourly orphan sweep', async () => {
      await b.t.app.services.files.sweepTemporary();
      const { upload } = await begin(t, 'big/crash.bin', 1000);
      await b.store.put(`uploads/${upload.id}/0-deadbeef`, Readable.from([Buffer.from('x')]), {
        maxBytes: 10,
      });
      expect((await b.blobs()).some((k) => k.endsWith(`uploads/${upload.id}/0-deadbeef`))).toBe(true);
      b.clock.advance(RESUMABLE_UPLOAD_TTL_MS + 1000);
      await t.app.services.files.sweepTemporary();
      await t.app.services.files.sweepOrphans();
      expect((await b.blobs()).filter((k) => k.includes('uploads/'))).toEqual([]);
    });
  });
}

/** The quota reserved by a resumable upload in progress, freed when it expires. */
function quotaFlow(name: string, make: (env: Record<string, string>) => Promise<Backend>) {
  describe(`resumable uploads and the File Storage quota on ${name}`, () => {
    let b: Backend;
    beforeAll(async () => {
      b = await make({ PARLEY_QUOTA_FILE_STORAGE_BYTES: '10000' });
    });
    afterAll(() => b?.close());

    it('holds the declared size while the upload runs, refuses what would exceed it with 403, frees it at expiry', async () => {
      const { t } = b;
      const { upload } = await begin(t, 'quota/a.bin', 8000);
      expect((await append(t, upload.url, 0, pattern(4000, 8))).statusCode).toBe(200);
      expectError(await api(t, 'PUT', '/v1/files', { key: 'quota/b.bin', size: 4000 }), 403, 'QuotaExceeded');
      b.clock.advance(RESUMABLE_UPLOAD_TTL_MS + 1000);
      await t.app.services.files.sweepTemporary();
      const { upload: next } = await begin(t, 'quota/b.bin', 4000);
      const res = await append(t, next.url, 0, pattern(4000, 9));
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as { file: FileObject }).file.checksum).toBe(sha256(pattern(4000, 9)));
    });
  });
}

async function localBackend(env: Record<string, string> = {}, databaseUrl?: string): Promise<Backend> {
  const clock = movableClock();
  const t = await createTestApp({ clock: clock.now, env, ...(databaseUrl ? { databaseUrl } : {}) });
  return {
    t,
    clock,
    store: localDiskBlobStore({ root: join(t.dataDir, 'blobs') }),
    blobs: () => blobPaths(t.dataDir).then((paths) => paths.filter((p) => !p.startsWith('.tmp'))),
    async close() {
      await t.close();
    },
  };
}

async function s3Backend(bucket: string, databaseUrl?: string): Promise<Backend> {
  const s3 = await localS3(bucket, { partSize: 5 * 1024 * 1024 });
  const clock = movableClock();
  const t = await createTestApp({
    clock: clock.now,
    blobs: s3.blobs,
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  return {
    t,
    clock,
    store: s3.blobs,
    blobs: () => s3.keys(),
    async close() {
      await t.close();
      await s3.close();
    },
  };
}

resumableFlow('SQLite and local disk', () => localBackend());
resumableFlow('SQLite and S3 (s3rver)', () => s3Backend('parley-resumable'));
quotaFlow('SQLite', (env) => localBackend(env));

// PostgreSQL runs when PARLEY_TEST_DATABASE_URL is set; with PARLEY_REQUIRE_POSTGRES_TESTS=1 and no URL this throws.
const postgresUrl = postgresTestUrl();
if (postgresUrl) {
  resumableFlow('PostgreSQL and S3 (s3rver)', () => s3Backend('parley-resumable-pg', postgresUrl));
  quotaFlow('PostgreSQL', (env) => localBackend(env, postgresUrl));
} else {
  describe.skip('resumable uploads on PostgreSQL (PARLEY_TEST_DATABASE_URL is not set)', () => {
    it('runs the resumable flow and the quota', () => undefined);
  });
}
