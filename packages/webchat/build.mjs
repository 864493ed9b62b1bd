// Bundles the loader (dist/inject.js) and the lazily loaded UI (dist/webchat.js) with esbuild, writes
// each non-English catalog as dist/locale-<tag>.json (fetched by a visitor who needs it; English is in
// webchat.js), and prints their sizes (raw and gzip).
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'dist');
await mkdir(out, { recursive: true });

// The browser needs of @parley/protocol only the configuration validator and the error catalogue (which the
// client's errors read), not every wire schema.
const protocolSources = join(here, '../protocol/src');
const protocolWebchatOnly = {
  name: 'protocol-webchat-only',
  setup(b) {
    b.onResolve({ filter: /^@parley\/protocol$/ }, () => ({
      path: 'protocol',
      namespace: 'protocol-webchat',
    }));
    b.onLoad({ filter: /.*/, namespace: 'protocol-webchat' }, () => ({
      contents: "export * from './webchat-config.ts'; export * from './errors.ts';",
      resolveDir: protocolSources,
      loader: 'ts',
    }));
    // The Chat API client of @parley/client without its uploads (`@parley/client/chat`), from its sources.
    b.onResolve({ filter: /^@parley\/client\/chat$/ }, () => ({
      path: join(here, '../client/src/chat-entry.ts'),
    }));
    // webchat-config.ts and errors.ts build TypeBox schema objects the browser never reads; a stand-in that
    // keeps the property names saves TypeBox's ~75 kB in the browser. The validator code is the real one.
    b.onResolve({ filter: /^typebox$/ }, () => ({ path: 'typebox', namespace: 'typebox-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'typebox-stub' }, () => ({
      contents:
        'const any = () => ({}); export default { Object: (properties) => ({ properties }), Optional: (s) => s, String: any, Number: any, Integer: any, Boolean: any, Union: any, Literal: any, Array: any, Record: any, Unknown: any };',
      loader: 'js',
    }));
  },
};

const common = {
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  legalComments: 'none',
  sourcemap: 'linked',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  plugins: [protocolWebchatOnly],
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
};
await build({ ...common, entryPoints: [join(here, 'src/loader.ts')], outfile: join(out, 'inject.js') });
const ui = await build({
  ...common,
  entryPoints: [join(here, 'src/webchat.ts')],
  outfile: join(out, 'webchat.js'),
  metafile: true,
});
// What each input contributes to webchat.js, for bench/webchat-size.ts.
await writeFile(join(out, 'webchat.meta.json'), JSON.stringify(ui.metafile));

const catalogs = (await readdir(join(here, 'src/locales'))).filter((name) => name.endsWith('.json'));
for (const name of catalogs) {
  if (name === 'en.json') continue;
  const texts = JSON.parse(await readFile(join(here, 'src/locales', name), 'utf8'));
  await writeFile(join(out, `locale-${name}`), JSON.stringify(texts));
}

for (const name of ['inject.js', 'webchat.js', 'locale-de.json']) {
  const bytes = await readFile(join(out, name));
  const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
  console.log(`webchat: dist/${name} ${kb(bytes.length)} (${kb(gzipSync(bytes).length)} gzip)`);
}
