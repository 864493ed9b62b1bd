/**
 * Regenerates the README's configuration table from the variables' schema (src/config/schema.ts). Reads the
 * compiled modules, so run it as `npm run docs:tables -w @parley/server`, which compiles first.
 * `readme.test.ts` fails while the README and the schema differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { CONFIG_HEADING, renderConfigTable } from '../dist/config/docs.js';
import { replaceTable } from '../dist/config/markdown.js';

const readmeUrl = new URL('../../../README.md', import.meta.url);
const before = readFileSync(readmeUrl, 'utf8');
const after = replaceTable(before, CONFIG_HEADING, renderConfigTable());
if (after === before) {
  console.log('README.md tables are up to date');
} else {
  writeFileSync(readmeUrl, after);
  console.log('README.md configuration table regenerated');
}
