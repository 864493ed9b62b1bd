// Child processes of the benchmarks: a `parley serve` process (or any Node script) started on a free port and
// waited for, its bootstrap.json, and calls to its API with the bot access key.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { type Agent, type IncomingMessage, request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asBot } from '../../packages/testkit/src/shared/bot-request.js';
import { onInterrupt, sleep } from './run.js';

/** The repository root, from bench/lib/server.ts or its compiled copy bench/dist/bench/lib/server.js. */
function findRepoRoot(): string {
  for (const up of ['../', '../../', '../../../', '../../../../']) {
    const dir = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(join(dir, 'packages', 'server', 'package.json'))) return dir;
  }
  throw new Error('cannot find the repository root from the benchmark file');
}

/** The repository root (the folder holding packages/server). */
export const repoRoot = findRepoRoot();

/** The built server's entry point, packages/server/dist/main.js. */
export const serverMain = join(repoRoot, 'packages', 'server', 'dist', 'main.js');
/** The built `parley` CLI of the remote commands (packages/cli). */
export const cliMain = join(repoRoot, 'packages', 'cli', 'dist', 'main.js');

/** A TCP port free on 127.0.0.1 right now (the system picks it). */
export function freePort(): Promise<number> {
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

/** The environment of this process without any server or benchmark setting (PARLEY_*, PORT, …), plus `extra`. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(PARLEY_|PORT$|HOST$|LOG_LEVEL$|BENCH_)/.test(k)) env[k] = v;
  return { ...env, ...extra };
}

/** A Node child process started by {@link spawnNode}. */
export interface NodeProcess {
  /** What the reports call it. */
  name: string;
  /** Where it listens: `http://127.0.0.1:<port>`. */
  url: string;
  pid: number;
  child: ChildProcess;
  /** The last 20,000 characters it wrote to stdout and stderr. */
  output(): string;
  /** SIGTERM, then SIGKILL after 15 s; resolves once it has exited. */
  stop(): Promise<void>;
}

const started = new Set<NodeProcess>();

/** The child processes started and not stopped yet, to stop them all or print their output on failure. */
export const running: ReadonlySet<NodeProcess> = started;

/** What {@link spawnNode} starts. */
export interface SpawnOptions {
  name: string;
  /** Node's arguments: the script, then its own. */
  args: string[];
  env: NodeJS.ProcessEnv;
  url: string;
  /** Polled every 50 ms with the output so far until it answers true (60 s at most). */
  ready: (output: string) => Promise<boolean>;
}

/**
 * Spawns `node <args>` in the repository root and resolves once `ready()` answers true.
 * @throws when the process exits first or is not ready in 60 s (it is then stopped)
 */
export async function spawnNode({ name, args, env, url, ready }: SpawnOptions): Promise<NodeProcess> {
  const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (s: string) => {
    out = (out + s).slice(-20_000);
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  let gone = false;
  const exited = new Promise<void>((resolve) =>
    child.once('close', () => {
      gone = true;
      resolve();
    }),
  );
  const proc: NodeProcess = {
    name,
    url,
    pid: child.pid ?? 0,
    child,
    output: () => out,
    async stop() {
      started.delete(proc);
      if (gone) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
  started.add(proc);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (gone) throw new Error(`${name} exited before it was ready:\n${out}`);
    if (await ready(out)) return proc;
    if (Date.now() > deadline) {
      await proc.stop();
      throw new Error(`${name} was not ready in 60 s:\n${out}`);
    }
    await sleep(50);
  }
}

/**
 * Starts `parley serve` on a free port of 127.0.0.1 with `dataDir`, warnings-only logs, no rate limit and no cap
 * on connections per address (every benchmark client connects from 127.0.0.1), and
 * resolves once /healthz answers. The server sees no PARLEY_* variable of this process's environment: only
 * `settings` (which the fixed settings above override). `main` is the server entry point to run (default: this checkout's build).
 */
export async function startParley(
  name: string,
  dataDir: string,
  settings: Record<string, string> = {},
  main: string = serverMain,
): Promise<NodeProcess> {
  if (!existsSync(main)) throw new Error(`${main} is missing: build first with \`npx tsc -b\``);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // BENCH_NODE_ARGS: flags for the server's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== '');
  return spawnNode({
    name,
    args: [...nodeArgs, main, 'serve'],
    env: childEnv({
      ...settings,
      PORT: String(port),
      HOST: '127.0.0.1',
      PARLEY_DATA_DIR: dataDir,
      PARLEY_LOG_LEVEL: 'warn',
      PARLEY_RATE_LIMIT_MAX: '0',
      PARLEY_MAX_CONNECTIONS_PER_ADDRESS: '0',
    }),
    url,
    ready: async () => {
      try {
        const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
        return res.ok;
      } catch {
        return false;
      }
    },
  });
}

/** The bot a fresh data dir is bootstrapped with (its bootstrap.json). */
export interface Bootstrap {
  botId: string;
  botAccessKey: string;
}

/** Reads `<dataDir>/bootstrap.json`, written by the server that bootstrapped the database. */
export async function readBootstrap(dataDir: string): Promise<Bootstrap> {
  const boot = JSON.parse(await readFile(join(dataDir, 'bootstrap.json'), 'utf8')) as Bootstrap;
  return { botId: boot.botId, botAccessKey: boot.botAccessKey };
}

/** A Parley server and the bot of its bootstrap.json. */
export type ParleyServer = NodeProcess & Bootstrap;

/**
 * {@link startParley} (the same arguments), then the bot of its bootstrap.json (the server is stopped if that
 * cannot be read).
 */
export async function startParleyWithBot(...args: Parameters<typeof startParley>): Promise<ParleyServer> {
  const [, dataDir] = args;
  const proc = await startParley(...args);
  try {
    return Object.assign(proc, await readBootstrap(dataDir));
  } catch (error) {
    await proc.stop();
    throw error;
  }
}

/**
 * One JSON call to the API as the bot (its access key); retried twice on a dropped connection, 120 s at most.
 * @throws when the answer is not 2xx (the message holds the start of its body)
 */
export async function callApi<T = Record<string, unknown>>(
  server: ParleyServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(`${server.url}${path}`, {
        ...asBot({ accessKey: server.botAccessKey, id: server.botId }, method, body),
        signal: AbortSignal.timeout(120_000),
      });
    } catch (error) {
      if (attempt >= 3) throw error;
      await sleep(500 * attempt);
      continue;
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text || '{}') as T;
  }
}

/** The whole body of an http response, as text. */
export async function readBody(res: IncomingMessage): Promise<string> {
  let text = '';
  res.setEncoding('utf8');
  for await (const chunk of res) text += chunk as string;
  return text;
}

/** How a benchmark sends one request: on which agent, and within how long (none: no bound). */
export interface CallOptions {
  agent: Agent;
  timeoutMs?: number;
}

/** One HTTP request (a `body` is sent as JSON): its status and its whole answer as text. */
export function httpCall(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  options: CallOptions,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method,
      agent: options.agent,
      ...(options.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(options.timeoutMs) }),
      headers: {
        ...headers,
        ...(body === undefined
          ? {}
          : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
      },
    });
    req.once('response', (res) => {
      readBody(res).then((text) => resolve({ status: res.statusCode ?? 0, text }), reject);
    });
    req.once('error', reject);
    req.end(body);
  });
}

/** A JSON API call that must answer 2xx: its parsed answer (an error names the status and the answer's start). */
export async function callJson<T>(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: unknown,
  options: CallOptions,
): Promise<T> {
  const res = await httpCall(
    url,
    method,
    headers,
    body === undefined ? undefined : JSON.stringify(body),
    options,
  );
  if (res.status < 200 || res.status > 299)
    throw new Error(`${method} ${url} answered ${res.status}: ${res.text.slice(0, 300)}`);
  return JSON.parse(res.text || '{}') as T;
}

/**
 * Runs a benchmark's `work` with `cleanup` (which stops its processes and removes its files) called on the
 * way out, also on Ctrl-C; when `work` fails, prints the end of each child process's output first.
 */
export async function withCleanup(cleanup: () => Promise<void>, work: () => Promise<void>): Promise<void> {
  onInterrupt(cleanup);
  try {
    await work();
  } catch (error) {
    for (const p of running) console.error(`--- ${p.name} output ---\n${p.output().slice(-3000)}`);
    throw error;
  } finally {
    await cleanup();
  }
}
