#!/usr/bin/env node
// The `parley` command. Plain JavaScript, committed, so npm links `parley` (node_modules/.bin, or the global bin
// of `npm install -g`) even before anything is compiled; it runs the compiled CLI, dist/main.js.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  const dist = fileURLToPath(new URL('../dist/', import.meta.url));
  process.stderr.write(
    [
      `parley: the CLI is not built (${dist}main.js is missing).`,
      'In a clone of the Parley repository, build it once at the repository root:',
      '  npm run build      (or just the CLI: npx tsc -b packages/cli)',
      '`npm install` builds it too, unless install scripts were skipped (--ignore-scripts).',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
// `parley --help | head` closes the pipe early: that ends the output, it is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
await import(main.href);
