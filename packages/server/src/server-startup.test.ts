// `parley serve` as a real process (its TypeScript sources, transpiled as they load): which modules a start
// loads. A module loaded is memory held for the life of the process (its source text, its compiled code, what
// it builds at import), so the drivers and SDKs of settings a deployment does not use stay unloaded: the S3 SDK
// on local disk, the PostgreSQL driver on SQLite, the Redis client without PARLEY_REDIS_URL, undici until a
// webhook is sent, the document extractors until a file is indexed, the CLI's archive library,
// the OpenAPI document's and /docs's libraries until they are asked for.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../testkit/src/server/cli.js';
import { useTempDirs } from '../../testkit/src/server/temp-dirs.js';
import { eventually } from '../../testkit/src/shared/eventually.js';
import { typescriptBootstrap } from './workers/spawn.js';

const tempDir = useTempDirs('parley-startup-');

/**
 * Module hooks (registered before the TypeScript ones, which call them for every resolution): the workspace
 * packages resolve to their sources, as under Vitest, and every module URL resolved is appended to the file
 * `data.trace`.
 */
const TRACING_HOOKS = `
import { appendFileSync } from 'node:fs';
let trace;
let aliases;
export function initialize(data) {
  trace = data.trace;
  aliases = data.aliases;
}
export async function resolve(specifier, context, next) {
  const resolved = Object.hasOwn(aliases, specifier)
    ? { url: aliases[specifier], shortCircuit: true }
    : await next(specifier, context);
  appendFileSync(trace, resolved.url + '\\n');
  return resolved;
}
`;

const source = (path: string) => new URL(`../../${path}`, import.meta.url).href;
const ALIASES = {
  '@parley/protocol': source('protocol/src/index.ts'),
  '@parley/protocol/operations': source('protocol/src/operations/index.ts'),
};

let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
  child = undefined;
});

/** Starts `parley serve` from src/main.ts with `env`, waits for /healthz, stops it; answers the modules it loaded. */
async function modulesLoadedByServe(env: Record<string, string>): Promise<string[]> {
  const dir = await tempDir();
  const trace = join(dir, 'modules.txt');
  const port = await freePort();
  const hooks = `data:text/javascript;base64,${Buffer.from(TRACING_HOOKS).toString('base64')}`;
  const code = [
    `require('node:module').register(${JSON.stringify(hooks)}, { data: ${JSON.stringify({ trace, aliases: ALIASES })} });`,
    typescriptBootstrap(new URL('./main.ts', import.meta.url)),
  ].join('\n');
  const started = spawn(process.execPath, ['-e', code, 'parley', 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      PARLEY_DATA_DIR: join(dir, 'data'),
      PARLEY_LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = started;
  let output = '';
  started.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  started.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await eventually(
    async () => {
      if (started.exitCode !== null) throw new Error(`parley serve exited (${started.exitCode})`);
      return fetch(`http://127.0.0.1:${port}/healthz`).then(
        (res) => res.ok,
        () => false,
      );
    },
    90_000,
    100,
    'parley serve to answer',
  ).catch((error: Error) => {
    throw new Error(`${error.message}:\n${output}`);
  });
  const exited = once(started, 'exit');
  started.kill('SIGTERM');
  const [exitCode] = (await exited) as [number | null];
  expect(exitCode, output).toBe(0);
  return (await readFile(trace, 'utf8')).split('\n').filter((line) => line !== '');
}

/** Whether a module of the npm package `name` is among `urls`. */
const loadsPackage = (urls: string[], name: string) =>
  urls.some((url) => url.includes(`/node_modules/${name}/`));

describe('parley serve on SQLite and local disk (default settings)', () => {
  it('answers /healthz without loading the drivers, SDKs and tools of settings it does not use', async () => {
    const urls = await modulesLoadedByServe({});
    // The trace sees the server's own modules and the packages they import.
    expect(urls.some((url) => url.endsWith('/src/app.ts'))).toBe(true);
    expect(urls.some((url) => url.endsWith('/src/blob/local-disk.ts'))).toBe(true);
    for (const used of ['fastify', 'better-sqlite3', 'kysely'])
      expect(loadsPackage(urls, used), used).toBe(true);

    expect(urls.filter((url) => url.endsWith('/src/blob/s3.ts'))).toEqual([]);
    const unused = [
      '@aws-sdk/client-s3', // PARLEY_BLOB_STORE=s3 only
      '@aws-sdk/lib-storage',
      'pg', // PARLEY_DATABASE_URL only
      'ioredis', // PARLEY_REDIS_URL only
      'prom-client', // PARLEY_METRICS=true only
      'undici', // the first webhook
      'unpdf', // the first extraction
      'mammoth',
      'onnxruntime-node', // the first embedding, in its worker
      'usearch',
      'tar', // parley backup / restore
      '@fastify/swagger', // the first request for the OpenAPI document or /docs
      '@fastify/swagger-ui',
      '@fastify/static',
      'yaml',
      'glob',
    ];
    expect(unused.filter((name) => loadsPackage(urls, name))).toEqual([]);
  }, 120_000);
});

describe('parley serve without a rate limit (PARLEY_RATE_LIMIT_MAX=0)', () => {
  it('does not load the rate limiter (nor ip-address, which comes with it)', async () => {
    const urls = await modulesLoadedByServe({ PARLEY_RATE_LIMIT_MAX: '0' });
    expect(loadsPackage(urls, 'fastify'), 'the trace works').toBe(true);
    expect(['@fastify/rate-limit', 'ip-address'].filter((name) => loadsPackage(urls, name))).toEqual([]);
  }, 120_000);
});
