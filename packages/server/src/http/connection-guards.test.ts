import type { Socket } from 'node:net';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../test-support/fixtures.js';
import { rawSocket } from '../test-support/raw-sockets.js';

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
  const t = useTestApp({
    env: { PARLEY_BODY_TIMEOUT_MS: '1000', PARLEY_MAX_CONNECTIONS_PER_ADDRESS: '6' },
  });
  let port: number;

  beforeAll(async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(address).port);
  });

  it('answers 408 and closes a request whose body drips in slower than the bound, while others are served', async () => {
    const slow = rawConnection(port);
    await slow.connected;
    slow.socket.write(
      `POST /v1/chat/${t.botId}/users HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{`,
    );
    const started = Date.now();
    const dripping = drip(slow.socket, 100_000, 100);
    const healthy = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(healthy.status).toBe(200);
    await slow.closed;
    const sent = await dripping;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(sent).toBeLessThan(100);
    expect(slow.received).toMatch(/^HTTP\/1\.1 408 /);
    const body = JSON.parse(slow.received.slice(slow.received.indexOf('\r\n\r\n') + 4)) as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({ code: 408, type: 'OperationTimeout' });
    expect(String(body.message)).toContain('did not arrive within 1 s');
  });

  it('bounds a body that has not begun when the headers arrive, and serves one that comes in time after them', async () => {
    const head = (length: number) =>
      `POST /v1/chat/${t.botId}/users HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${t.botKey}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n`;
    const never = rawConnection(port);
    const later = rawConnection(port);
    await Promise.all([never.connected, later.connected]);
    const started = Date.now();
    never.socket.write(head(2));
    later.socket.write(head(2));
    await new Promise((r) => setTimeout(r, 300));
    later.socket.write('{}');
    await Promise.all([never.closed, later.closed]);
    expect(later.received).toMatch(/^HTTP\/1\.1 20[01] /);
    expect(never.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('arms no body timer for a request that arrives whole (headers and body in one read)', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      const whole = rawConnection(port);
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
    const upload = rawConnection(port);
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
    const held = Array.from({ length: 6 }, () => rawConnection(port));
    await Promise.all(held.map((c) => c.connected));
    // Give the server a moment to count them.
    await new Promise((r) => setTimeout(r, 100));
    const extra = rawConnection(port);
    extra.socket.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    await extra.closed;
    expect(extra.received).toBe('');
    held[0]?.socket.destroy();
    await held[0]?.closed;
    await new Promise((r) => setTimeout(r, 100));
    const again = rawConnection(port);
    again.socket.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n');
    await again.closed;
    expect(again.received).toMatch(/^HTTP\/1\.1 200 /);
    for (const c of held) c.socket.destroy();
    await Promise.all(held.map((c) => c.closed));
  });
});
