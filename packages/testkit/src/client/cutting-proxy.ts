import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { createServer, type Server, Socket } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';

// A TCP proxy that drops a connection once, a large file to send through it, and the sha256 of what comes back
// (resumable upload tests).

/**
 * A TCP proxy on 127.0.0.1 in front of `target`: it counts the bytes clients send through it, and once
 * `cutAfter` bytes went up in all, it cuts the connection carrying them (both sides, at once) a single time.
 */
export async function cuttingProxy(cutAfter: number) {
  let target = 0;
  let sent = 0;
  let cuts = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    upstream.connect(target, '127.0.0.1');
    client.on('data', (chunk: Buffer) => {
      sent += chunk.byteLength;
      if (cuts === 0 && sent >= cutAfter) {
        cuts += 1;
        // A dropped connection: the client sees a reset, the server a request that ends mid-body.
        client.resetAndDestroy();
        drop();
        return;
      }
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once('drain', () => client.resume());
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!client.write(chunk)) {
        upstream.pause();
        client.once('drain', () => upstream.resume());
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    /** Sets the port it forwards to. */
    forwardTo(p: number) {
      target = p;
    },
    get sent() {
      return sent;
    },
    get cuts() {
      return cuts;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes `size` bytes that differ everywhere to `large.bin` in `dir`; answers its path and the bytes' sha256. */
export async function writeLargeFile(dir: string, size: number): Promise<{ path: string; digest: string }> {
  const path = join(dir, 'large.bin');
  const hash = createHash('sha256');
  const block = Buffer.alloc(4 * 1024 * 1024);
  async function* blocks() {
    for (let at = 0, n = 0; at < size; at += block.length, n++) {
      for (let i = 0; i + 4 <= block.length; i += 4)
        block.writeUInt32LE((i * 2654435761 + n * 40503) >>> 0, i);
      const bytes = Buffer.from(block.subarray(0, Math.min(block.length, size - at)));
      hash.update(bytes);
      yield bytes;
    }
  }
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(path);
    Readable.from(blocks()).pipe(out).on('finish', resolve).on('error', reject);
  });
  return { path, digest: hash.digest('hex') };
}

/** The sha256 (hex) of the bytes of `stream` (a downloaded file's: Node's web streams iterate), read to its end. */
export async function sha256Of(stream: ReadableStream<Uint8Array>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
  return hash.digest('hex');
}
