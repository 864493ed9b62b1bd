import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { json, startFakeServer } from '../../testkit/src/client/servers.js';
import { Client } from './client.js';
import { ConnectionError, TimeoutError } from './local-errors.js';

// The upload's transport, against a scripted server: what goes to the upload URL, retries, the idle timeout.

// A full garbage collection on demand, to measure what memory is really held.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

type Fake = Awaited<ReturnType<typeof startFakeServer>>;
let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const fileOf = (url: string) => ({
  id: 'file_1',
  botId: 'bot_1',
  key: 'a.txt',
  url: `${url}/dl/file_1`,
  size: null,
  contentType: 'text/plain',
  tags: {},
  metadata: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  accessPolicies: [],
  index: false,
  status: 'upload_pending',
  owner: { type: 'user' },
});

/** A server answering upsert, then each upload attempt with `upload(index)`, then getFile. */
async function uploadServer(upload: (attempt: number, res: import('node:http').ServerResponse) => void) {
  let attempts = 0;
  const server = await startFakeServer((req, res) => {
    const file = fileOf(server.url);
    if (req.method === 'PUT' && req.url === '/v1/files') {
      json(res, 200, { file: { ...file, uploadUrl: `${server.url}/up/file_1?v=1&sig=abc` } });
    } else if (req.method === 'PUT' && req.url.startsWith('/up/file_1')) {
      attempts += 1;
      upload(attempts, res);
    } else if (req.method === 'GET' && req.url === '/v1/files/file_1') {
      json(res, 200, { file: { ...file, size: 5, status: 'upload_completed' } });
    } else {
      json(res, 404, { id: 'err_x', code: 404, type: 'ResourceNotFound', message: req.url });
    }
  });
  fake = server;
  return server;
}

const clientOf = (url: string, extra: ConstructorParameters<typeof Client>[0] = {}) =>
  new Client({
    apiUrl: url,
    token: 'pat_secret',
    botId: 'bot_1',
    workspaceId: 'wkspace_1',
    retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    ...extra,
  });

describe('uploadFile over the wire', () => {
  it('PUTs the bytes with Content-Length and no token or context headers, then reads the file', async () => {
    const server = await uploadServer((_, res) => json(res, 200, { file: {} }));
    const file = await clientOf(server.url).uploadFile({ key: 'a.txt', content: 'hello', tags: { t: '1' } });
    expect(file.status).toBe('upload_completed');
    const [upsert, put, get] = server.received;
    expect(JSON.parse(upsert?.body ?? '')).toEqual({ key: 'a.txt', tags: { t: '1' }, size: 5 });
    expect(upsert?.headers).toMatchObject({ authorization: 'Bearer pat_secret', 'x-bot-id': 'bot_1' });
    expect(put).toMatchObject({ method: 'PUT', url: '/up/file_1?v=1&sig=abc', body: 'hello' });
    expect(put?.headers['content-length']).toBe('5');
    expect(put?.headers['content-type']).toBe('application/octet-stream');
    expect(put?.headers).not.toHaveProperty('authorization');
    expect(put?.headers).not.toHaveProperty('x-bot-id');
    expect(put?.headers).not.toHaveProperty('x-workspace-id');
    expect(get?.url).toBe('/v1/files/file_1');
  });

  it('sends content again after a dropped connection, progress starting over', async () => {
    const server = await uploadServer((attempt, res) => {
      if (attempt === 1) res.socket?.destroy();
      else json(res, 200, { file: {} });
    });
    const progress: number[] = [];
    await clientOf(server.url).uploadFile({
      key: 'a.txt',
      content: 'hello',
      onProgress: (p) => progress.push(p.loaded),
    });
    const puts = server.received.filter((r) => r.url.startsWith('/up/'));
    expect(puts.map((r) => r.body)).toEqual(['hello', 'hello']);
    expect(progress).toEqual([0, 5, 0, 5]);
  });

  it('does not send a stream twice: a dropped connection is a ConnectionError', async () => {
    const server = await uploadServer((_, res) => res.socket?.destroy());
    const e = await clientOf(server.url)
      .uploadFile({
        key: 'a.txt',
        stream: (async function* () {
          yield new TextEncoder().encode('hello');
        })(),
        size: 5,
      })
      .catch((error: unknown) => error);
    expect(e).toBeInstanceOf(ConnectionError);
    expect(server.received.filter((r) => r.url.startsWith('/up/'))).toHaveLength(1);
  });

  it('times out an upload only when no byte moves for `timeout` ms', async () => {
    const server = await uploadServer((_, res) => {
      setTimeout(() => json(res, 200, { file: {} }), 100);
    });
    // Five chunks 100 ms apart: 500 ms in all, never 300 ms without a byte (the pace is the scenario itself).
    const pace = 100;
    async function* slow() {
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, pace));
        yield new TextEncoder().encode(String(i));
      }
    }
    const client = clientOf(server.url, { timeout: 300, retry: { attempts: 1 } });
    const file = await client.uploadFile({ key: 'a.txt', stream: slow(), size: 5 });
    expect(file.id).toBe('file_1');
    expect(server.received.find((r) => r.url.startsWith('/up/'))?.body).toBe('01234');

    const silent = await uploadServer(() => undefined);
    await server.close();
    const e = await clientOf(silent.url, { timeout: 200, retry: { attempts: 1 } })
      .uploadFile({ key: 'a.txt', content: 'hello' })
      .catch((error: unknown) => error);
    expect(e).toBeInstanceOf(TimeoutError);
    expect((e as TimeoutError).message).toMatch(/moved no byte for 200 ms/);
  });

  it('keeps a few chunks in memory, not the file, while a path uploads', async () => {
    // The upload URL is a reader in another process, so only the client's memory is measured here. Node's
    // own fetch keeps every chunk of a request stream until the request ends (the whole file); the client
    // sends through node:http instead, writing each chunk when the socket has drained.
    const child = spawn(process.execPath, ['-e', SLOW_READER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const dir = await mkdtemp(join(tmpdir(), 'parley-upload-'));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
        child.once('error', reject);
      });
      const total = 96 * 1024 * 1024;
      const server = await startFakeServer((req, res) => {
        const file = fileOf(server.url);
        if (req.method === 'PUT')
          json(res, 200, { file: { ...file, uploadUrl: `http://127.0.0.1:${port}/up` } });
        else json(res, 200, { file: { ...file, size: total, status: 'upload_completed' } });
      });
      fake = server;
      const file = join(dir, 'big.bin');
      await writeFile(file, new Uint8Array(total));
      gc();
      const before = process.memoryUsage().arrayBuffers;
      let peak = 0;
      let calls = 0;
      await clientOf(server.url).uploadFile({
        key: 'big.bin',
        path: file,
        // The single PUT (96 MiB is over the resumable threshold; resumable.test.ts covers that path).
        resumable: false,
        onProgress: () => {
          if (++calls % 16 === 0) {
            gc();
            peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
          }
        },
      });
      expect(calls).toBeGreaterThan(300);
      expect(peak).toBeLessThan(24 * 1024 * 1024);
    } finally {
      child.kill();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** A node:http server reading uploads slowly; prints its port, answers the byte count. */
const SLOW_READER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  let n = 0;
  req.on('data', (c) => { n += c.length; req.pause(); setTimeout(() => req.resume(), 2); });
  req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ file: { size: n } })); });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;
