// What a site pays to embed the webchat: the loader every page downloads, and the UI loaded on first use,
// raw, gzip and brotli, beside the public webchat's published 235.7 kB gzip (its React package, ESM, with a
// 250 kB gate in its CI: ../shared/design/WEBCHAT.md). The bundle is built fresh from the sources, and the
// UI's bytes are broken down by where they come from (esbuild's metafile).
//
//   npm run webchat-size -w bench
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { table } from './lib/format.js';

/** The public webchat's size, gzip, as published (WEBCHAT.md). */
const PUBLIC_WEBCHAT_GZIP = 235.7 * 1000;

const webchatDir = fileURLToPath(new URL('../../../packages/webchat/', import.meta.url));

interface Metafile {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

function sizes(bytes: Buffer) {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** The package an input belongs to (`preact`, `marked`, …), or `webchat` / `protocol` for our sources. */
function origin(input: string): string {
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (inModules?.[1]) return inModules[1];
  if (input.includes('packages/protocol/')) return '@parley/protocol (validator, operations, error types)';
  if (input.includes('packages/client/')) return '@parley/client (chat calls, live stream, errors)';
  if (input.startsWith('typebox-stub:')) return 'typebox stand-in';
  return '@parley/webchat (our code)';
}

async function main(): Promise<void> {
  const started = performance.now();
  execFileSync(process.execPath, [`${webchatDir}build.mjs`], { stdio: 'pipe' });
  console.log(`built the webchat from its sources in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const loader = sizes(await readFile(`${webchatDir}dist/inject.js`));
  const ui = sizes(await readFile(`${webchatDir}dist/webchat.js`));
  const rows: Array<[string, ReturnType<typeof sizes>]> = [
    ['inject.js (loader, on every page)', loader],
    ['webchat.js (UI, on first use)', ui],
    ['both', { raw: loader.raw + ui.raw, gzip: loader.gzip + ui.gzip, brotli: loader.brotli + ui.brotli }],
  ];
  console.log('');
  console.log(
    table([
      ['file', 'raw', 'gzip -9', 'brotli 11', 'gzip ÷ public webchat (235.7 kB gzip)'],
      ...rows.map(([name, s]) => [
        name,
        kB(s.raw),
        kB(s.gzip),
        kB(s.brotli),
        `${(s.gzip / PUBLIC_WEBCHAT_GZIP).toFixed(3)}×`,
      ]),
    ]),
  );

  const meta = JSON.parse(await readFile(`${webchatDir}dist/webchat.meta.json`, 'utf8')) as Metafile;
  const output = Object.entries(meta.outputs).find(([name]) => name.endsWith('webchat.js'))?.[1];
  if (!output) throw new Error('webchat.meta.json has no webchat.js output: rebuild with build.mjs');
  const byOrigin = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    byOrigin.set(origin(input), (byOrigin.get(origin(input)) ?? 0) + bytesInOutput);
  }
  const total = [...byOrigin.values()].reduce((a, b) => a + b, 0);
  console.log('\nwebchat.js by origin (minified bytes before compression):');
  console.log(
    table([
      ['from', 'bytes', 'share'],
      ...[...byOrigin]
        .sort((a, b) => b[1] - a[1])
        .map(([name, bytes]) => [name, kB(bytes), `${((100 * bytes) / total).toFixed(1)} %`]),
    ]),
  );
  const both = loader.gzip + ui.gzip;
  console.log(
    `\nloader + UI: ${kB(both)} gzip, ${(PUBLIC_WEBCHAT_GZIP / both).toFixed(1)}× smaller than the public webchat; a page that never opens the chat downloads ${kB(loader.gzip)} gzip`,
  );
}

await main();
