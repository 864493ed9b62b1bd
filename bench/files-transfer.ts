// Files API transfer benchmark: moves one large file through a real `parley serve` process (upsert, PUT to
// the uploadUrl, GET of the url) and through a bare Node http server doing the same byte work (`pipeline(req,
// file)` then fsync for the upload, `createReadStream` piped to the response for the download), both child
// processes measured in the same run with the same client, and prints MB/s, the ratios to the bare server and
// the servers' peak memory. A raw copy of the file on the same disk is printed too. See docs/benchmarks/files-transfer.md.
//
//   npm run -w @parley/bench files-transfer -- --size 1GiB --runs 3
//
// Options (flags win over environment): --size / BENCH_SIZE (bytes, or 64MiB, 1GiB, 500MB; default 1GiB),
// --runs / BENCH_RUNS (default 3), --dir / BENCH_DIR (work folder; default the OS temp folder), --parley-main /
// BENCH_PARLEY_MAIN (the server entry point to run, default this checkout's packages/server/dist/main.js: another
// build's, to measure before and after a change).
import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, rm, stat, unlink } from 'node:fs/promises';
import { createServer, type IncomingMessage, request } from 'node:http';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { makeWorkFolder, option, positiveInteger } from './lib/args.js';
import { megabytes, table } from './lib/format.js';
import { cpuSeconds, loadAverage, procMemory, residentMemory } from './lib/machine.js';
import { onInterrupt, runMain, sleep } from './lib/run.js';
import {
  callApi,
  childEnv,
  freePort,
  type NodeProcess,
  type ParleyServer,
  readBody,
  spawnNode,
  startParleyWithBot,
} from './lib/server.js';
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

type Sampler = ReturnType<typeof memorySampler>;

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

/** Runs `fn`, adding its wall time to `seconds` and the CPU seconds `pid` used meanwhile to `cpu`; answers its value. */
async function measured<T>(pid: number, seconds: number[], cpu: number[], fn: () => Promise<T>): Promise<T> {
  const before = cpuSeconds(pid);
  const start = process.hrtime.bigint();
  const value = await fn();
  seconds.push(Number(process.hrtime.bigint() - start) / 1e9);
  cpu.push(cpuSeconds(pid) - before);
  return value;
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

// ---------------------------------------------------------------------------------------------------------
// The baseline: a bare Node http server doing the same byte work (run as a child process of this file)

/**
 * `PUT /files/{name}`: `pipeline(req, createWriteStream(file))`, then fsync, then 200 `{"size":n}`.
 * `GET /files/{name}`: `createReadStream(file)` piped to the response, with its Content-Length.
 * `DELETE /files/{name}`: unlink. No auth, no hashing, no database: the floor of this work in Node.
 */
function runBareServer(port: number, dir: string): void {
  const fail = (res: import('node:http').ServerResponse, error: unknown) => {
    if (!res.headersSent) res.writeHead(500).end(String(error));
    else res.destroy();
  };
  const server = createServer((req, res) => {
    const name = (req.url ?? '').match(/^\/files\/([\w.-]+)$/)?.[1];
    if (!name) {
      res.writeHead(404).end();
      return;
    }
    const path = join(dir, name);
    if (req.method === 'PUT') {
      pipeline(req, createWriteStream(path))
        .then(() => fsyncFile(path))
        .then(() => stat(path))
        .then((s) => {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ size: s.size }));
        })
        .catch((error: unknown) => fail(res, error));
    } else if (req.method === 'GET') {
      stat(path)
        .then((s) => {
          res.writeHead(200, {
            'content-type': 'application/octet-stream',
            'content-length': String(s.size),
          });
          return pipeline(createReadStream(path), res);
        })
        .catch((error: unknown) => fail(res, error));
    } else if (req.method === 'DELETE') {
      unlink(path)
        .then(() => res.writeHead(204).end())
        .catch((error: unknown) => fail(res, error));
    } else {
      res.writeHead(405).end();
    }
  });
  server.listen(port, '127.0.0.1', () => console.log(`bare server listening on ${port}`));
  process.on('SIGTERM', () => process.exit(0));
}

/** The bare server: this file run with `--bare-server <port> <dir>`. */
async function startBare(dir: string): Promise<NodeProcess> {
  const port = await freePort();
  await mkdir(dir, { recursive: true });
  return spawnNode({
    name: 'bare Node http',
    args: [fileURLToPath(import.meta.url), '--bare-server', String(port), dir],
    env: childEnv({}),
    url: `http://127.0.0.1:${port}`,
    ready: async (out) => out.includes('bare server listening'),
  });
}

async function uploadToBare(bare: NodeProcess, name: string, path: string, size: number): Promise<void> {
  const answer = await putFile(`${bare.url}/files/${name}`, path, size);
  if (answer.status !== 200) throw new Error(`bare upload answered ${answer.status}: ${answer.body}`);
  const stored = (JSON.parse(answer.body) as { size: number }).size;
  if (stored !== size) throw new Error(`the bare server stored ${stored} of ${size} bytes`);
}

async function deleteFromBare(bare: NodeProcess, name: string): Promise<void> {
  const res = await fetch(`${bare.url}/files/${name}`, { method: 'DELETE' });
  if (res.status !== 204) throw new Error(`bare delete answered ${res.status}`);
}

// ---------------------------------------------------------------------------------------------------------
// Report

const rateOf = (size: number, seconds: number) => size / MB / seconds;

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const size = parseSize(option('size', 'BENCH_SIZE') ?? '1GiB');
  const runs = positiveInteger(option('runs', 'BENCH_RUNS'), 'runs') ?? 3;
  const work = await makeWorkFolder('parley-bench-');
  let server: ParleyServer | undefined;
  let bare: NodeProcess | undefined;
  const samplers: Sampler[] = [];
  const cleanup = async () => {
    for (const s of samplers) s.stop();
    await server?.stop();
    await bare?.stop();
    await rm(work, { recursive: true, force: true });
  };
  onInterrupt(cleanup);

  try {
    const source = join(work, 'source.bin');
    console.log(`Files transfer benchmark: ${size} bytes (${(size / MiB).toFixed(1)} MiB), ${runs} runs`);
    console.log(`work folder ${work} (source, copies, both servers' data: all on the same disk)`);
    console.log(`Node ${process.version}; load average ${loadAverage()}`);
    const createStart = Date.now();
    const expectedSha = await createRandomFile(source, size);
    console.log(
      `created the source file (random bytes) in ${((Date.now() - createStart) / 1000).toFixed(1)} s`,
    );

    const main = option('parley-main', 'BENCH_PARLEY_MAIN');
    if (main) console.log(`Parley: ${main}`);
    // BENCH_NODE_ARGS (bench/lib/server.ts) reach Parley's node only, e.g. --max-semi-space-size=4 (docs/operations.md, Memory).
    const nodeArgs = process.env.BENCH_NODE_ARGS?.trim();
    if (nodeArgs)
      console.log(`Parley's node flags (BENCH_NODE_ARGS): ${nodeArgs}; the bare server runs without them`);
    server = await startParleyWithBot('Parley', join(work, 'data'), {}, main);
    bare = await startBare(join(work, 'bare'));
    const parleySampler = memorySampler(server.pid);
    const bareSampler = memorySampler(bare.pid);
    samplers.push(parleySampler, bareSampler);
    const setPhase = (phase: Phase) => Promise.all(samplers.map((s) => s.setPhase(phase)));
    await sleep(300);
    const startRss = (await residentMemory(server.pid)) ?? 0;
    // Warm-up: one 1 MiB file up and down through each server, so that code loaded on first use is in the
    // idle figure.
    const warm = join(work, 'warm-up.bin');
    await createRandomFile(warm, MiB);
    const warmFile = await uploadThroughApi(server, 'bench/warm-up.bin', warm, MiB);
    await downloadThroughApi(server, warmFile.id, `${warm}.down`);
    await callApi(server, 'DELETE', `/v1/files/${warmFile.id}`);
    await uploadToBare(bare, 'warm-up.bin', warm, MiB);
    await getFile(`${bare.url}/files/warm-up.bin`, `${warm}.down`);
    await deleteFromBare(bare, 'warm-up.bin');
    await rm(warm);
    await rm(`${warm}.down`);
    await sleep(500);
    await setPhase('idle');
    const idleRss = (await residentMemory(server.pid)) ?? 0;
    const bareIdleRss = (await residentMemory(bare.pid)) ?? 0;

    const seconds = {
      copyFile: [] as number[],
      stream: [] as number[],
      bareUpload: [] as number[],
      upload: [] as number[],
      bareDownload: [] as number[],
      download: [] as number[],
    };
    /** CPU seconds of the server process during each transfer. */
    const cpu = {
      bareUpload: [] as number[],
      upload: [] as number[],
      bareDownload: [] as number[],
      download: [] as number[],
    };
    let verifiedUploads = 0;
    let verifiedDownloads = 0;
    for (let run = 1; run <= runs; run++) {
      // Raw copies, for the disk's own speed: each writer fsyncs before the clock stops (as both servers do).
      await setPhase('copy');
      const copy = join(work, `copy-${run}.bin`);
      seconds.copyFile.push(
        await timed(async () => {
          await copyFile(source, copy);
          await fsyncFile(copy);
        }),
      );
      await unlink(copy);
      seconds.stream.push(
        await timed(async () => {
          await pipeline(createReadStream(source, { highWaterMark: MiB }), createWriteStream(copy));
          await fsyncFile(copy);
        }),
      );
      await unlink(copy);

      // The bare server and Parley take turns going first, so that a noisy moment spreads over both.
      const bareFirst = run % 2 === 1;
      const bareName = `run-${run}.bin`;

      // Upload: the raw bytes streamed from disk; Parley's after an upsert, to its uploadUrl.
      await setPhase('upload');
      let uploaded = { id: '', checksum: undefined as string | undefined };
      const uploadBare = async () => {
        const b = bare as NodeProcess;
        await measured(b.pid, seconds.bareUpload, cpu.bareUpload, () =>
          uploadToBare(b, bareName, source, size),
        );
      };
      const uploadParley = async () => {
        const s = server as ParleyServer;
        uploaded = await measured(s.pid, seconds.upload, cpu.upload, () =>
          uploadThroughApi(s, `bench/run-${run}.bin`, source, size),
        );
      };
      for (const step of bareFirst ? [uploadBare, uploadParley] : [uploadParley, uploadBare]) await step();
      if (uploaded.checksum !== undefined) {
        if (uploaded.checksum !== expectedSha)
          throw new Error(`the server's sha256 ${uploaded.checksum} is not the source's ${expectedSha}`);
        verifiedUploads += 1;
      }

      // Download: the bytes to disk, streamed and hashed by the client; Parley's after getFile for a fresh url.
      await setPhase('download');
      const target = join(work, `download-${run}.bin`);
      const check = (who: string, got: { bytes: number; sha256: string }) => {
        if (got.bytes !== size || got.sha256 !== expectedSha)
          throw new Error(
            `${who} download of run ${run}: ${got.bytes} bytes, sha256 ${got.sha256}; expected ${expectedSha}`,
          );
      };
      const downloadBare = async () => {
        const b = bare as NodeProcess;
        const got = await measured(b.pid, seconds.bareDownload, cpu.bareDownload, () =>
          getFile(`${b.url}/files/${bareName}`, target),
        );
        check('bare', got);
        await unlink(target);
      };
      const downloadParley = async () => {
        const s = server as ParleyServer;
        const got = await measured(s.pid, seconds.download, cpu.download, () =>
          downloadThroughApi(s, uploaded.id, target),
        );
        check('Parley', got);
        verifiedDownloads += 1;
        await unlink(target);
      };
      for (const step of bareFirst ? [downloadBare, downloadParley] : [downloadParley, downloadBare])
        await step();
      await setPhase('idle');
      await callApi(server, 'DELETE', `/v1/files/${uploaded.id}`);
      await deleteFromBare(bare, bareName);
      const last = (list: number[]) => rateOf(size, list.at(-1) ?? 1).toFixed(0);
      console.log(
        `run ${run}/${runs}: copyFile ${last(seconds.copyFile)} MB/s, stream copy ${last(seconds.stream)}; ` +
          `upload bare ${last(seconds.bareUpload)}, Parley ${last(seconds.upload)}; ` +
          `download bare ${last(seconds.bareDownload)}, Parley ${last(seconds.download)} ` +
          `(load ${loadAverage()})`,
      );
    }
    for (const s of samplers) s.stop();
    const hwm = procMemory(server.pid, 'VmHWM');
    const bareHwm = procMemory(bare.pid, 'VmHWM');

    const rates = (list: number[]) => list.map((s) => rateOf(size, s));
    /** Per run, Parley's rate over the bare server's of the same run. */
    const paired = (ours: number[], theirs: number[]) => ours.map((s, i) => (theirs[i] ?? Number.NaN) / s);
    /** The server's CPU seconds per GiB moved (median over the runs). */
    const cpuPerGiB = (list?: number[]) => (list ? (median(list) / (size / (1024 * MiB))).toFixed(2) : '');
    const row = (name: string, list: number[], ratios?: number[], cpuList?: number[], bareCpu?: number[]) => {
      const values = rates(list);
      return [
        name,
        median(values).toFixed(0),
        `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`,
        ratios ? median(ratios).toFixed(2) : '',
        ratios ? ratios.map((r) => r.toFixed(2)).join(' ') : '',
        cpuPerGiB(cpuList),
        cpuList && bareCpu ? (median(bareCpu) / median(cpuList)).toFixed(2) : '',
      ];
    };
    const uploadRatios = paired(seconds.upload, seconds.bareUpload);
    const downloadRatios = paired(seconds.download, seconds.bareDownload);
    console.log('');
    console.log(
      `Median of ${runs} runs; MB = 10^6 bytes; every writer fsyncs before the clock stops; ratio = Parley ÷ bare server, run by run (load average ${loadAverage()}).`,
    );
    console.log(
      table([
        [
          'step',
          'median MB/s',
          'min–max',
          'median ÷ bare',
          'per run ÷ bare',
          'server CPU s/GiB',
          'bare CPU ÷ CPU',
        ],
        row('raw copy: fs.copyFile', seconds.copyFile),
        row('raw copy: stream pipe, 1 MiB chunks', seconds.stream),
        row('upload: bare Node server', seconds.bareUpload, undefined, cpu.bareUpload),
        row(
          'upload: Parley, upsert + PUT uploadUrl',
          seconds.upload,
          uploadRatios,
          cpu.upload,
          cpu.bareUpload,
        ),
        row('download: bare Node server', seconds.bareDownload, undefined, cpu.bareDownload),
        row(
          'download: Parley, getFile + GET url',
          seconds.download,
          downloadRatios,
          cpu.download,
          cpu.bareDownload,
        ),
      ]),
    );
    const peak = Math.max(...Object.values(parleySampler.peaks));
    const barePeak = Math.max(...Object.values(bareSampler.peaks));
    console.log('');
    console.log(
      `Server memory (RSS, sampled every 100 ms: Parley pid ${server.pid} ${parleySampler.samples()} samples, bare pid ${bare.pid} ${bareSampler.samples()}; file ${megabytes(size, 0)}):`,
    );
    const memoryRow = (when: string, bytes: number, bareBytes?: number) => [
      when,
      megabytes(bytes, 0),
      `${((100 * bytes) / size).toFixed(1)} %`,
      bareBytes === undefined ? '' : megabytes(bareBytes, 0),
    ];
    console.log(
      table([
        ['when', 'Parley peak RSS', '÷ file size', 'bare server'],
        memoryRow('right after start', startRss),
        memoryRow('idle after a 1 MiB warm-up', idleRss, bareIdleRss),
        memoryRow('between transfers (raw copies)', parleySampler.peaks.copy, bareSampler.peaks.copy),
        memoryRow('during uploads', parleySampler.peaks.upload, bareSampler.peaks.upload),
        memoryRow('during downloads', parleySampler.peaks.download, bareSampler.peaks.download),
        memoryRow('peak overall', peak, barePeak),
        ...(hwm === undefined ? [] : [memoryRow('kernel high-water mark (VmHWM)', hwm, bareHwm)]),
      ]),
    );
    console.log(
      `Parley's peak growth over idle (after warm-up): ${megabytes(peak - idleRss, 0)}; sha256 verified: ${verifiedUploads}/${runs} uploads (server checksum), ${verifiedDownloads}/${runs} Parley downloads and ${runs}/${runs} bare downloads`,
    );
  } finally {
    await cleanup();
  }
}

if (process.argv[2] === '--bare-server') {
  runBareServer(Number(process.argv[3]), process.argv[4] ?? '.');
} else {
  runMain(main);
}
