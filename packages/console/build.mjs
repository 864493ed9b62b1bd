// Bundles the Console (src/main.tsx and its CSS) with esbuild into content-hashed files under dist/assets/,
// writes dist/index.html naming them (no inline script or style: the server's CSP allows 'self' only), and
// prints the sizes (raw and gzip).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'dist');
const assets = join(out, 'assets');
await rm(assets, { recursive: true, force: true });
await mkdir(assets, { recursive: true });

const result = await build({
  entryPoints: { console: join(here, 'src/main.tsx') },
  outdir: assets,
  entryNames: '[name]-[hash]',
  // The pages past the first screen are chunks loaded when opened (src/ui/lazy-pages.ts).
  splitting: true,
  chunkNames: 'chunk-[hash]',
  assetNames: '[name]-[hash]',
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  legalComments: 'none',
  sourcemap: 'linked',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
  metafile: true,
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [
    {
      // @parley/client from its sources (as the webchat takes its event-stream reader), so a bundle never
      // depends on whether the client's dist/ is fresh.
      name: 'parley-client-for-browsers',
      setup(b) {
        b.onResolve({ filter: /^@parley\/client$/ }, () => ({ path: join(here, '../client/src/index.ts') }));
        // At run time the client needs only the error table of @parley/protocol (every other import is a
        // type); errors.ts builds one TypeBox schema nobody reads in the browser, so TypeBox (~75 kB) is a
        // stand-in here. A new run-time import of the protocol fails this build by name.
        b.onResolve({ filter: /^@parley\/protocol$/ }, () => ({
          path: join(here, '../protocol/src/errors.ts'),
        }));
        b.onResolve({ filter: /^typebox$/ }, () => ({ path: 'typebox', namespace: 'typebox-stub' }));
        // TanStack Form reports to TanStack's devtools: an event client that, once a form mounts, dispatches
        // connect events on window every second, and a throttle for its state reports (~5 kB). The Console
        // ships without those devtools, so both are no-ops here (form-core imports nothing else from them).
        b.onResolve({ filter: /^@tanstack\/(devtools-event-client|pacer-lite)$/ }, (args) => ({
          path: args.path,
          namespace: 'devtools-stub',
        }));
        b.onLoad({ filter: /.*/, namespace: 'devtools-stub' }, () => ({
          contents: [
            'export class EventClient { on() { return () => {}; } emit() {} }',
            'export const liteThrottle = () => () => {};',
          ].join('\n'),
          loader: 'js',
        }));
        b.onLoad({ filter: /.*/, namespace: 'typebox-stub' }, () => ({
          contents: 'export default new Proxy({}, { get: () => () => ({}) });',
          loader: 'js',
        }));
      },
    },
  ],
});

const files = Object.keys(result.metafile.outputs).map((path) => basename(path));
const script = files.find((name) => name.startsWith('console-') && name.endsWith('.js'));
const style = files.find((name) => name.startsWith('console-') && name.endsWith('.css'));
if (!script || !style) throw new Error(`esbuild produced no script or style: ${files.join(', ')}`);
// Only the entry's style file is linked: a style imported by a lazily loaded page would be a file nothing loads.
const strayStyles = files.filter((name) => name.endsWith('.css') && name !== style);
if (strayStyles.length > 0)
  throw new Error(`import page styles from src/pages.css, not from a page module: ${strayStyles.join(', ')}`);

/** The chunks a script imports statically (recursively): what the first screen needs before it runs. */
function staticImports(name, seen = new Set()) {
  const output = Object.entries(result.metafile.outputs).find(([path]) => basename(path) === name)?.[1];
  for (const imported of output?.imports ?? []) {
    const chunk = basename(imported.path);
    if (imported.kind === 'import-statement' && !seen.has(chunk)) {
      seen.add(chunk);
      staticImports(chunk, seen);
    }
  }
  return seen;
}
const firstChunks = [...staticImports(script)];
const preloads = firstChunks
  .map((name) => `<link rel="modulepreload" href="/console/assets/${name}">\n`)
  .join('');

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Parley Console</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/console/assets/${style}">
<script type="module" src="/console/assets/${script}"></script>
${preloads}</head>
<body>
<div id="app"></div>
<noscript>The Parley Console needs JavaScript.</noscript>
</body>
</html>
`;
await writeFile(join(out, 'index.html'), html);

const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
/** The raw and gzip bytes of files under assets/. */
async function sizes(names) {
  let raw = 0;
  let gzip = 0;
  for (const name of names) {
    const bytes = await readFile(join(assets, name));
    raw += bytes.length;
    gzip += gzipSync(bytes).length;
  }
  return `${kb(raw)} (${kb(gzip)} gzip)`;
}
const first = [script, ...firstChunks];
console.log(`console: first load, script: ${first.length} files, ${await sizes(first)}`);
console.log(`console: first load, style: dist/assets/${style} ${await sizes([style])}`);
const later = files.filter((name) => name.endsWith('.js') && !first.includes(name));
console.log(`console: ${later.length} chunks loaded with their pages, ${await sizes(later)} in all`);
