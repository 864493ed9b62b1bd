// Files API transfer benchmark: moves one large file through a real `parley serve` process (upsert, PUT to
// the uploadUrl, GET of the url) and prints MB/s beside a raw copy of the same file on the same disk, measured
// in the same run, with the server's peak memory. See bench/README.md.
//
//   npm run -w @parley/bench files-transfer -- --size 1GiB --runs 3
//
// Options (flags win over environment): --size / BENCH_SIZE (bytes, or 64MiB, 1GiB, 500MB; default 1GiB),
// --runs / BENCH_RUNS (default 3), --dir / BENCH_DIR (work folder; default the OS temp folder).
import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, open, rm, unlink } from 'node:fs/promises';
import { type IncomingMessage, request } from 'node:http';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { makeWorkFolder, option, positiveInteger } from './lib/args.js';
import { megabytes, table } from './lib/format.js';
import { procMemory, residentMemory } from './lib/machine.js';
import { onInterrupt, runMain, sleep } from './lib/run.js';
import { callApi, type ParleyServer, readBody, startParleyWithBot } from './lib/server.js';
import { median } from './lib/stats.js';

const MiB = 1024 * 1024;
const MB = 1_000_000;

// ---------------------------------------------------------------------------------------------------------
// Options

/** Parses `1073741824`, `64MiB`, `1GiB`, `500MB`, `1.5GB` into bytes. */
function parseSize(text: string): number {
  const m = text.trim().match(/^(\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib)?$/i);
  if (!m?.[1]) throw new Error(`"${text}" is not a size (examples: 1073741824, 64MiB, 1GiB, 500MB)`);
  const unit = (m[2] ?? 'b').toLowerCase();
  const factor: Record<string, number> = {
    b: 1,
    kb: 1e3,
    kib: 1024,
    mb: 1e6,
    mib: MiB,
    gb: 1e9,
    gib: 1024 * MiB,
  };
  const bytes = Math.round(Number(m[1]) * (factor[unit] ?? 1));
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new Error(`"${text}" is not a positive size`);
  return bytes;
}

// ---------------------------------------------------------------------------------------------------------
// Memory of the server process

type Phase = 'idle' | 'copy' | 'upload' | 'download';

/** Samples the server's RSS every 100 ms and keeps the peak per phase. */
function memorySampler(pid: number) {
  const peaks: Record<Phase, number> = { idle: 0, copy: 0, upload: 0, download: 0 };
  let phase: Phase = 'idle';
  let samples = 0;
  let busy = false;
  const take = async () => {
    if (busy) return;
    busy = true;
    try {
      const rss = await residentMemory(pid);
      if (rss !== undefined) {
        samples += 1;
        peaks[phase] = Math.max(peaks[phase], rss);
      }
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void take(), 100);
  return {
    async setPhase(next: Phase) {
      await take();
      phase = next;
      await take();
    },
    peaks,
    samples: () => samples,
    stop: () => clearInterval(timer),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Transfers

async function fsyncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Random bytes written to `path` in 8 MiB chunks; answers their sha256. */
async function createRandomFile(path: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const handle = await open(path, 'w');
  try {
    const chunk = Buffer.allocUnsafe(8 * MiB);
    for (let written = 0; written < size; ) {
      const n = Math.min(chunk.length, size - written);
      const part = chunk.subarray(0, n);
      randomFillSync(part);
      hash.update(part);
      await handle.write(part, 0, n);
      written += n;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

interface HttpAnswer {
  status: number;
  body: string;
}

/** PUTs the file at `path` to `url`, streamed from disk (never buffered), as `curl -T` would. */
async function putFile(url: string, path: string, size: number): Promise<HttpAnswer> {
  return new Promise<HttpAnswer>((resolve, reject) => {
    const req = request(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
    });
    req.once('response', (res) => {
      readBody(res).then((body) => resolve({ status: res.statusCode ?? 0, body }), reject);
    });
    req.once('error', reject);
    pipeline(createReadStream(path, { highWaterMark: MiB }), req).catch(reject);
  });
}

/** GETs `url` into `path`, streamed to disk, hashing on the way; fsyncs before answering. */
async function getFile(url: string, path: string): Promise<{ bytes: number; sha256: string }> {
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, { method: 'GET' });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
  if (res.statusCode !== 200) throw new Error(`download answered ${res.statusCode}: ${await readBody(res)}`);
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(res, tap, createWriteStream(path));
  await fsyncFile(path);
  return { bytes, sha256: hash.digest('hex') };
}

/** upsert + PUT of the file at `path` to its uploadUrl; answers the file id and the server's checksum. */
async function uploadThroughApi(
  server: ParleyServer,
  key: string,
  path: string,
  size: number,
): Promise<{ id: string; checksum: string | undefined }> {
  const { file } = await callApi<{ file: { id: string; uploadUrl: string } }>(server, 'PUT', '/v1/files', {
    key,
    size,
  });
  const answer = await putFile(file.uploadUrl, path, size);
  if (answer.status !== 200) throw new Error(`upload answered ${answer.status}: ${answer.body}`);
  const uploaded = (JSON.parse(answer.body) as { file: { status: string; checksum?: string } }).file;
  if (uploaded.status !== 'upload_completed') throw new Error(`upload ended ${uploaded.status}`);
  return { id: file.id, checksum: uploaded.checksum };
}

/** getFile for a fresh url, then the bytes to `target`, streamed. */
async function downloadThroughApi(
  server: ParleyServer,
  id: string,
  target: string,
): Promise<{ bytes: number; sha256: string }> {
  const { file } = await callApi<{ file: { url: string } }>(server, 'GET', `/v1/files/${id}`);
  return getFile(file.url, target);
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

// ---------------------------------------------------------------------------------------------------------
// Report

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const size = parseSize(option('size', 'BENCH_SIZE') ?? '1GiB');
  const runs = positiveInteger(option('runs', 'BENCH_RUNS'), 'runs') ?? 3;
  const work = await makeWorkFolder('parley-bench-');
  let server: ParleyServer | undefined;
  let sampler: ReturnType<typeof memorySampler> | undefined;
  const cleanup = async () => {
    sampler?.stop();
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  };
  onInterrupt(cleanup);

  try {
    const source = join(work, 'source.bin');
    console.log(`Files transfer benchmark: ${size} bytes (${(size / MiB).toFixed(1)} MiB), ${runs} runs`);
    console.log(`work folder ${work} (source, copies, server data dir: all on the same disk)`);
    const createStart = Date.now();
    const expectedSha = await createRandomFile(source, size);
    console.log(
      `created the source file (random bytes) in ${((Date.now() - createStart) / 1000).toFixed(1)} s`,
    );

    server = await startParleyWithBot('Parley', join(work, 'data'));
    sampler = memorySampler(server.pid);
    await sleep(300);
    const startRss = (await residentMemory(server.pid)) ?? 0;
    // Warm-up: one 1 MiB file up and down, so that code loaded on first use is in the idle figure.
    const warm = join(work, 'warm-up.bin');
    await createRandomFile(warm, MiB);
    const warmFile = await uploadThroughApi(server, 'bench/warm-up.bin', warm, MiB);
    await downloadThroughApi(server, warmFile.id, `${warm}.down`);
    await callApi(server, 'DELETE', `/v1/files/${warmFile.id}`);
    await rm(warm);
    await rm(`${warm}.down`);
    await sleep(500);
    await sampler.setPhase('idle');
    const idleRss = (await residentMemory(server.pid)) ?? 0;

    const results = {
      copyFile: [] as number[],
      stream: [] as number[],
      upload: [] as number[],
      download: [] as number[],
    };
    let verifiedUploads = 0;
    let verifiedDownloads = 0;
    for (let run = 1; run <= runs; run++) {
      // Raw baselines: the same bytes, the same disk, each writer fsyncs before the clock stops (as the server does).
      await sampler.setPhase('copy');
      const copy = join(work, `copy-${run}.bin`);
      results.copyFile.push(
        await timed(async () => {
          await copyFile(source, copy);
          await fsyncFile(copy);
        }),
      );
      await unlink(copy);
      results.stream.push(
        await timed(async () => {
          await pipeline(createReadStream(source, { highWaterMark: MiB }), createWriteStream(copy));
          await fsyncFile(copy);
        }),
      );
      await unlink(copy);

      // Upload: upsert, then the raw bytes to the uploadUrl, streamed from disk.
      await sampler.setPhase('upload');
      let uploaded = { id: '', checksum: undefined as string | undefined };
      results.upload.push(
        await timed(async () => {
          uploaded = await uploadThroughApi(server as ParleyServer, `bench/run-${run}.bin`, source, size);
        }),
      );
      if (uploaded.checksum !== undefined) {
        if (uploaded.checksum !== expectedSha)
          throw new Error(`the server's sha256 ${uploaded.checksum} is not the source's ${expectedSha}`);
        verifiedUploads += 1;
      }

      // Download: getFile for a fresh url, then the bytes to disk, streamed.
      await sampler.setPhase('download');
      const target = join(work, `download-${run}.bin`);
      let got = { bytes: 0, sha256: '' };
      results.download.push(
        await timed(async () => {
          got = await downloadThroughApi(server as ParleyServer, uploaded.id, target);
        }),
      );
      if (got.bytes !== size || got.sha256 !== expectedSha)
        throw new Error(
          `download of run ${run}: ${got.bytes} bytes, sha256 ${got.sha256}; expected ${expectedSha}`,
        );
      verifiedDownloads += 1;
      await unlink(target);
      await sampler.setPhase('idle');
      await callApi(server, 'DELETE', `/v1/files/${uploaded.id}`);
      console.log(
        `run ${run}/${runs}: copyFile ${(size / MB / (results.copyFile.at(-1) ?? 1)).toFixed(0)} MB/s, ` +
          `stream copy ${(size / MB / (results.stream.at(-1) ?? 1)).toFixed(0)} MB/s, ` +
          `upload ${(size / MB / (results.upload.at(-1) ?? 1)).toFixed(0)} MB/s, ` +
          `download ${(size / MB / (results.download.at(-1) ?? 1)).toFixed(0)} MB/s`,
      );
    }
    sampler.stop();
    const hwm = procMemory(server.pid, 'VmHWM');

    const rate = (seconds: number[]) => seconds.map((s) => size / MB / s);
    const rates = {
      copyFile: rate(results.copyFile),
      stream: rate(results.stream),
      upload: rate(results.upload),
      download: rate(results.download),
    };
    const baseCopy = median(rates.copyFile);
    const baseStream = median(rates.stream);
    const row = (name: string, values: number[]) => {
      const m = median(values);
      return [
        name,
        m.toFixed(0),
        `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`,
        (m / baseCopy).toFixed(2),
        (m / baseStream).toFixed(2),
      ];
    };
    console.log('');
    console.log(`Median of ${runs} runs; MB = 10^6 bytes; every writer fsyncs before the clock stops.`);
    console.log(
      table([
        ['step', 'median MB/s', 'min–max', '÷ raw copyFile', '÷ raw stream copy'],
        row('raw copy: fs.copyFile', rates.copyFile),
        row('raw copy: stream pipe', rates.stream),
        row('upload: upsert + PUT uploadUrl', rates.upload),
        row('download: getFile + GET url', rates.download),
      ]),
    );
    const peak = Math.max(...Object.values(sampler.peaks));
    console.log('');
    console.log(
      `Server memory (RSS of pid ${server.pid}, sampled every 100 ms, ${sampler.samples()} samples; file ${megabytes(size, 0)}):`,
    );
    const memoryRow = (when: string, bytes: number) => [
      when,
      megabytes(bytes, 0),
      `${((100 * bytes) / size).toFixed(1)} %`,
    ];
    console.log(
      table([
        ['when', 'peak RSS', '÷ file size'],
        memoryRow('right after start', startRss),
        memoryRow('idle after a 1 MiB warm-up', idleRss),
        memoryRow('between transfers (raw copies)', sampler.peaks.copy),
        memoryRow('during uploads', sampler.peaks.upload),
        memoryRow('during downloads', sampler.peaks.download),
        memoryRow('peak overall', peak),
        ...(hwm === undefined ? [] : [memoryRow('kernel high-water mark (VmHWM)', hwm)]),
      ]),
    );
    console.log(
      `peak growth over idle (after warm-up): ${megabytes(peak - idleRss, 0)}; sha256 verified: ${verifiedUploads}/${runs} uploads (server checksum), ${verifiedDownloads}/${runs} downloads`,
    );
  } finally {
    await cleanup();
  }
}

runMain(main);
