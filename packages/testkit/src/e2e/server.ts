// Black-box helpers: run the built server (`packages/server/dist/main.js`) as a real process and talk to it
// only over HTTP and its command line. Nothing here imports server code.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../shared/ports.js';
import { waitFor } from './waiters.js';

export { freePort };

/** The repository root. */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
/** The built server entry point (`parley serve` and the server's own commands; what `npm start` runs). */
export const serverMain = join(repoRoot, 'packages', 'server', 'dist', 'main.js');
/** The built `parley` command (packages/cli: the server's commands and the remote ones). */
export const cliMain = join(repoRoot, 'packages', 'cli', 'dist', 'main.js');

/** Throws a clear error when the server or the CLI has not been built (each e2e file calls this first). */
export function requireBuild(): void {
  for (const main of [serverMain, cliMain]) {
    if (!existsSync(main)) {
      throw new Error(
        `The e2e tests run the built server and CLI, but ${main} is missing: run \`npx tsc -b\` first (\`npm test\` builds before running Vitest).`,
      );
    }
  }
}

/** Environment variables of this process that would change the server's behaviour; never passed down. */
const SERVER_VARIABLE = /^(PARLEY_|PORT$|HOST$|LOG_LEVEL$)/;

/** The child environment: this process's, minus any server setting, plus `env`. */
function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !SERVER_VARIABLE.test(key)),
  );
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete base[key];
    else base[key] = value;
  }
  return base;
}

const dataDirs: string[] = [];

/** A fresh, empty temp folder for a data dir; removed by `cleanup()`. */
export async function makeDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-e2e-'));
  dataDirs.push(dir);
  return dir;
}

/** How a process ended. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running `parley serve` process. */
export interface ServerProcess {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout so far. */
  stdout(): string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves when stdout matches `pattern` (already or later); rejects on timeout or exit. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with how the process ended. */
  exited: Promise<Exit>;
  /** Sends `signal` (default SIGTERM) and resolves with the exit; SIGKILL after `timeoutMs`. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<Exit>;
}

/** Options of `startServer`. */
export interface StartOptions {
  /** Extra environment (PARLEY_ADMIN_TOKEN, PARLEY_DATABASE_URL, ...); `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** Data dir to use (default: a fresh temp folder). */
  dataDir?: string;
  /** Port to use (default: a free one). */
  port?: number;
  /** How long to wait for /healthz (default 20 s). */
  readyTimeoutMs?: number;
}

const running = new Set<ServerProcess>();

function describeOutput(stdout: string, stderr: string): string {
  return `\n--- stdout ---\n${stdout.slice(-4000)}\n--- stderr ---\n${stderr.slice(-4000)}`;
}

/**
 * Spawns `node packages/server/dist/main.js serve` on a free port and a temp data dir, and resolves once
 * GET /healthz answers 200. Logs default to `warn` so stdout holds what a user reads.
 */
export async function startServer(options: StartOptions = {}): Promise<ServerProcess> {
  // A free port can be taken between its probe and the listen: if port and data dir were ours to choose, start again
  // on others (the server bootstraps before it listens: a caller's own dir would not print its banner twice).
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOn(options.port ?? (await freePort()), options);
    } catch (error) {
      const ours = options.port === undefined && options.dataDir === undefined && attempt < 3;
      if (!(ours && error instanceof Error && /EADDRINUSE/.test(error.message))) throw error;
    }
  }
}

async function startServerOn(port: number, options: StartOptions): Promise<ServerProcess> {
  requireBuild();
  const dataDir = options.dataDir ?? (await makeDataDir());
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [serverMain, 'serve'], {
    cwd: repoRoot,
    env: childEnv({
      PARLEY_LOG_LEVEL: 'warn',
      // Indexing at the process's own priority, as in-process test apps do (harness.ts): at nice 19 it waits for
      // the other test files keeping a CI machine's cores busy. A test of the priority sets it.
      PARLEY_INDEXING_NICE: '0',
      ...options.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PARLEY_DATA_DIR: dataDir,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    notify();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    notify();
  });
  let exit: Exit | undefined;
  const exited = new Promise<Exit>((resolve) => {
    child.once('close', (code, signal) => {
      exit = { code, signal };
      running.delete(proc);
      notify();
      resolve(exit);
    });
  });

  const proc: ServerProcess = {
    url,
    port,
    dataDir,
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForStdout(pattern, timeoutMs = 10_000) {
      return waitFor(
        waiters,
        () => {
          const match = out.match(pattern);
          if (match) return match;
          if (exit)
            throw new Error(
              `server exited (${exit.code}) before printing ${pattern}${describeOutput(out, err)}`,
            );
          return undefined;
        },
        timeoutMs,
        () => new Error(`timed out waiting for ${pattern} on stdout${describeOutput(out, err)}`),
      );
    },
    async stop(signal = 'SIGTERM', timeoutMs = 15_000) {
      if (exit) return exit;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
  running.add(proc);

  const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000);
  for (;;) {
    if (exit) {
      throw new Error(
        `server exited with code ${exit.code} before it was healthy${describeOutput(out, err)}`,
      );
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await proc.stop('SIGKILL');
      throw new Error(`server did not answer ${url}/healthz in time${describeOutput(out, err)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return proc;
}

/**
 * Declares that a test file runs built server processes: fails at once, clearly, without a build, and stops
 * every server the file started (and removes their data dirs) after its last test. Call it at the top level.
 */
export function useServerProcesses(): void {
  requireBuild();
  afterAll(cleanup);
}

/**
 * Starts a server on a new data dir (see startServer) and waits until it listens and has printed its
 * first-start banner, which it answers alongside the process.
 */
export async function startFirstRun(
  options: StartOptions = {},
): Promise<{ server: ServerProcess; boot: PrintedBootstrap }> {
  const server = await startServer(options);
  await server.waitForStdout(/Parley listening on/);
  const boot = parseBootstrapBanner(server.stdout());
  if (!boot) throw new Error(`no first-start banner on stdout:\n${server.stdout()}`);
  return { server, boot };
}

/** The server `useFirstRun` started and the banner it printed; both are set once the suite's beforeAll ran. */
export interface FirstRun {
  server: ServerProcess;
  boot: PrintedBootstrap;
}

/**
 * Declares the server processes of the enclosing suite (see useServerProcesses: their cleanup runs after its
 * last test) and starts one first-run server (see startFirstRun) in its beforeAll. `options` may be a
 * function, read when the server starts (after the beforeAll hooks declared before this call).
 * @example const run = useFirstRun({ env: { PARLEY_RATE_LIMIT_MAX: '0' } }); // then run.server.url, run.boot.botId
 */
export function useFirstRun(options: StartOptions | (() => StartOptions) = {}, timeoutMs?: number): FirstRun {
  useServerProcesses();
  const run = {} as FirstRun;
  beforeAll(async () => {
    Object.assign(run, await startFirstRun(typeof options === 'function' ? options() : options));
  }, timeoutMs);
  return run;
}

/** What the owner's token lists through `baseUrl`: the bots of its workspace and its workspaces. */
export async function ownerLists(baseUrl: string, owner: { token: string; workspaceId: string }) {
  const bots = await api<{ bots: { id: string; name: string }[] }>(baseUrl, '/v1/admin/bots', {
    token: owner.token,
    workspaceId: owner.workspaceId,
  });
  const workspaces = await api<{ workspaces: { id: string }[] }>(baseUrl, '/v1/admin/workspaces', {
    token: owner.token,
  });
  return { bots, workspaces };
}

/** Stops every server still running and removes every temp data dir (call in afterAll). */
export async function cleanup(): Promise<void> {
  await Promise.all([...running].map((proc) => proc.stop('SIGKILL')));
  await Promise.all(dataDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** What a CLI run printed and how it exited. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `parley <args>` (the built packages/cli `main.js`) with `env` on top of a clean environment.
 * @example await runCli(['workspaces', 'create', '--name', 'W'], { PARLEY_DATA_DIR: dir })
 */
export async function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 20_000,
): Promise<CliResult> {
  requireBuild();
  const child = spawn(process.execPath, [cliMain, ...args], {
    cwd: repoRoot,
    env: childEnv({ PARLEY_LOG_LEVEL: 'warn', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (exitCode) => resolve(exitCode));
    });
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/** What the first start prints once. */
export interface PrintedBootstrap {
  email: string;
  token: string;
  workspaceId: string;
  botId: string;
  botAccessKey: string;
  file: string;
  curl: string;
}

/** Reads the first-start banner from stdout; undefined when none was printed. */
export function parseBootstrapBanner(stdout: string): PrintedBootstrap | undefined {
  const field = (label: string) => stdout.match(new RegExp(`^\\s+${label}\\s+(\\S+)\\s*$`, 'm'))?.[1];
  const token = field('personal access token');
  if (token === undefined) return undefined;
  const values = {
    email: field('owner e-mail'),
    token,
    workspaceId: field('workspace id'),
    botId: field('demo bot id'),
    botAccessKey: field('demo bot access key'),
    file: field('written to'),
    curl: stdout.match(/^Try: (curl .+)$/m)?.[1],
  };
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) throw new Error(`the first-start banner has no ${key}:\n${stdout}`);
  }
  return values as PrintedBootstrap;
}

/** A JSON answer of the API. */
export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** Options of `api`. */
export interface ApiCall {
  method?: string;
  token?: string;
  workspaceId?: string;
  body?: unknown;
}

/**
 * One HTTP call to the API, like `curl -H "Authorization: Bearer …" -H "x-workspace-id: …"`.
 * @example await api(server.url, '/v1/admin/bots', { token, workspaceId })
 */
export async function api<T = Record<string, unknown>>(
  baseUrl: string,
  path: string,
  call: ApiCall = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {};
  if (call.token !== undefined) headers.authorization = `Bearer ${call.token}`;
  if (call.workspaceId !== undefined) headers['x-workspace-id'] = call.workspaceId;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, {
    method: call.method ?? (call.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? {} : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

export { onMaintenanceDb, postgresTestUrl, withDatabase } from '../server/postgres.js';
