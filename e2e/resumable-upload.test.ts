// Resumable uploads through a whole cluster (three `parley serve` processes on one PostgreSQL database and one S3
// store behind nginx, round-robin, packages/testkit/src/e2e/deployment.ts): `@parley/client` uploads a large file through a TCP
// proxy in front of nginx that cuts the connection once at half; the upload resumes from the offset the cluster
// holds (its requests land on all three processes), sends little again, and the stored bytes hash as the file.
// 32 MiB in requests of 8 MiB by default (the client's own sizes, 64 MiB and over in 16 MiB requests, are
// packages/client/src/resumable.test.ts's); PARLEY_RESUMABLE_TEST_MB=1024 runs the 1 GB version.
import { Client } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cuttingProxy, sha256Of, writeLargeFile } from '../packages/testkit/src/client/cutting-proxy.js';
import { type Deployment, haveCluster, startDeployment } from '../packages/testkit/src/e2e/deployment.js';
import { requireBuild } from '../packages/testkit/src/e2e/server.js';
import { useTempDirs } from '../packages/testkit/src/server/temp-dirs.js';

requireBuild();

const clusterHere = haveCluster('resumable upload test');
const LARGE_BYTES = Number(process.env.PARLEY_RESUMABLE_TEST_MB ?? 32) * 1024 * 1024;
/** Bytes per request: a cut at half leaves the cluster holding whole requests, as 16 MiB ones of 96 MiB would. */
const CHUNK_BYTES = 8 * 1024 * 1024;
const tempDir = useTempDirs('parley-e2e-resumable-');

describe.skipIf(!clusterHere)(
  'a resumable upload through nginx to three processes on PostgreSQL and S3',
  () => {
    let d: Deployment;
    let proxy: Awaited<ReturnType<typeof cuttingProxy>>;

    beforeAll(async () => {
      proxy = await cuttingProxy(Math.floor(LARGE_BYTES / 2));
      // Upload URLs name the cutting proxy, which forwards to nginx: every upload request crosses both.
      d = await startDeployment('cluster', { env: { PARLEY_PUBLIC_URL: proxy.url } });
      proxy.forwardTo(Number(new URL(d.url).port));
    }, 180_000);
    afterAll(async () => {
      await d?.stop();
      await proxy?.close();
    });

    it(
      'completes after a cut at half by resuming from the cluster offset, sending less than 60 % again, with the sha256 of the bytes',
      async () => {
        const { path, digest } = await writeLargeFile(await tempDir(), LARGE_BYTES);
        const client = new Client({
          apiUrl: proxy.url,
          token: d.owner.botAccessKey,
          botId: d.owner.botId,
          retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 1000 },
        });
        const before = proxy.sent;
        const file = await client.uploadFile({
          key: 'e2e/large.bin',
          path,
          resumable: { threshold: 0, chunkSize: CHUNK_BYTES },
        });
        const again = proxy.sent - before - LARGE_BYTES;
        console.info(
          `cluster resumable upload of ${LARGE_BYTES / 2 ** 20} MiB, cut once at half: ${(again / 2 ** 20).toFixed(1)} MiB sent again`,
        );
        expect(proxy.cuts).toBe(1);
        expect(file).toMatchObject({ size: LARGE_BYTES, status: 'upload_completed', checksum: digest });
        expect(again).toBeLessThan(0.6 * LARGE_BYTES);
        // Every process knows the file as uploaded, with the same checksum; the stored bytes hash as the source.
        for (const proc of d.processes) {
          const direct = new Client({ apiUrl: proc.url, token: d.owner.botAccessKey, botId: d.owner.botId });
          expect((await direct.getFile({ id: file.id })).file).toMatchObject({
            status: 'upload_completed',
            checksum: digest,
          });
        }
        const { stream } = await client.downloadFile(file.id);
        expect(await sha256Of(stream)).toBe(digest);
      },
      LARGE_BYTES > 256 * 1024 * 1024 ? 3_600_000 : 600_000,
    );
  },
);
