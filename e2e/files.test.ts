// The Files API as a new user meets it with curl: upsert, PUT the bytes to the uploadUrl (no token), getFile,
// GET the url; ranges; expired and tampered URLs; a server killed in the middle of an upload and restarted.
// Plain node:http only, against the built server process.
import { createHash, randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { type IncomingHttpHeaders, type IncomingMessage, request } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  makeDataDir,
  type PrintedBootstrap,
  type ServerProcess,
  startFirstRun,
  startServer,
  useServerProcesses,
} from '../packages/testkit/src/e2e/server.js';

useServerProcesses();

const MiB = 1024 * 1024;

interface FileJson {
  id: string;
  key: string;
  url: string;
  size: number | null;
  status: string;
  contentType: string;
  checksum?: string;
  uploadUrl?: string;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function json<T = Record<string, unknown>>(answer: Answer): T {
  return JSON.parse(answer.body.toString('utf8') || '{}') as T;
}

async function collect(res: IncomingMessage): Promise<Answer> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) };
}

/** One HTTP request with node:http, the way curl sends it: explicit Content-Length, body written as is. */
function http(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers };
    if (options.body !== undefined) headers['content-length'] = String(options.body.length);
    const req = request(url, { method: options.method ?? 'GET', headers });
    req.once('response', (res) => collect(res).then(resolve, reject));
    req.once('error', reject);
    req.end(options.body);
  });
}

/** A Files API client over plain HTTP, as the bootstrap's bot access key. */
function filesClient(server: ServerProcess, boot: PrintedBootstrap) {
  const call = (method: string, path: string, body?: unknown) =>
    http(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${boot.botAccessKey}`,
        'x-bot-id': boot.botId,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }),
    });
  return {
    call,
    async upsert(body: Record<string, unknown>): Promise<FileJson & { uploadUrl: string }> {
      const answer = await call('PUT', '/v1/files', body);
      expect(answer.status, answer.body.toString()).toBe(200);
      return json<{ file: FileJson & { uploadUrl: string } }>(answer).file;
    },
    async get(idOrKey: string): Promise<FileJson> {
      const answer = await call('GET', `/v1/files/${encodeURIComponent(idOrKey)}`);
      expect(answer.status, answer.body.toString()).toBe(200);
      return json<{ file: FileJson }>(answer).file;
    },
    /** upsert + PUT of `data` to the uploadUrl without a token; answers the uploaded file. */
    async upload(key: string, data: Buffer, extra: Record<string, unknown> = {}): Promise<FileJson> {
      const file = await this.upsert({ key, size: data.length, ...extra });
      const put = await http(file.uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': file.contentType },
        body: data,
      });
      expect(put.status, put.body.toString()).toBe(200);
      return json<{ file: FileJson }>(put).file;
    },
  };
}

async function firstStart(options: Parameters<typeof startServer>[0] = {}) {
  const { server, boot } = await startFirstRun({
    ...options,
    env: { PARLEY_RATE_LIMIT_MAX: '0', ...options.env },
  });
  return { server, boot, files: filesClient(server, boot) };
}

/** The same URL with one character of its `signature` parameter changed. */
function tamperSignature(url: string): string {
  const u = new URL(url);
  const signature = u.searchParams.get('signature') ?? '';
  expect(signature.length).toBeGreaterThan(10);
  const i = Math.floor(signature.length / 2);
  const flipped = signature[i] === 'A' ? 'B' : 'A';
  u.searchParams.set('signature', `${signature.slice(0, i)}${flipped}${signature.slice(i + 1)}`);
  return u.toString();
}

describe('uploads and downloads over plain HTTP', () => {
  let files: ReturnType<typeof filesClient>;

  beforeAll(async () => {
    ({ files } = await firstStart());
  });

  it.each([
    ['an empty file', 0],
    ['a few bytes', 5],
    ['1 KiB + 1', 1025],
    ['1 MiB + 7', MiB + 7],
    ['64 MiB', 64 * MiB],
  ])('uploads and downloads %s with the same bytes and sha256', async (_name, size) => {
    const data = size === 5 ? Buffer.from('hello') : randomBytes(size);
    const key = `sizes/${size}.bin`;
    const uploaded = await files.upload(key, data);
    expect(uploaded).toMatchObject({ key, size, status: 'upload_completed', checksum: sha256(data) });

    for (const idOrKey of [uploaded.id, key]) {
      const file = await files.get(idOrKey);
      expect(file).toMatchObject({
        id: uploaded.id,
        size,
        status: 'upload_completed',
        checksum: sha256(data),
      });
      const download = await http(file.url);
      expect(download.status).toBe(200);
      expect(download.headers['content-length']).toBe(String(size));
      expect(download.headers['content-type']).toBe('application/octet-stream');
      expect(download.body.length).toBe(size);
      expect(sha256(download.body)).toBe(sha256(data));
    }
  });

  it('keeps the declared content type and answers HEAD with the headers only', async () => {
    const data = Buffer.from('plain text, not sniffed\n');
    const file = await files.upload('notes/readme.txt', data);
    expect(file.contentType).toBe('text/plain');
    const { url } = await files.get(file.id);
    const head = await http(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(data.length));
    expect(head.headers['content-type']).toMatch(/^text\/plain/);
    expect(head.headers['x-content-type-options']).toBe('nosniff');
    expect(head.body.length).toBe(0);
    expect((await http(url)).body.equals(data)).toBe(true);
  });

  it('serves byte ranges: 206 with Content-Range, suffix and open ranges, 416 when unsatisfiable', async () => {
    const data = randomBytes(MiB);
    const file = await files.upload('ranges/one-mib.bin', data);
    const { url } = await files.get(file.id);

    const middle = await http(url, { headers: { range: 'bytes=100-199' } });
    expect(middle.status).toBe(206);
    expect(middle.headers['content-range']).toBe(`bytes 100-199/${MiB}`);
    expect(middle.headers['content-length']).toBe('100');
    expect(middle.body.equals(data.subarray(100, 200))).toBe(true);

    const suffix = await http(url, { headers: { range: 'bytes=-10' } });
    expect(suffix.status).toBe(206);
    expect(suffix.headers['content-range']).toBe(`bytes ${MiB - 10}-${MiB - 1}/${MiB}`);
    expect(suffix.body.equals(data.subarray(MiB - 10))).toBe(true);

    const open = await http(url, { headers: { range: `bytes=${MiB - 1000}-` } });
    expect(open.status).toBe(206);
    expect(open.body.equals(data.subarray(MiB - 1000))).toBe(true);

    // A range running past the end is cut to the end (RFC 9110).
    const past = await http(url, { headers: { range: `bytes=${MiB - 4}-${MiB + 100}` } });
    expect(past.status).toBe(206);
    expect(past.headers['content-range']).toBe(`bytes ${MiB - 4}-${MiB - 1}/${MiB}`);
    expect(past.body.equals(data.subarray(MiB - 4))).toBe(true);

    const beyond = await http(url, { headers: { range: `bytes=${MiB}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${MiB}`);
  });

  it('refuses tampered download, upload and public URLs with 403 and keeps the file unchanged', async () => {
    const data = randomBytes(4096);
    const file = await files.upload('tamper/private.bin', data);
    const { url } = await files.get(file.id);

    const badSignature = await http(tamperSignature(url));
    expect(badSignature.status).toBe(403);
    expect(json<{ message: string }>(badSignature).message).toMatch(/not valid|altered/i);

    // Extending the expiry or moving the URL to another file breaks the signature too.
    const extended = new URL(url);
    extended.searchParams.set('expires', String(Date.now() + 365 * 86_400_000));
    expect((await http(extended.toString())).status).toBe(403);
    const other = await files.upload('tamper/other.bin', randomBytes(16));
    const moved = new URL(url);
    moved.pathname = moved.pathname.replace(file.id, other.id);
    expect((await http(moved.toString())).status).toBe(403);
    const unsigned = new URL(url);
    unsigned.search = '';
    expect((await http(unsigned.toString())).status).toBe(403);

    // The untouched URL still works.
    expect(sha256((await http(url)).body)).toBe(sha256(data));

    // An upload URL with a changed signature cannot write; the file stays as it was.
    const pending = await files.upsert({ key: 'tamper/pending.bin', size: 10 });
    const put = await http(tamperSignature(pending.uploadUrl), {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(10),
    });
    expect(put.status).toBe(403);
    expect((await files.get(pending.id)).status).toBe('upload_pending');

    // A permanent public URL with a changed signature is refused as well.
    const pub = await files.upload('tamper/public.txt', Buffer.from('public bytes'), {
      accessPolicies: ['public_content'],
    });
    const publicUrl = (await files.get(pub.id)).url;
    expect((await http(publicUrl)).body.toString()).toBe('public bytes');
    expect((await http(tamperSignature(publicUrl))).status).toBe(403);
  });
});

describe('expired URLs', () => {
  let files: ReturnType<typeof filesClient>;

  beforeAll(async () => {
    ({ files } = await firstStart({
      env: { PARLEY_DOWNLOAD_URL_TTL_SECONDS: '1', PARLEY_UPLOAD_URL_TTL_SECONDS: '1' },
    }));
  });

  it('answers 403 once a download url or an uploadUrl has expired, and a fresh one works', async () => {
    const data = randomBytes(2048);
    const stale = await files.upsert({ key: 'expiry/late.bin', size: data.length });
    const file = await files.upload('expiry/data.bin', data);
    const { url } = await files.get(file.id);
    await new Promise((resolve) => setTimeout(resolve, 1200));

    const download = await http(url);
    expect(download.status).toBe(403);
    expect(json<{ message: string }>(download).message).toMatch(/expired/i);

    const upload = await http(stale.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: data,
    });
    expect(upload.status).toBe(403);
    expect(json<{ message: string }>(upload).message).toMatch(/expired/i);
    expect((await files.get(stale.id)).status).toBe('upload_pending');

    // A new getFile hands out a new url that works right away; a new upsert a new uploadUrl.
    const fresh = await files.get(file.id);
    expect(fresh.url).not.toBe(url);
    expect(sha256((await http(fresh.url)).body)).toBe(sha256(data));
    const again = await files.upload('expiry/late.bin', data);
    expect(again).toMatchObject({ id: stale.id, status: 'upload_completed', size: data.length });
  });
});

/** The bytes of the uploads in flight in a data folder: the temp files of its blob store (`blobs/.tmp/`). */
async function uploadBytesOnDisk(dataDir: string): Promise<number> {
  const tmp = join(dataDir, 'blobs', '.tmp');
  const names = await readdir(tmp).catch(() => []);
  const sizes = await Promise.all(
    names.map((name) =>
      stat(join(tmp, name)).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

describe('a server killed in the middle of an upload, then restarted on the same data dir', () => {
  it('never shows partial bytes, and a fresh upsert uploads the file', async () => {
    const dataDir = await makeDataDir();
    const first = await firstStart({ dataDir });
    const size = 48 * MiB;
    const data = randomBytes(size);
    const pending = await first.files.upsert({ key: 'crash/big.bin', size });

    // Stream the first 16 MiB of the body, wait until the server has taken them, then kill it with SIGKILL.
    const req = request(pending.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
    });
    const failed = new Promise<string>((resolve) => {
      req.once('error', (error) => resolve(error.message));
      req.once('response', (res) => {
        res.resume();
        resolve(`answered ${res.statusCode}`);
      });
    });
    const step = MiB;
    for (let sent = 0; sent < 16 * MiB; sent += step) {
      if (!req.write(data.subarray(sent, sent + step)))
        await new Promise((resolve) => req.once('drain', resolve));
    }
    // The server is storing the body: its first bytes are in a temp file of the blob store.
    await expect.poll(() => uploadBytesOnDisk(dataDir), { timeout: 30_000 }).toBeGreaterThan(0);
    const exit = await first.server.stop('SIGKILL');
    expect(exit.signal).toBe('SIGKILL');
    expect(await failed).not.toMatch(/answered 2\d\d/);
    req.destroy();

    const second = await startServer({
      dataDir,
      port: first.server.port,
      env: { PARLEY_RATE_LIMIT_MAX: '0' },
    });
    const files = filesClient(second, first.boot);
    const after = await files.get('crash/big.bin');
    expect(['upload_pending', 'upload_failed']).toContain(after.status);
    expect(after.size).toBeNull();
    expect(after.checksum).toBeUndefined();

    // No partial content through the API: the url has nothing to send, the list shows no completed file.
    const download = await http(after.url);
    expect(download.status).not.toBe(200);
    expect(download.status).not.toBe(206);
    expect(download.body.length).toBeLessThan(4096);
    expect((await http(after.url, { method: 'HEAD' })).status).not.toBe(200);
    const list = json<{ files: FileJson[] }>(await files.call('GET', '/v1/files'));
    const listed = list.files.find((f) => f.id === pending.id);
    expect(listed?.status).toBe(after.status);
    expect(listed?.size).toBeNull();

    // Uploading again: a fresh upsert of the key, then the whole body to the new uploadUrl.
    const again = await files.upsert({ key: 'crash/big.bin', size });
    expect(again.id).toBe(pending.id);
    const put = await http(again.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: data,
    });
    expect(put.status, put.body.toString()).toBe(200);
    // The uploadUrl of before the crash was replaced by the new upsert.
    const old = await http(pending.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: data.subarray(0, 16),
    });
    expect(old.status).toBe(410);

    const done = await files.get(pending.id);
    expect(done).toMatchObject({ status: 'upload_completed', size, checksum: sha256(data) });
    const body = (await http(done.url)).body;
    expect(body.length).toBe(size);
    expect(sha256(body)).toBe(sha256(data));
  });
});
