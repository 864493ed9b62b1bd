import { once } from 'node:events';
import type { Socket } from 'node:net';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../../testkit/src/server/fixtures.js';
import { rawSocket } from '../../../testkit/src/server/raw-sockets.js';
import { eventually } from '../../../testkit/src/shared/eventually.js';

/** A raw connection to the test server, collecting what it answers until it closes. */
function rawConnection(port: number) {
  const { socket, closed, connected } = rawSocket('127.0.0.1', port);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  return {
    socket,
    closed,
    connected,
    get received() {
      return received;
    },
  };
}

/** Sends `total` bytes of body one at a time every `everyMs`, until the socket closes; answers the bytes sent. */
async function drip(socket: Socket, total: number, everyMs: number): Promise<number> {
  let sent = 0;
  while (sent < total && !socket.destroyed && socket.writable) {
    socket.write('x');
    sent += 1;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return sent;
}

describe('connection guards (slow bodies, connections per address)', () => {
  const { t, listening } = listeningApp({
    PARLEY_BODY_TIMEOUT_MS: '1000',
    PARLEY_MAX_CONNECTIONS_PER_ADDRESS: '6',
  });

  it('answers 408 and closes a request whose body drips in slower than the bound, while others are served', async () => {
    const slow = rawConnection(listening.port);
    await slow.connected;
    slow.socket.write(
      `POST /v1/chat/${t.botId}/users HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{`,
    );
    const dripping = drip(slow.socket, 100_000, 100);
    const healthy = await fetch(`http://127.0.0.1:${listening.port}/healthz`);
    expect(healthy.status).toBe(200);
    await slow.closed;
    // Closed by the bound, not by the body's end: fewer than 100 of its bytes (one each 100 ms) got to be sent.
    const sent = await dripping;
    expect(sent).toBeLessThan(100);
    expectTimedOut(slow.received, 'did not arrive within 1 s');
  });

  it('bounds a body that has not begun when the headers arrive, and serves one that comes in time after them', async () => {
    const head = (length: number) =>
      `POST /v1/chat/${t.botId}/users HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${t.botKey}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n`;
    const never = rawConnection(listening.port);
    const later = rawConnection(listening.port);
    await Promise.all([never.connected, later.connected]);
    never.socket.write(head(2));
    later.socket.write(head(2));
    // Part of the scenario, not a wait for an event: the body begins a while after the headers, within the 1 s.
    const inTime = 300;
    await new Promise((r) => setTimeout(r, inTime));
    later.socket.write('{}');
    await Promise.all([never.closed, later.closed]);
    expect(later.received).toMatch(/^HTTP\/1\.1 20[01] /);
    expectTimedOut(never.received, 'did not arrive within 1 s');
  });

  it('arms no body timer for a request that arrives whole (headers and body in one read)', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      const whole = rawConnection(listening.port);
      await whole.connected;
      whole.socket.write(
        `POST /v1/chat/${t.botId}/users HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${t.botKey}\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`,
      );
      await whole.closed;
      expect(whole.received).toMatch(/^HTTP\/1\.1 20[01] /);
      // The bound of this suite is 1000 ms: no timer of that length was set for the request.
      expect(timers.mock.calls.filter(([, ms]) => ms === 1000)).toEqual([]);
    } finally {
      timers.mockRestore();
    }
  });

  it('gives an upload its own longer bound: a slow but steady upload body is not cut at the ordinary one', async () => {
    const upsert = await t.call({
      method: 'PUT',
      url: '/v1/files',
      token: t.botKey,
      headers: { 'x-bot-id': t.botId },
      body: { key: 'slow.txt', size: 20 },
    });
    expect(upsert.statusCode, upsert.body).toBe(200);
    const target = new URL((upsert.json() as { file: { uploadUrl: string } }).file.uploadUrl);
    const upload = rawConnection(listening.port);
    await upload.connected;
    upload.socket.write(
      `PUT ${target.pathname}${target.search} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: text/plain\r\ncontent-length: 20\r\nconnection: close\r\n\r\n`,
    );
    // 20 bytes over ~2 s: twice the ordinary body bound.
    await drip(upload.socket, 20, 100);
    await upload.closed;
    expect(upload.received).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('closes connections from one address past the cap at once, and accepts again when one closes', async () => {
    // The server's ends of the six, seen after the guard counted each (its listener was added first).
    const counted = new Promise<Socket[]>((resolve) => {
      const ends: Socket[] = [];
      const onConnection = (socket: Socket) => {
        if (ends.push(socket) < 6) return;
        t.app.server.off('connection', onConnection);
        resolve(ends);
      };
      t.app.server.on('connection', onConnection);
    });
    const held = Array.from({ length: 6 }, () => rawConnection(listening.port));
    await Promise.all(held.map((c) => c.connected));
    const ends = await counted;
    const extra = rawConnection(listening.port);
    extra.socket.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    await extra.closed;
    expect(extra.received).toBe('');
    // One of the six closes; once the server's end of it has closed (the guard uncounted it first), one more fits.
    const first = ends.find((end) => end.remotePort === held[0]?.socket.localPort);
    const uncounted = first ? once(first, 'close') : Promise.reject(new Error('no server end for the first'));
    held[0]?.socket.destroy();
    await held[0]?.closed;
    await uncounted;
    const again = rawConnection(listening.port);
    again.socket.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n');
    await again.closed;
    expect(again.received).toMatch(/^HTTP\/1\.1 200 /);
    for (const c of held) c.socket.destroy();
    await Promise.all(held.map((c) => c.closed));
  });
});

/** A raw HTTP answer that is a 408 OperationTimeout in the wire format, its message saying `says`. */
function expectTimedOut(received: string, says: string) {
  expect(received).toMatch(/^HTTP\/1\.1 408 /);
  const body = JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
  expect(body).toMatchObject({ code: 408, type: 'OperationTimeout' });
  expect(String(body.message)).toContain(says);
}

/** A test app with these settings listening on a free port of 127.0.0.1 (known once the suite starts), and its
 * log lines. */
function listeningApp(env: Record<string, string>) {
  const log = logLines();
  const t = useTestApp({ env, logger: log.logger });
  const listening = { port: 0 };
  beforeAll(async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    listening.port = Number(new URL(address).port);
  });
  return { t, log, listening };
}

/** Pino's lines of a test app, parsed (`level` is pino's number: 20 debug, 40 warn, 50 error). */
function logLines() {
  const lines: Array<Record<string, unknown> & { level: number; msg: string }> = [];
  return {
    lines,
    logger: { level: 'debug', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
  };
}

/** Waits until `check` holds (polling every 10 ms), or fails after `timeoutMs`. */
const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> =>
  eventually(async () => check(), timeoutMs, 10, what);

/** Upserts a file of `size` bytes on the bootstrap bot and answers its upload URL's path and query. */
async function uploadPath(t: ReturnType<typeof useTestApp>, key: string, size: number): Promise<string> {
  const res = await t.call({
    method: 'PUT',
    url: '/v1/files',
    token: t.botKey,
    headers: { 'x-bot-id': t.botId },
    body: { key, size },
  });
  expect(res.statusCode, res.body).toBe(200);
  const url = new URL((res.json() as { file: { uploadUrl: string } }).file.uploadUrl);
  return `${url.pathname}${url.search}`;
}

/** Starts a raw PUT of `size` bytes to `path`, sending `first` bytes of it; the rest is the caller's to send. */
async function startUpload(port: number, path: string, size: number, first: number) {
  const c = rawConnection(port);
  await c.connected;
  c.socket.write(
    `PUT ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/octet-stream\r\ncontent-length: ${size}\r\nconnection: close\r\n\r\n`,
  );
  c.socket.write(Buffer.alloc(first, 1));
  return c;
}

/** Bytes the blob store holds in temporary files (uploads in flight). */
async function bytesInFlight(dataDir: string): Promise<number> {
  const { readdir, stat } = await import('node:fs/promises');
  const { join } = await import('node:path');
  let total = 0;
  const entries = await readdir(join(dataDir, 'blobs'), { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  for (const e of entries) {
    if (!e.isFile() || (!e.name.startsWith('.tmp') && !e.parentPath.includes('.tmp'))) continue;
    total += await stat(join(e.parentPath, e.name)).then(
      (s) => s.size,
      () => 0,
    );
  }
  return total;
}

describe('upload bodies: a minimum byte rate', () => {
  const { t, log, listening } = listeningApp({
    PARLEY_UPLOAD_MIN_BYTES: '1000',
    PARLEY_UPLOAD_RATE_WINDOW_MS: '500',
  });

  it('answers 408 to an upload dripping in below the rate within its window, keeps the file pending and its URL usable', async () => {
    const path = await uploadPath(t, 'drip.bin', 5000);
    const slow = await startUpload(listening.port, path, 5000, 1);
    const sent = await drip(slow.socket, 4999, 50);
    await slow.closed;
    // Cut off by the rate, not by the body's end: a byte every 50 ms, and the server closed the upload before the
    // 100th (counted in bytes the client got to send, not in milliseconds, which a loaded machine stretches).
    expect(sent).toBeLessThan(100);
    expectTimedOut(slow.received, 'fewer than the 1000 required');
    // The dropped upload is logged below error level; nothing of it is kept, and the URL takes the bytes again.
    await until(() => log.lines.some((l) => l.msg.startsWith('upload dropped')), 'the dropped upload');
    expect(log.lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(log.lines.find((l) => l.msg.startsWith('upload dropped'))?.level).toBe(20);
    await until(async () => (await bytesInFlight(t.dataDir)) === 0, 'the temporary bytes to go');
    const again = await t.app.inject({ method: 'PUT', url: path, payload: Buffer.alloc(5000, 2) });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('lets an upload that keeps the rate run past several windows', async () => {
    const path = await uploadPath(t, 'steady.bin', 20_000);
    const steady = await startUpload(listening.port, path, 20_000, 2000);
    // The client's pace, the scenario itself: 2000 bytes every 150 ms, above 1000 a window, across several windows.
    const pace = 150;
    for (let sent = 2000; sent < 20_000; sent += 2000) {
      await new Promise((r) => setTimeout(r, pace));
      steady.socket.write(Buffer.alloc(2000, 3));
    }
    await steady.closed;
    expect(steady.received).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('upload bodies: at once per upload URL and per address', () => {
  const { t, log, listening } = listeningApp({
    PARLEY_UPLOAD_MIN_BYTES: '0',
    PARLEY_MAX_UPLOADS_PER_ADDRESS: '2',
  });

  it('answers 409 to a second upload to a URL in use and 429 past the uploads of an address, until one ends', async () => {
    const first = await uploadPath(t, 'one.bin', 1000);
    const second = await uploadPath(t, 'two.bin', 1000);
    const third = await uploadPath(t, 'three.bin', 1000);
    const a = await startUpload(listening.port, first, 1000, 10);
    await until(async () => (await bytesInFlight(t.dataDir)) >= 10, 'the first upload in flight');
    const twice = await t.app.inject({ method: 'PUT', url: first, payload: Buffer.alloc(1000) });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 409, type: 'ResourceLockedConflict' });
    expect((twice.json() as { message: string }).message).toContain('already in progress');
    const b = await startUpload(listening.port, second, 1000, 10);
    await until(async () => (await bytesInFlight(t.dataDir)) >= 20, 'the second upload in flight');
    const tooMany = await t.app.inject({ method: 'PUT', url: third, payload: Buffer.alloc(1000) });
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.json()).toMatchObject({ code: 429, type: 'RateLimited' });
    expect(tooMany.headers['retry-after']).toBe('5');
    // The first ends: its slots are free again, and the refused uploads go through.
    a.socket.write(Buffer.alloc(990, 1));
    await a.closed;
    expect(a.received).toMatch(/^HTTP\/1\.1 200 /);
    const now = await t.app.inject({ method: 'PUT', url: third, payload: Buffer.alloc(1000) });
    expect(now.statusCode, now.body).toBe(200);
    // The second is dropped mid-body: logged at debug, never as an error.
    b.socket.destroy();
    await until(() => log.lines.some((l) => l.msg.startsWith('upload dropped')), 'the dropped upload');
    expect(log.lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});
