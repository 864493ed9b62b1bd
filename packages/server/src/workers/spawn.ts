/**
 * Starts a worker thread from a module next to the caller, whether the server runs from its build
 * (`dist/…/x.js`: a plain Worker) or from its TypeScript sources (`src/…/x.ts`, as under Vitest). Node 20
 * cannot run `.ts` files, so in the second case the worker first registers a module hook that transpiles
 * `.ts` modules with esbuild (a dev dependency: types stripped, no type check; fast to load and run) and maps `./x.js`
 * imports to `./x.ts`. The build never takes that path.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The module `name` beside `importMetaUrl`, with the extension the caller itself has (`.ts` or `.js`). */
export function siblingModule(importMetaUrl: string, name: string): URL {
  const extension = new URL(importMetaUrl).pathname.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${name}${extension}`, importMetaUrl);
}

/** Module hooks (an ES module, given as a data: URL) that let a worker import TypeScript sources. */
const TYPESCRIPT_HOOKS = `
import { readFile } from 'node:fs/promises';
let esbuild;
export async function initialize(data) {
  const imported = await import(data.esbuild);
  esbuild = imported.default ?? imported;
}
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith('./') || specifier.startsWith('../');
    if (relative && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
      return next(specifier.slice(0, -3) + '.ts', context);
    }
    throw error;
  }
}
export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const { code } = esbuild.transformSync(await readFile(new URL(url), 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: 'node20.19', // the engines' floor: import attributes (with { type: 'json' }) kept, es2022 drops them
    sourcefile: url,
    sourcemap: 'inline',
  });
  return { format: 'module', source: code, shortCircuit: true };
}
`;

/** Starts `entry` in a worker thread; a `.ts` entry runs through the transpiling hooks above. */
export function spawnWorker(entry: URL, options: WorkerOptions = {}): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  return new Worker(typescriptBootstrap(entry), { ...options, eval: true });
}

/**
 * CommonJS code (for an eval'd worker or `node -e`) that registers the transpiling hooks, then imports
 * `entry`, which may be a `.ts` file or a module that imports them.
 */
export function typescriptBootstrap(entry: URL): string {
  const esbuild = pathToFileURL(createRequire(import.meta.url).resolve('esbuild')).href;
  const hooks = `data:text/javascript;base64,${Buffer.from(TYPESCRIPT_HOOKS).toString('base64')}`;
  return [
    `require('node:module').register(${JSON.stringify(hooks)}, { data: { esbuild: ${JSON.stringify(esbuild)} } });`,
    `import(${JSON.stringify(entry.href)}).catch((error) => { process.nextTick(() => { throw error; }); });`,
  ].join('\n');
}
