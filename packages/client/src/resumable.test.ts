import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cuttingProxy, sha256Of, writeLargeFile } from '../../testkit/src/client/cutting-proxy.js';
import { failure, type Parley, startParley } from '../../testkit/src/client/servers.js';
import { useTempDirs } from '../../testkit/src/server/temp-dirs.js';
import type { Client } from './client.js';
import { AbortError } from './local-errors.js';
import { DEFAULT_RESUMABLE_CHUNK_SIZE } from './resumable-options.js';
import type { UploadProgress } from './transfer.js';

// Resumable uploads of `uploadFile` against the real server, through a TCP proxy that cuts the connection.

/**
 * Size of the large upload: 96 MiB by default; PARLEY_RESUMABLE_TEST_MB=1024 runs the 1 GB version (minutes on
 * a loaded 2-core machine, so not in the default run).
 */
const LARGE_BYTES = Number(process.env.PARLEY_RESUMABLE_TEST_MB ?? 96) * 1024 * 1024;
const tempDir = useTempDirs('parley-resumable-');

describe('uploadFile: resumable uploads against the real server', () => {
  let p: Parley;
  let proxy: Awaited<ReturnType<typeof cuttingProxy>>;
  let client: Client;

  beforeAll(async () => {
    proxy = await cuttingProxy(Math.floor(LARGE_BYTES / 2));
    // The server hands out upload URLs on the proxy's address, as behind a load balancer.
    p = await startParley({ env: { PARLEY_PUBLIC_URL: proxy.url } });
    proxy.forwardTo(Number(new URL(p.apiUrl).port));
    client = p.client({
      apiUrl: proxy.url,
      botId: p.botId,
      retry: { attempts: 1, baseDelayMs: 50, maxDelayMs: 500 },
    });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
    await proxy?.close();
  });

  it(
    'finishes a large upload whose connection is cut at half by resuming from the server offset, sending less than 60 % again',
    async () => {
      const { path, digest } = await writeLargeFile(await tempDir(), LARGE_BYTES);
      const progress: UploadProgress[] = [];
      const before = proxy.sent;
      // Over the default threshold (64 MiB): resumable, in requests of 16 MiB.
      const began = Date.now();
      let allSent = 0;
      const file = await client.uploadFile({
        key: 'large/video.bin',
        path,
        onProgress: (e) => {
          progress.push(e);
          if (e.loaded === e.total && allSent === 0) allSent = Date.now();
        },
      });
      const ended = Date.now();
      expect(proxy.cuts).toBe(1);
      expect(file).toMatchObject({ key: 'large/video.bin', size: LARGE_BYTES, status: 'upload_completed' });
      expect(file.checksum).toBe(digest);
      const again = proxy.sent - before - LARGE_BYTES;
      console.info(
        `resumable upload of ${LARGE_BYTES / 2 ** 20} MiB, cut once at half: ${(again / 2 ** 20).toFixed(1)} MiB sent again (${((100 * again) / LARGE_BYTES).toFixed(1)} %); ${((ended - began) / 1000).toFixed(1)} s in all, ${((ended - allSent) / 1000).toFixed(1)} s of it after the last byte went (join, commit, getFile)`,
      );
      expect(again).toBeGreaterThan(0);
      expect(again).toBeLessThan(0.6 * LARGE_BYTES);
      // At most the chunk in flight went again (and some headers).
      expect(again).toBeLessThan(DEFAULT_RESUMABLE_CHUNK_SIZE + 1024 * 1024);
      expect(progress.at(-1)).toEqual({ loaded: LARGE_BYTES, total: LARGE_BYTES });
      // The stored bytes are the file's: read back directly from the server.
      const { stream } = await p.client({ botId: p.botId }).downloadFile(file.id);
      expect(await sha256Of(stream)).toBe(digest);
    },
    LARGE_BYTES > 256 * 1024 * 1024 ? 3_600_000 : 300_000,
  );

  it('uploads a stream resumably in small requests when asked to, with the sha256 of its bytes', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) & 0xff;
    const chunks = Array.from({ length: Math.ceil(bytes.length / 100_000) }, (_, i) =>
      bytes.subarray(i * 100_000, (i + 1) * 100_000),
    );
    const file = await client.uploadFile({
      key: 'small/stream.bin',
      stream: Readable.from(chunks),
      size: bytes.length,
      resumable: { threshold: 0, chunkSize: 1024 * 1024 },
    });
    expect(file).toMatchObject({ size: bytes.length, status: 'upload_completed' });
    expect(file.checksum).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('cancels the resumable upload when the caller aborts: its URL then answers 404', async () => {
    const controller = new AbortController();
    let sessionUrl: string | undefined;
    const seen = p.client({
      apiUrl: proxy.url,
      botId: p.botId,
      fetch: async (input, init) => {
        const url = String(input);
        if (init?.method === 'PATCH') {
          sessionUrl = url;
          controller.abort(new Error('enough'));
        }
        return fetch(input, init);
      },
    });
    const error = await failure(
      seen.uploadFile(
        {
          key: 'small/aborted.bin',
          content: new Uint8Array(2 * 1024 * 1024),
          resumable: { threshold: 0, chunkSize: 1024 * 1024 },
        },
        { signal: controller.signal },
      ),
    );
    expect(error).toBeInstanceOf(AbortError);
    expect(sessionUrl).toMatch(/\/uploads\/upl_/);
    const res = await fetch(sessionUrl as string);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 404, type: 'ResourceNotFound' });
  });
});
