// Files API transfer benchmark: moves one large file through a real `parley serve` process (upsert, PUT to
// the uploadUrl, GET of the url) and prints MB/s beside a raw copy of the same file on the same disk, measured
// in the same run, with the server's peak memory. See bench/README.md.
//
//   npm run -w @parley/bench files-transfer -- --size 1GiB --runs 3
//
// Options (flags win over environment): --size / BENCH_SIZE (bytes, or 64MiB, 1GiB, 500MB; default 1GiB),
// --runs / BENCH_RUNS (default 3), --dir / BENCH_DIR (work folder; default the OS temp folder).
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, open, readFile, rm, unlink } from 'node:fs/promises';
import { type IncomingMessage, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

const MiB = 1024 * 1024;
const MB = 1_000_000;

/** The repository root, from bench/files-transfer.ts or its compiled copy bench/dist/files-transfer.js. */
function findRepoRoot(): string {
  for (const up of ['../', '../../']) {
    const dir = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(join(dir, 'packages', 'server', 'package.json'))) return dir;
  }
  throw new Error('cannot find the repository root from the benchmark file');
}

const repoRoot = findRepoRoot();
const serverMain = join(repoRoot, 'packages', 'server', 'dist', 'main.js');

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

function option(name: string, env: string): string | undefined {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === `--${name}`) return args[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  const value = process.env[env];
  return value === undefined || value === '' ? undefined : value;
}

// ---------------------------------------------------------------------------------------------------------
// The server process

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}

interface Server {
  url: string;
  child: ChildProcess;
  pid: number;
  botId: string;
  botAccessKey: string;
  output(): string;
  stop(): Promise<void>;
}

async function startServer(dataDir: string): Promise<Server> {
  if (!existsSync(serverMain)) throw new Error(`${serverMain} is missing: build first with \`npx tsc -b\``);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(PARLEY_|PORT$|HOST$|LOG_LEVEL$)/.test(k)) env[k] = v;
  const child = spawn(process.execPath, [serverMain, 'serve'], {
    cwd: repoRoot,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PARLEY_DATA_DIR: dataDir,
      PARLEY_LOG_LEVEL: 'warn',
      PARLEY_RATE_LIMIT_MAX: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (s: string) => {
    out += s;
  });
  child.stderr?.setEncoding('utf8').on('data', (s: string) => {
    out += s;
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (gone) throw new Error(`the server exited before it was healthy:\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not become healthy in 30 s:\n${out}`);
    }
    await sleep(50);
  }
  const boot = JSON.parse(await readFile(join(dataDir, 'bootstrap.json'), 'utf8')) as {
    botId: string;
    botAccessKey: string;
  };
  return {
    url,
    child,
    pid: child.pid ?? 0,
    botId: boot.botId,
    botAccessKey: boot.botAccessKey,
    output: () => out,
    async stop() {
      if (gone) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Memory of the server process

/** A `/proc/<pid>/status` field in bytes (VmRSS, VmHWM), or `ps` RSS when /proc is absent. */
function procBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = status.match(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

async function psRss(pid: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const ps = spawn('ps', ['-o', 'rss=', '-p', String(pid)], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    ps.stdout.setEncoding('utf8').on('data', (s: string) => {
      out += s;
    });
    ps.once('error', () => resolve(undefined));
    ps.once('close', () => {
      const kb = Number(out.trim());
      resolve(out.trim() && Number.isFinite(kb) ? kb * 1024 : undefined);
    });
  });
}

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
      const rss = procBytes(pid, 'VmRSS') ?? (await psRss(pid));
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

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

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

async function readBody(res: IncomingMessage): Promise<string> {
  let text = '';
  res.setEncoding('utf8');
  for await (const chunk of res) text += chunk as string;
  return text;
}

/** One JSON call to the Files API with the bot access key. */
async function callApi(
  server: Server,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${server.botAccessKey}`,
      'x-bot-id': server.botId,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text || '{}') as Record<string, unknown>;
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
  server: Server,
  key: string,
  path: string,
  size: number,
): Promise<{ id: string; checksum: string | undefined }> {
  const { file } = (await callApi(server, 'PUT', '/v1/files', { key, size })) as {
    file: { id: string; uploadUrl: string };
  };
  const answer = await putFile(file.uploadUrl, path, size);
  if (answer.status !== 200) throw new Error(`upload answered ${answer.status}: ${answer.body}`);
  const uploaded = (JSON.parse(answer.body) as { file: { status: string; checksum?: string } }).file;
  if (uploaded.status !== 'upload_completed') throw new Error(`upload ended ${uploaded.status}`);
  return { id: file.id, checksum: uploaded.checksum };
}

/** getFile for a fresh url, then the bytes to `target`, streamed. */
async function downloadThroughApi(
  server: Server,
  id: string,
  target: string,
): Promise<{ bytes: number; sha256: string }> {
  const { file } = (await callApi(server, 'GET', `/v1/files/${id}`)) as { file: { url: string } };
  return getFile(file.url, target);
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

// ---------------------------------------------------------------------------------------------------------
// Report

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  const line = (r: string[]) =>
    `| ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (c === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(rows[0] ?? []), rule, ...rows.slice(1).map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const size = parseSize(option('size', 'BENCH_SIZE') ?? '1GiB');
  const runs = Number(option('runs', 'BENCH_RUNS') ?? '3');
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
  const work = await mkdtemp(join(option('dir', 'BENCH_DIR') ?? tmpdir(), 'parley-bench-'));
  let server: Server | undefined;
  let sampler: ReturnType<typeof memorySampler> | undefined;
  const onSignal = () => {
    void (async () => {
      sampler?.stop();
      await server?.stop();
      await rm(work, { recursive: true, force: true });
      process.exit(130);
    })();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    const source = join(work, 'source.bin');
    console.log(`Files transfer benchmark: ${size} bytes (${(size / MiB).toFixed(1)} MiB), ${runs} runs`);
    console.log(`work folder ${work} (source, copies, server data dir: all on the same disk)`);
    const createStart = Date.now();
    const expectedSha = await createRandomFile(source, size);
    console.log(
      `created the source file (random bytes) in ${((Date.now() - createStart) / 1000).toFixed(1)} s`,
    );

    server = await startServer(join(work, 'data'));
    sampler = memorySampler(server.pid);
    await sleep(300);
    const startRss = procBytes(server.pid, 'VmRSS') ?? (await psRss(server.pid)) ?? 0;
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
    const idleRss = procBytes(server.pid, 'VmRSS') ?? (await psRss(server.pid)) ?? 0;

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
          uploaded = await uploadThroughApi(server as Server, `bench/run-${run}.bin`, source, size);
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
          got = await downloadThroughApi(server as Server, uploaded.id, target);
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
    const hwm = procBytes(server.pid, 'VmHWM');

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
      `Server memory (RSS of pid ${server.pid}, sampled every 100 ms, ${sampler.samples()} samples; file ${mb(size)}):`,
    );
    console.log(
      table([
        ['when', 'peak RSS', '÷ file size'],
        ['right after start', mb(startRss), `${((100 * startRss) / size).toFixed(1)} %`],
        ['idle after a 1 MiB warm-up', mb(idleRss), `${((100 * idleRss) / size).toFixed(1)} %`],
        [
          'between transfers (raw copies)',
          mb(sampler.peaks.copy),
          `${((100 * sampler.peaks.copy) / size).toFixed(1)} %`,
        ],
        ['during uploads', mb(sampler.peaks.upload), `${((100 * sampler.peaks.upload) / size).toFixed(1)} %`],
        [
          'during downloads',
          mb(sampler.peaks.download),
          `${((100 * sampler.peaks.download) / size).toFixed(1)} %`,
        ],
        ['peak overall', mb(peak), `${((100 * peak) / size).toFixed(1)} %`],
        ...(hwm === undefined
          ? []
          : [['kernel high-water mark (VmHWM)', mb(hwm), `${((100 * hwm) / size).toFixed(1)} %`]]),
      ]),
    );
    console.log(
      `peak growth over idle (after warm-up): ${mb(peak - idleRss)}; sha256 verified: ${verifiedUploads}/${runs} uploads (server checksum), ${verifiedDownloads}/${runs} downloads`,
    );
  } finally {
    sampler?.stop();
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
