import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { FileObject } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useClockedApp } from '../../../../testkit/src/server/clocked-app-fixture.js';
import {
  api,
  getFile,
  pathOf,
  putBytes,
  sha256,
  tamper,
  upsert,
} from '../../../../testkit/src/server/files-api.js';
import { createTestApp, type TestApp } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import { eventually } from '../../../../testkit/src/shared/eventually.js';

const MB = 1024 * 1024;

async function downloadBody(t: TestApp, id: string): Promise<Buffer> {
  const res = await t.app.inject({ method: 'GET', url: pathOf((await getFile(t, id)).url) });
  expect(res.statusCode, res.body).toBe(200);
  return res.rawPayload;
}

/** Every regular file under `<dataDir>/blobs` (committed blobs and temp files), with its size. */
async function blobFiles(t: TestApp): Promise<Array<{ path: string; size: number }>> {
  const root = join(t.dataDir, 'blobs');
  let entries: Dirent[] = [];
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
  const out: Array<{ path: string; size: number }> = [];
  for (const e of entries) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    try {
      out.push({ path: path.slice(root.length + 1), size: (await stat(path)).size });
    } catch {
      // Renamed or removed between readdir and stat.
    }
  }
  return out;
}

const waitFor = (check: () => Promise<boolean>, what: string, timeoutMs = 10_000) =>
  eventually(check, timeoutMs, 10, what);

/** Waits until an upload in flight has bytes in a temp file of the blob store. */
const bytesOnDisk = (t: TestApp) =>
  waitFor(
    async () => (await blobFiles(t)).some((b) => b.path.startsWith('.tmp') && b.size > 0),
    'bytes on disk',
  );

/** Waits until the blob store holds no temp file of an upload any more. */
const tempFilesGone = (t: TestApp) =>
  waitFor(async () => (await blobFiles(t)).every((b) => !b.path.startsWith('.tmp')), 'temp files to go');

/**
 * Starts uploading `size` bytes of `fill` to a new file `key` through a stream, sends half of them and waits
 * until they reach the disk; answers the file, the stream (to end it) and the pending response.
 */
async function halfUploaded(t: TestApp, key: string, size: number, fill: string) {
  const file = await upsert(t, { key, size });
  const stream = new PassThrough();
  const pending = putBytes(t, file.uploadUrl, stream, {
    'content-type': 'application/octet-stream',
    'content-length': String(size),
  });
  stream.write(Buffer.alloc(size / 2, fill));
  await bytesOnDisk(t);
  return { file, stream, pending };
}

/** Listens on a loopback port and answers the base URL. */
async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

interface RawResponse {
  status: number;
  body: string;
}

/** A PUT over a real socket, its body written from `source` (chunked unless a content-length header is given). */
function rawPut(
  base: string,
  url: string,
  source: AsyncIterable<Buffer>,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${pathOf(url)}`, { method: 'PUT', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
        // The server may answer before the whole body was sent (413): stop sending.
        req.destroy();
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    Readable.from(source).pipe(req);
  });
}

describe('uploading to an uploadUrl', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    // Two uploads to one URL at once: the race of their commits is tested below (one at a time is the default).
    t = await createTestApp({ env: { PARLEY_MAX_UPLOADS_PER_URL: '2' } });
    base = await listen(t);
  });
  afterAll(async () => {
    t.app.server.closeAllConnections();
    await t.close();
  });

  /**
   * Upserts `key` declaring `size` bytes and puts `bytes` to its uploadUrl, which is refused with `status` and
   * `type`, a message that `says` so: the file is then upload_failed for `reason`, without a size, and nothing
   * of it is kept in the blob folder, nor any temporary file. Answers the file.
   */
  async function refusedUpload(
    upload: { key: string; size: number; bytes: Buffer },
    refusal: { status: number; type: string; says: string; reason: RegExp },
  ): Promise<FileObject> {
    const file = await upsert(t, { key: upload.key, size: upload.size });
    const error = expectError(await putBytes(t, file.uploadUrl, upload.bytes), refusal.status, refusal.type);
    expect(error.message).toContain(refusal.says);
    const after = await getFile(t, file.id);
    expect(after).toMatchObject({ status: 'upload_failed', size: null });
    expect(after.failedStatusReason).toMatch(refusal.reason);
    expect((await blobFiles(t)).filter((b) => b.path.includes(file.id) || b.path.startsWith('.tmp'))).toEqual(
      [],
    );
    return after;
  }

  it('stores exact bytes: upload_completed with size and the sha256 checksum', async () => {
    const bytes = Buffer.from('The quick brown fox jumps over the lazy dog');
    const file = await upsert(t, { key: 'fox.txt', size: bytes.length });
    const res = await putBytes(t, file.uploadUrl, bytes);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { file: FileObject };
    expect(Object.keys(body)).toEqual(['file']);
    expect(body.file).toMatchObject({
      id: file.id,
      key: 'fox.txt',
      size: bytes.length,
      status: 'upload_completed',
      checksum: 'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592',
    });
    expect(body.file).not.toHaveProperty('failedStatusReason');
    expect(body.file).not.toHaveProperty('uploadUrl');
    expect(await getFile(t, file.id)).toMatchObject({ status: 'upload_completed', size: bytes.length });
    expect((await downloadBody(t, file.id)).equals(bytes)).toBe(true);
    expect((await blobFiles(t)).filter((b) => b.path.includes(file.id))).toEqual([
      { path: expect.any(String), size: bytes.length },
    ]);
  });

  it('lets a page on any origin use the uploadUrl and the download URL (CORS preflight, answers and errors)', async () => {
    const bytes = Buffer.from('uploaded from a webchat on a customer site');
    const file = await upsert(t, { key: 'cors.txt', size: bytes.length });
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: pathOf(file.uploadUrl),
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('PUT');
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('content-type');
    // A preflight changes nothing.
    expect((await getFile(t, file.id)).status).toBe('upload_pending');

    const tooMany = await upsert(t, { key: 'cors-too-many.txt', size: 1 });
    const refused = await putBytes(t, tooMany.uploadUrl, Buffer.from('ab'));
    expectError(refused, 413, 'PayloadTooLarge');
    expect(refused.headers['access-control-allow-origin']).toBe('*');

    const uploaded = await putBytes(t, file.uploadUrl, bytes, { 'content-type': 'text/plain' });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.headers['access-control-allow-origin']).toBe('*');

    const url = pathOf((await getFile(t, file.id)).url);
    const download = await t.app.inject({ method: 'GET', url, headers: { origin: 'https://shop.example' } });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(bytes)).toBe(true);
    expect(download.headers['access-control-allow-origin']).toBe('*');
    expect(String(download.headers['access-control-expose-headers'])).toContain('content-disposition');
    const downloadPreflight = await t.app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin: 'https://shop.example', 'access-control-request-headers': 'range' },
    });
    expect(downloadPreflight.statusCode).toBe(204);
    expect(String(downloadPreflight.headers['access-control-allow-headers'])).toContain('range');
  });

  it('stores the bytes as sent, whatever the Content-Type of the upload (JSON is not parsed)', async () => {
    const json = Buffer.from('{ "b": 2,   "a": [1, 2, 3] }\n');
    const file = await upsert(t, { key: 'raw.json', size: json.length });
    const res = await putBytes(t, file.uploadUrl, json, { 'content-type': 'application/json' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await downloadBody(t, file.id)).equals(json)).toBe(true);
    const text = Buffer.from('plain text body');
    const other = await upsert(t, { key: 'plain.txt', size: text.length });
    expect((await putBytes(t, other.uploadUrl, text, { 'content-type': 'text/plain' })).statusCode).toBe(200);
    expect((await downloadBody(t, other.id)).equals(text)).toBe(true);
  });

  it('accepts an upload without a Content-Type header (as curl -T sends it)', async () => {
    const bytes = Buffer.from('no content type at all');
    const file = await upsert(t, { key: 'no-type.bin', size: bytes.length });
    const res = await rawPut(base, file.uploadUrl, Readable.from([bytes]), {
      'content-length': String(bytes.length),
    });
    expect(res.status, res.body).toBe(200);
    expect((await downloadBody(t, file.id)).equals(bytes)).toBe(true);
  });

  it('uploads a zero-byte file', async () => {
    const file = await upsert(t, { key: 'empty.txt', size: 0 });
    const res = await putBytes(t, file.uploadUrl, Buffer.alloc(0));
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { file: FileObject }).file).toMatchObject({
      size: 0,
      status: 'upload_completed',
      checksum: sha256(''),
    });
    const download = await t.app.inject({ method: 'GET', url: pathOf((await getFile(t, file.id)).url) });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-length']).toBe('0');
    expect(download.rawPayload.length).toBe(0);
  });

  it('streams a 50 MB upload to disk as it arrives, without buffering the whole file', async () => {
    const total = 50 * MB;
    const chunkSize = 64 * 1024;
    const file = await upsert(t, { key: 'big/fifty.bin', size: total });
    const hash = createHash('sha256');
    let onDiskAt40 = -1;
    async function* generate(): AsyncGenerator<Buffer> {
      for (let sent = 0, i = 0; sent < total; sent += chunkSize, i += 1) {
        if (sent === 40 * MB) {
          // What the server has written so far: all but what is in flight in socket and stream buffers.
          onDiskAt40 = (await blobFiles(t)).reduce((n, b) => n + b.size, 0);
        }
        const chunk = Buffer.alloc(chunkSize, i % 251);
        chunk.writeUInt32BE(i, 0);
        hash.update(chunk);
        yield chunk;
      }
    }
    const res = await rawPut(base, file.uploadUrl, generate(), {
      'content-length': String(total),
      'content-type': 'application/octet-stream',
    });
    expect(res.status, res.body).toBe(200);
    const stored = (JSON.parse(res.body) as { file: FileObject }).file;
    expect(stored).toMatchObject({ size: total, status: 'upload_completed', checksum: hash.digest('hex') });
    // Had the server held the body in memory, nothing would be on disk before the last byte arrived.
    expect(onDiskAt40).toBeGreaterThan(20 * MB);
    expect((await blobFiles(t)).filter((b) => b.path.includes(file.id))).toEqual([
      { path: expect.any(String), size: total },
    ]);
  });

  it('refuses more bytes than declared (with Content-Length) with 413: upload_failed, nothing kept', async () => {
    await refusedUpload(
      { key: 'too-many.bin', size: 10, bytes: Buffer.alloc(11, 1) },
      { status: 413, type: 'PayloadTooLarge', says: '10', reason: /too_large|more than/ },
    );
  });

  it('refuses more bytes than declared sent chunked (no Content-Length) with 413: upload_failed, nothing kept', async () => {
    const file = await upsert(t, { key: 'too-many-chunked.bin', size: 1000 });
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 20; i += 1) yield Buffer.alloc(100, i);
    }
    const res = await rawPut(base, file.uploadUrl, chunks(), { 'content-type': 'application/octet-stream' });
    expect(res.status, res.body).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ code: 413, type: 'PayloadTooLarge' });
    const after = await getFile(t, file.id);
    expect(after).toMatchObject({ status: 'upload_failed', size: null });
    expect(after.failedStatusReason).toMatch(/too_large/);
    await tempFilesGone(t);
    expect((await blobFiles(t)).filter((b) => b.path.includes(file.id))).toEqual([]);
  });

  it('refuses a large chunked upload that keeps going past the declared size with 413', async () => {
    const file = await upsert(t, { key: 'runaway.bin', size: MB });
    async function* endless(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 64; i += 1) yield Buffer.alloc(256 * 1024, i);
    }
    const res = await rawPut(base, file.uploadUrl, endless(), { 'content-type': 'application/octet-stream' });
    expect(res.status, res.body).toBe(413);
    expect((await getFile(t, file.id)).status).toBe('upload_failed');
    await tempFilesGone(t);
  });

  it('refuses fewer bytes than declared with 400: upload_failed with a reason, nothing kept', async () => {
    const after = await refusedUpload(
      { key: 'too-few.bin', size: 100, bytes: Buffer.alloc(60, 1) },
      { status: 400, type: 'InvalidPayload', says: '60 of the declared 100', reason: /upload_incomplete/ },
    );
    expect(after).not.toHaveProperty('checksum');
    const download = await t.app.inject({ method: 'GET', url: pathOf(after.url) });
    expectError(download, 404, 'ResourceNotFound');
  });

  it('answers 410 to the uploadUrl of a failed upload; a re-upsert gives a working one', async () => {
    const file = await upsert(t, { key: 'retry.bin', size: 4 });
    expect((await putBytes(t, file.uploadUrl, Buffer.from('ab'))).statusCode).toBe(400);
    expectError(await putBytes(t, file.uploadUrl, Buffer.from('abcd')), 410, 'ResourceGone');
    const again = await upsert(t, { key: 'retry.bin', size: 4 });
    expect(again.id).toBe(file.id);
    const res = await putBytes(t, again.uploadUrl, Buffer.from('abcd'));
    expect(res.statusCode, res.body).toBe(200);
    const done = (res.json() as { file: FileObject }).file;
    expect(done.status).toBe('upload_completed');
    expect(done).not.toHaveProperty('failedStatusReason');
  });

  it('keeps the file upload_pending and nothing on disk when the connection drops mid-upload; the same URL then works', async () => {
    const size = 4 * MB;
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i += 4) bytes.writeUInt32BE(i, i);
    const file = await upsert(t, { key: 'dropped.bin', size });
    await new Promise<void>((resolve, reject) => {
      const req = request(`${base}${pathOf(file.uploadUrl)}`, {
        method: 'PUT',
        headers: { 'content-length': String(size), 'content-type': 'application/octet-stream' },
        agent: false,
      });
      req.on('error', () => resolve());
      req.on('response', () => reject(new Error('the server answered an upload that never ended')));
      req.write(bytes.subarray(0, size / 2));
      bytesOnDisk(t)
        .then(() => req.destroy())
        .catch(reject);
    });
    await waitFor(
      async () => (await blobFiles(t)).every((b) => !b.path.startsWith('.tmp')),
      'the temp file to go',
    );
    const after = await getFile(t, file.id);
    expect(after).toMatchObject({ status: 'upload_pending', size: null });
    expect(after).not.toHaveProperty('failedStatusReason');
    expect((await blobFiles(t)).filter((b) => b.path.includes(file.id))).toEqual([]);
    const res = await putBytes(t, file.uploadUrl, bytes);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { file: FileObject }).file).toMatchObject({
      status: 'upload_completed',
      checksum: sha256(bytes),
    });
    expect((await downloadBody(t, file.id)).equals(bytes)).toBe(true);
  });

  it('answers 410 to an upload in flight when the file is re-upserted meanwhile, keeps none of its bytes, and the new URL works', async () => {
    const size = 128 * 1024;
    const { file, stream, pending } = await halfUploaded(t, 'replaced-while-uploading.bin', size, 'o');
    const replaced = await upsert(t, { key: 'replaced-while-uploading.bin', size: 3 });
    stream.end(Buffer.alloc(size / 2, 'o'));
    const error = expectError(await pending, 410, 'ResourceGone');
    expect(error.message).toMatch(/replaced or deleted while uploading/);
    expect(await getFile(t, file.id)).toMatchObject({ status: 'upload_pending', size: null });
    await tempFilesGone(t);
    expect((await blobFiles(t)).filter((b) => b.path.includes(file.id))).toEqual([]);
    expect((await putBytes(t, replaced.uploadUrl, Buffer.from('new'))).statusCode).toBe(200);
    expect((await downloadBody(t, file.id)).toString()).toBe('new');
  });

  it('answers 410 to an upload in flight when the file is deleted meanwhile, and keeps none of its bytes', async () => {
    const size = 128 * 1024;
    const { file, stream, pending } = await halfUploaded(t, 'deleted-while-uploading.bin', size, 'd');
    const deleted = await api(t, 'DELETE', `/v1/files/${file.id}`);
    expect(deleted.statusCode).toBe(200);
    stream.end(Buffer.alloc(size / 2, 'd'));
    expectError(await pending, 410, 'ResourceGone');
    await tempFilesGone(t);
    expect((await blobFiles(t)).filter((b) => b.path.includes(file.id))).toEqual([]);
  });

  it('answers 410 ResourceGone when an uploadUrl is used again after completion, and keeps the first bytes', async () => {
    const file = await upsert(t, { key: 'once.txt', size: 5 });
    expect((await putBytes(t, file.uploadUrl, Buffer.from('first'))).statusCode).toBe(200);
    const error = expectError(await putBytes(t, file.uploadUrl, Buffer.from('again')), 410, 'ResourceGone');
    expect(error.message).toMatch(/already used/);
    expect((await downloadBody(t, file.id)).toString()).toBe('first');
  });

  it('completes exactly one of two concurrent uploads to the same URL; the other answers 410', async () => {
    const size = 256 * 1024;
    const a = Buffer.alloc(size, 'a');
    const b = Buffer.alloc(size, 'b');
    const file = await upsert(t, { key: 'race.bin', size });
    const streamA = new PassThrough();
    const streamB = new PassThrough();
    const headers = { 'content-type': 'application/octet-stream', 'content-length': String(size) };
    const resA = putBytes(t, file.uploadUrl, streamA, headers);
    const resB = putBytes(t, file.uploadUrl, streamB, headers);
    streamA.write(a.subarray(0, size / 2));
    streamB.write(b.subarray(0, size / 2));
    // Both uploads are past their checks and writing when they finish.
    await waitFor(
      async () => (await blobFiles(t)).filter((f) => f.path.startsWith('.tmp') && f.size > 0).length === 2,
      'two uploads in flight',
    );
    streamA.end(a.subarray(size / 2));
    streamB.end(b.subarray(size / 2));
    const [ra, rb] = await Promise.all([resA, resB]);
    const statuses = [ra.statusCode, rb.statusCode].sort();
    expect(statuses).toEqual([200, 410]);
    const loser = ra.statusCode === 410 ? ra : rb;
    expectError(loser, 410, 'ResourceGone');
    const winnerBytes = ra.statusCode === 200 ? a : b;
    const after = await getFile(t, file.id);
    expect(after).toMatchObject({ status: 'upload_completed', size, checksum: sha256(winnerBytes) });
    expect((await downloadBody(t, file.id)).equals(winnerBytes)).toBe(true);
    await tempFilesGone(t);
    expect((await blobFiles(t)).filter((f) => f.path.includes(file.id))).toHaveLength(1);
  });
});

describe('upload URL signatures', () => {
  const { t, clock } = useClockedApp({ env: { PARLEY_UPLOAD_URL_TTL_SECONDS: '60' } });

  it('needs no token: the uploadUrl is the capability', async () => {
    const file = await upsert(t, { key: 'capability.txt', size: 2 });
    const u = new URL(file.uploadUrl);
    expect(u.pathname).toBe(`/v1/files/${file.id}/upload`);
    expect([...u.searchParams.keys()].sort()).toEqual(['expires', 'nonce', 'signature', 'v']);
    expect((await putBytes(t, file.uploadUrl, Buffer.from('ok'))).statusCode).toBe(200);
  });

  for (const [what, change] of [
    [
      'the file id is changed',
      (u: URL) => (u.pathname = u.pathname.replace(/file_\w+/, 'file_01K0000000000000000000000')),
    ],
    [
      'the version is changed',
      (u: URL) => u.searchParams.set('v', String(Number(u.searchParams.get('v')) + 1)),
    ],
    [
      'the expiry is extended',
      (u: URL) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600_000)),
    ],
    ['the nonce is changed', (u: URL) => u.searchParams.set('nonce', 'AAAAAAAAAAAA')],
    [
      'the signature is changed',
      (u: URL) => {
        const s = u.searchParams.get('signature') as string;
        u.searchParams.set('signature', `${s[0] === 'A' ? 'B' : 'A'}${s.slice(1)}`);
      },
    ],
    ['the signature is removed', (u: URL) => u.searchParams.delete('signature')],
    ['a parameter is added', (u: URL) => u.searchParams.set('extra', '1')],
  ] as const) {
    it(`answers 403 with a clear message when ${what} in an uploadUrl, and keeps the file pending`, async () => {
      const file = await upsert(t, { key: `tampered-${what}.txt`, size: 2 });
      const res = await putBytes(t, tamper(file.uploadUrl, change), Buffer.from('no'));
      const error = expectError(res, 403, 'Forbidden');
      expect(error.message).toMatch(/upload URL is not valid/);
      expect(error.message).toMatch(/altered/);
      expect((await getFile(t, file.id)).status).toBe('upload_pending');
      expect((await putBytes(t, file.uploadUrl, Buffer.from('ok'))).statusCode).toBe(200);
    });
  }

  it('cannot be moved to another file: the signature of one file’s URL fails on another', async () => {
    const one = await upsert(t, { key: 'one.txt', size: 2 });
    const two = await upsert(t, { key: 'two.txt', size: 2 });
    const moved = tamper(one.uploadUrl, (u) => {
      u.pathname = `/v1/files/${two.id}/upload`;
    });
    expectError(await putBytes(t, moved, Buffer.from('no')), 403, 'Forbidden');
    expect((await getFile(t, two.id)).status).toBe('upload_pending');
  });

  it('works until PARLEY_UPLOAD_URL_TTL_SECONDS, then answers 403 saying it expired', async () => {
    const early = await upsert(t, { key: 'ttl-early.txt', size: 2 });
    const late = await upsert(t, { key: 'ttl-late.txt', size: 2 });
    clock.advance(59_000);
    expect((await putBytes(t, early.uploadUrl, Buffer.from('ok'))).statusCode).toBe(200);
    clock.advance(2_000);
    const error = expectError(await putBytes(t, late.uploadUrl, Buffer.from('no')), 403, 'Forbidden');
    expect(error.message).toMatch(/expired/);
    expect((await getFile(t, late.id)).status).toBe('upload_pending');
    const fresh = await upsert(t, { key: 'ttl-late.txt', size: 2 });
    expect((await putBytes(t, fresh.uploadUrl, Buffer.from('ok'))).statusCode).toBe(200);
  });
});
