// A Parley deployment for black-box tests and benchmarks: one `parley serve` process on SQLite and its data
// folder, or a cluster of processes on one PostgreSQL database and one S3-compatible store (s3rver) behind
// nginx, round-robin, no sticky sessions. Nothing happens at import: everything starts in startDeployment().
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Exit,
  freePort,
  onMaintenanceDb,
  type PrintedBootstrap,
  parseBootstrapBanner,
  postgresTestUrl,
  type ServerProcess,
  startServer,
  withDatabase,
} from './server.js';

/** Debian's nginx (apt-get install nginx), or the one PARLEY_NGINX names. */
export const NGINX = process.env.PARLEY_NGINX ?? '/usr/sbin/nginx';

/** The two deployments the acceptance suite runs against. */
export type DeploymentKind = 'single' | 'cluster';

/** Options of {@link startDeployment}. */
export interface DeploymentOptions {
  /** Environment of every process (on top of the deployment's own settings; `undefined` removes one). */
  env?: Record<string, string | undefined>;
  /** More environment for process `index` only (e.g. a per-process URL of a stand-in service). */
  processEnv?: (index: number) => Record<string, string | undefined>;
  /** Processes of a cluster (default 3); a `single` deployment has one. */
  processes?: number;
  /** The PostgreSQL server a cluster makes its own database on (default `PARLEY_TEST_DATABASE_URL`). */
  postgresUrl?: string;
}

/** A running deployment: the one base URL its users talk to, and its parts. */
export interface Deployment {
  readonly kind: DeploymentKind;
  /** The public base URL (nginx for a cluster), e.g. `http://127.0.0.1:41234`; also PARLEY_PUBLIC_URL. */
  readonly url: string;
  /** What the first start printed: the owner's token, workspace, demo bot and its access key. */
  readonly owner: PrintedBootstrap;
  /** The `parley serve` processes, by index; {@link restart} replaces an entry. Address one directly by its `url`. */
  readonly processes: readonly ServerProcess[];
  /** The cluster's own PostgreSQL database (`postgres://…/parley_e2e_…`); undefined for `single`. */
  readonly databaseUrl: string | undefined;
  /** Kills process `index` at once (SIGKILL, as a crash) and answers how it ended. */
  kill(index: number): Promise<Exit>;
  /** Starts process `index` again (same port, data folder and settings) once it has ended; answers it healthy. */
  restart(index: number): Promise<ServerProcess>;
  /** Stops everything and removes what the deployment made (database, bucket folder, temp folders). */
  stop(): Promise<void>;
}

/**
 * Whether a cluster can start here: PostgreSQL (`PARLEY_TEST_DATABASE_URL`) and nginx. Without them the cluster
 * tests are skipped with a printed notice, except where they are required: in CI (`CI` set) a missing nginx is
 * an error, and `PARLEY_REQUIRE_POSTGRES_TESTS=1` makes a missing database URL one.
 */
export function haveCluster(what: string): boolean {
  const postgres = postgresTestUrl();
  if (!existsSync(NGINX)) {
    if (process.env.CI || process.env.PARLEY_REQUIRE_POSTGRES_TESTS === '1') {
      throw new Error(`${NGINX} is missing: the ${what} must run here (apt-get install nginx)`);
    }
    console.warn(`${NGINX} is missing (apt-get install nginx): skipping the ${what}`);
    return false;
  }
  if (!postgres) console.warn(`PARLEY_TEST_DATABASE_URL is not set: skipping the ${what}`);
  return postgres !== undefined;
}

/** Starts a deployment of `kind` and answers it once every part answers through its base URL. */
export function startDeployment(kind: DeploymentKind, options: DeploymentOptions = {}): Promise<Deployment> {
  return kind === 'single' ? startSingle(options) : startCluster(options);
}

/** Settings every deployment shares: no rate limit (tests send many requests with one token), metrics on. */
const COMMON_ENV = { PARLEY_RATE_LIMIT_MAX: '0', PARLEY_METRICS: 'true' };

/** How long a process may take to answer /healthz (migrations under a lock, on a loaded machine). */
const READY_MS = 60_000;

/** One restartable slot of a deployment: its process and how it was started. */
class Slots {
  readonly processes: ServerProcess[] = [];
  private readonly starts: Array<Parameters<typeof startServer>[0]> = [];

  add(proc: ServerProcess, start: Parameters<typeof startServer>[0]): void {
    this.processes.push(proc);
    this.starts.push(start);
  }

  private at(index: number): ServerProcess {
    const proc = this.processes[index];
    if (!proc) throw new Error(`no process ${index} (there are ${this.processes.length})`);
    return proc;
  }

  kill(index: number): Promise<Exit> {
    return this.at(index).stop('SIGKILL');
  }

  async restart(index: number): Promise<ServerProcess> {
    const old = this.at(index);
    await old.exited;
    const proc = await startServer({
      ...this.starts[index],
      port: old.port,
      dataDir: old.dataDir,
      readyTimeoutMs: READY_MS,
    });
    await proc.waitForStdout(/Parley listening on/);
    this.processes[index] = proc;
    return proc;
  }

  /** Stops every process (their data folders live in the deployment's temp folder). */
  async stop(): Promise<void> {
    await Promise.all(this.processes.map((proc) => proc.stop()));
  }
}

/** A fresh data folder for process `index` inside the deployment's temp folder. */
async function dataDirIn(folder: string, index: number): Promise<string> {
  const dir = join(folder, `process-${index}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

async function startSingle(options: DeploymentOptions): Promise<Deployment> {
  const folder = await mkdtemp(join(tmpdir(), 'parley-single-'));
  const slots = new Slots();
  const stop = async () => {
    await slots.stop();
    await rm(folder, { recursive: true, force: true });
  };
  try {
    const start = {
      env: { ...COMMON_ENV, ...options.env, ...options.processEnv?.(0) },
      dataDir: await dataDirIn(folder, 0),
      readyTimeoutMs: READY_MS,
    };
    const server = await startServer(start);
    slots.add(server, start);
    await server.waitForStdout(/Parley listening on/);
    const owner = parseBootstrapBanner(server.stdout());
    if (!owner) throw new Error(`no first-start banner on stdout:\n${server.stdout()}`);
    return {
      kind: 'single',
      url: server.url,
      owner,
      processes: slots.processes,
      databaseUrl: undefined,
      kill: (index) => slots.kill(index),
      restart: (index) => slots.restart(index),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The bucket a cluster keeps its file bytes in (in its own s3rver folder). */
const BUCKET = 'parley-e2e';

async function startCluster(options: DeploymentOptions): Promise<Deployment> {
  const serverUrl = options.postgresUrl ?? postgresTestUrl();
  if (!serverUrl) throw new Error('a cluster needs PostgreSQL: set PARLEY_TEST_DATABASE_URL');
  const count = options.processes ?? 3;
  const database = `parley_e2e_${randomBytes(6).toString('hex')}`;
  const folder = await mkdtemp(join(tmpdir(), 'parley-cluster-'));
  const undo: Array<() => Promise<unknown>> = [() => rm(folder, { recursive: true, force: true })];
  const slots = new Slots();
  const stopAll = async () => {
    for (const step of undo.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    await onMaintenanceDb(serverUrl, `create database "${database}"`);
    undo.push(() => onMaintenanceDb(serverUrl, `drop database if exists "${database}" with (force)`));
    const databaseUrl = withDatabase(serverUrl, database);

    const s3 = await startS3rver(join(folder, 's3'));
    undo.push(s3.close);

    const proxyPort = await freePort();
    const url = `http://127.0.0.1:${proxyPort}`;
    const env = {
      ...COMMON_ENV,
      PARLEY_DATABASE_URL: databaseUrl,
      PARLEY_PUBLIC_URL: url,
      PARLEY_TRUST_PROXY: 'true',
      PARLEY_S3_BUCKET: BUCKET,
      PARLEY_S3_ENDPOINT: s3.endpoint,
      PARLEY_S3_REGION: 'us-east-1',
      PARLEY_S3_ACCESS_KEY_ID: 'S3RVER',
      PARLEY_S3_SECRET_ACCESS_KEY: 'S3RVER',
      PARLEY_S3_FORCE_PATH_STYLE: 'true',
      ...options.env,
    };
    undo.push(() => slots.stop());
    // All start at once on the empty database, as a fleet does: exactly one bootstraps.
    const starts = await Promise.all(
      Array.from({ length: count }, async (_, i) => ({
        env: { ...env, ...options.processEnv?.(i) },
        dataDir: await dataDirIn(folder, i),
        readyTimeoutMs: READY_MS,
      })),
    );
    const started = await Promise.allSettled(starts.map((start) => startServer(start)));
    started.forEach((result, i) => {
      if (result.status === 'fulfilled') slots.add(result.value, starts[i]);
    });
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    await Promise.all(slots.processes.map((proc) => proc.waitForStdout(/Parley listening on/)));
    const banners = slots.processes.flatMap((proc) => parseBootstrapBanner(proc.stdout()) ?? []);
    const [owner] = banners;
    if (!owner || banners.length !== 1) {
      throw new Error(
        `expected exactly one process to bootstrap, got ${banners.length}:\n${slots.processes
          .map((proc, i) => `--- process ${i} ---\n${proc.stdout()}`)
          .join('\n')}`,
      );
    }

    const proxy = await startNginx(
      join(folder, 'nginx'),
      proxyPort,
      slots.processes.map((proc) => proc.port),
    );
    undo.push(proxy.stop);

    return {
      kind: 'cluster',
      url,
      owner,
      processes: slots.processes,
      databaseUrl,
      kill: (index) => slots.kill(index),
      restart: (index) => slots.restart(index),
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** An S3-compatible store on loopback (s3rver, in this process) with the deployment's bucket. */
async function startS3rver(directory: string): Promise<{ endpoint: string; close: () => Promise<void> }> {
  const { default: S3rver } = await import('s3rver');
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET }],
  });
  const address = (await server.run()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    close: async () => {
      await server.close();
    },
  };
}

/**
 * The nginx configuration of a cluster: one round-robin upstream (no stickiness), streams passed through as
 * they come (SSE: no buffering either way), bodies up to 2 GB, long reads (live streams, slow uploads), and
 * every path (pid, logs, temp files) inside `folder`, so it runs as any user.
 */
export function nginxConfig(folder: string, port: number, upstreamPorts: number[]): string {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  return `# generated by packages/testkit/src/e2e/deployment.ts
${root ? 'user root root;\n' : ''}daemon off;
master_process on;
worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events { worker_connections 4096; }
http {
  access_log ${folder}/access.log;
  client_body_temp_path ${folder}/client_body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  upstream parley {
${upstreamPorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 2g;
    proxy_request_buffering off;
    proxy_buffering off;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_connect_timeout 5s;
    proxy_read_timeout 1h;
    proxy_send_timeout 1h;
    location / { proxy_pass http://parley; }
  }
}
`;
}

/** nginx as a child process (not a daemon) with {@link nginxConfig}; resolves once it proxies /healthz. */
async function startNginx(
  folder: string,
  port: number,
  upstreamPorts: number[],
): Promise<{ child: ChildProcess; stop: () => Promise<void> }> {
  await mkdir(folder, { recursive: true });
  const conf = join(folder, 'nginx.conf');
  await writeFile(conf, nginxConfig(folder, port, upstreamPorts));
  const child = spawn(NGINX, ['-p', folder, '-c', conf, '-e', join(folder, 'error.log')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  let exited = false;
  const closed = new Promise<void>((resolve) =>
    child.once('close', () => {
      exited = true;
      resolve();
    }),
  );
  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await closed;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (exited) {
      const log = await readFile(join(folder, 'error.log'), 'utf8').catch(() => '');
      throw new Error(`nginx exited before it proxied:\n${output}\n${log}`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not proxy /healthz in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, stop };
}
